import ErrorStreaming
import Foundation

/// One producer the dashboard watches from outside the process: a connection to `--listen`, a `--tail`ed file,
/// or a recording being replayed. Shown in the `Sources` pane (or the header line on small terminals).
public struct SourceStatus: Sendable, Hashable, Identifiable {
    /// How the events arrive.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case socket
        case file
        case replay
        /// Standard input or a named pipe, read until its writer closes it.
        case pipe
        /// An OpenTelemetry resource (service and instance) sending to an OTLP/HTTP receiver.
        case otlp
        /// A Sentry SDK client (its `sentry_client` and release) sending to a Sentry receiver.
        case sentry
        /// A listener or receiver itself: what it had to refuse, evict or cut off to stay within its budgets.
        /// Pinned at the top of the pane, so it is never scrolled out of sight by the producers it serves.
        case listener
        /// `errorwatch run`'s child: its output, read as it prints it.
        case process
    }

    /// A stable key, for example `"socket#3"` or `"file:/var/log/app.ndjson"`.
    public var id: String
    /// Socket, file, replay or pipe.
    public var kind: Kind
    /// What to call it: the producer's `service.name`, or its peer address or path until it says.
    public var name: String
    /// Extra facts: pid and host, the socket peer, the file path.
    public var detail: String
    /// `connected`, `following`, `disconnected: <why>`, `finished`.
    public var state: String
    /// Connected and clean, connected with bad lines, gone for a bad reason, or gone quietly.
    public var health: StatusHealth
    /// Good events received.
    public var events: UInt64
    /// Lines that were not valid events (malformed JSON, too long, invalid UTF-8, unknown version).
    public var badLines: Int
    /// The last problem met, if any.
    public var lastProblem: String?
    /// When the last good event arrived.
    public var lastEventAt: Date?
    /// What ``events`` counts, for the count column (`ev` by default; the trace store counts `spans`).
    public var countNoun = "ev"
    /// Whether it waits for its turn behind a budget (a file beyond the descriptor budget, not read yet): the pane
    /// counts it as waiting, not live.
    public var waitsForTurn = false

    /// A status row.
    public init(
        id: String, kind: Kind, name: String, detail: String = "", state: String, health: StatusHealth,
        events: UInt64 = 0, badLines: Int = 0, lastProblem: String? = nil, lastEventAt: Date? = nil
    ) {
        self.id = id
        self.kind = kind
        self.name = name
        self.detail = detail
        self.state = state
        self.health = health
        self.events = events
        self.badLines = badLines
        self.lastProblem = lastProblem
        self.lastEventAt = lastEventAt
    }
}
