import ErrorWatchWire
import Synchronization

/// The last point of every cumulative metric stream the receiver has seen, so a cumulative sum or histogram
/// becomes increments and new observations (what the Metrics pane adds up) instead of being counted again with
/// each export.
///
/// A stream is one resource's metric with one set of point attributes. Its state is replaced only when a batch is
/// admitted, so a request answered 503 and sent again is counted once. At most ``maximumStreams`` are kept; points
/// of further new streams are rejected (counted in `partial_success`), never guessed.
final class OTLPMetricStreams: Sendable {
    /// What is remembered of a stream's last point.
    enum Last: Sendable, Equatable {
        /// A sum: its start time and the value (for a non-monotonic delta sum, the running total).
        case sum(start: UInt64, value: Double)
        /// An explicit-bucket histogram: start time, bounds and cumulative bucket counts.
        case histogram(start: UInt64, bounds: [Double], counts: [UInt64])
        /// An exponential histogram: start time, scale, zero count and bucket counts by bucket index.
        case exponential(start: UInt64, scale: Int32, zero: UInt64, positive: [Int: UInt64], negative: [Int: UInt64])
    }

    /// The most streams remembered.
    static let maximumStreams = 4_096

    private let streams = Mutex<[String: Last]>([:])

    init() {}

    /// Runs `body` with exclusive access to the streams; `body` must not call back into the receiver.
    func withStreams<T>(_ body: (inout Table) -> T) -> T {
        streams.withLock { streams in
            var table = Table(streams: streams)
            // The dictionary moves into the table and back, so updating it does not copy it.
            streams = [:]
            defer { streams = table.streams }
            return body(&table)
        }
    }

    /// The streams, borrowed by ``withStreams(_:)``.
    struct Table {
        fileprivate(set) var streams: [String: Last]

        /// The stream's last point, if known.
        func last(_ key: String) -> Last? { streams[key] }

        /// Whether `key` may be remembered: known already, or there is room.
        func hasRoom(for key: String) -> Bool {
            streams[key] != nil || streams.count < OTLPMetricStreams.maximumStreams
        }

        /// Remembers the stream's new last point.
        mutating func remember(_ last: Last, for key: String) { streams[key] = last }
    }
}
