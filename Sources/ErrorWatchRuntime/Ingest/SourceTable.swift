import DequeModule
import ErrorWatchUI
import OrderedCollections

/// The `Sources` pane's table as a pure state machine: every source's latest status in the order they first
/// appeared, the most recent ``endedKept`` that ended, and the count of those forgotten.
///
/// Its events return what to post (our `BroadcastLog` pattern): ``SourceBoard`` runs it under a lock and posts
/// after releasing it. One caller at a time publishes: an update made while another caller is posting only marks
/// the table changed, and that caller posts again before it stops (``published()``), so the last list posted is
/// always the newest and no lock is held while the inbox wakes the UI.
struct SourceTable {
    /// What to post after the lock is released.
    enum Action: Equatable {
        /// Nothing to post: nothing changed, or another caller is posting and will post this change too.
        case none
        /// Post the whole list, and the count of forgotten sources when it changed.
        case publish([SourceStatus], forgotten: Int?)
    }

    /// How many ended sources stay listed.
    let endedKept: Int
    private var rows: OrderedDictionary<String, SourceStatus> = [:]
    /// Ids of the sources that ended, oldest first.
    private var ended: Deque<String> = []
    /// Ended sources no longer listed.
    private(set) var forgotten = 0
    private var forgottenPosted = 0
    private var publishing = false
    private var changedWhilePublishing = false

    init(endedKept: Int) {
        self.endedKept = endedKept
    }

    /// Every source known, in the order they first appeared.
    var statuses: [SourceStatus] { Array(rows.values) }

    /// A source's new status: listed at the end if new; an ended source is remembered, and the oldest ended one
    /// forgotten past ``endedKept``.
    mutating func update(_ status: SourceStatus) -> Action { update([status], forgetting: []) }

    /// Several sources' new statuses and the ids of sources to forget (a receiver made room for newer ones), posted
    /// once: what one OTLP request changed, however many resources it named. Forgotten rows are counted like ended
    /// ones that were forgotten. Linear in the batch and the rows.
    mutating func update(_ statuses: [SourceStatus], forgetting ids: [String]) -> Action {
        if !ids.isEmpty {
            let gone = Set(ids).intersection(rows.keys)
            if !gone.isEmpty {
                rows.removeAll { gone.contains($0.key) }
                ended.removeAll { gone.contains($0) }
                forgotten += gone.count
            }
        }
        for status in statuses {
            rows[status.id] = status
            if status.health == .idle || status.health == .failing, !ended.contains(status.id) {
                ended.append(status.id)
                if ended.count > endedKept {
                    rows[ended.removeFirst()] = nil
                    forgotten += 1
                }
            }
        }
        return !statuses.isEmpty || forgotten != forgottenPosted ? changed() : .none
    }

    /// Newer counts for rows already shown: a row not shown yet, or ended, is left alone (a snapshot taken just
    /// before a producer disconnected must not revive its row).
    mutating func refresh(_ statuses: [SourceStatus]) -> Action {
        var any = false
        for status in statuses {
            guard let shown = rows[status.id], shown.health != .idle, shown.health != .failing, shown != status
            else { continue }
            rows[status.id] = status
            any = true
        }
        return any ? changed() : .none
    }

    /// The caller that was told to publish has posted; it posts again if the table changed meanwhile.
    mutating func published() -> Action {
        guard changedWhilePublishing else {
            publishing = false
            return .none
        }
        changedWhilePublishing = false
        return publication()
    }

    private mutating func changed() -> Action {
        guard !publishing else {
            changedWhilePublishing = true
            return .none
        }
        publishing = true
        return publication()
    }

    private mutating func publication() -> Action {
        let forgottenChanged = forgotten != forgottenPosted
        forgottenPosted = forgotten
        return .publish(Array(rows.values), forgotten: forgottenChanged ? forgotten : nil)
    }
}
