import Synchronization

/// How many checkout exceptions the shop recorded on request spans, by `exception.type`: what `--otel` sent, for
/// the line the shop prints when it stops (and Tests/e2e/shop_otel.sh compares with the dashboard).
final class RecordedExceptions: Sendable {
    private let counts = Mutex<[String: Int]>([:])

    /// Counts one exception of `type`.
    func add(type: String) {
        counts.withLock { $0[type, default: 0] += 1 }
    }

    /// The counts, by type.
    var byType: [String: Int] { counts.withLock { $0 } }

    /// `N checkout exceptions recorded on request spans (TYPE N, TYPE N)`, types in order.
    var summary: String {
        let counts = byType
        let total = counts.values.reduce(0, +)
        let parts = counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        return "\(total) checkout exceptions recorded on request spans (\(parts.joined(separator: ", ")))"
    }
}
