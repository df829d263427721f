import ErrorWatchUI
import Synchronization

/// A ``SourceTable`` under a lock, posting its lists to the inbox after the lock is released.
final class SourceBoard: Sendable {
    private let table: Mutex<SourceTable>
    private let inbox: ActionInbox

    init(inbox: ActionInbox, endedKept: Int) {
        self.inbox = inbox
        table = Mutex(SourceTable(endedKept: endedKept))
    }

    /// Records a source's new status and publishes the list.
    func update(_ status: SourceStatus) {
        perform(table.withLock { $0.update(status) })
    }

    /// Records several sources' statuses and forgets `ids`; publishes the list once.
    func update(_ statuses: [SourceStatus], forgetting ids: [String]) {
        guard !statuses.isEmpty || !ids.isEmpty else { return }
        perform(table.withLock { $0.update(statuses, forgetting: ids) })
    }

    /// Takes newer counts for rows already shown; posts only when a row changed.
    func refresh(_ statuses: [SourceStatus]) {
        guard !statuses.isEmpty else { return }
        perform(table.withLock { $0.refresh(statuses) })
    }

    /// Every source known, in the order they first appeared.
    var statuses: [SourceStatus] { table.withLock { $0.statuses } }

    private func perform(_ action: SourceTable.Action) {
        var action = action
        while case .publish(let list, let forgotten) = action {
            inbox.post(.sourcesChanged(list))
            if let forgotten { inbox.post(.sourcesForgotten(forgotten)) }
            action = table.withLock { $0.published() }
        }
    }
}
