/// One span of a trace, the one span type from the receivers (OTLP, Sentry transactions) to the trace store and the
/// screen: where it sits in its trace's tree, what it was, how long it took and how it ended, and nothing the views
/// do not use. Ids are the producer's: the trace as 32 lower-case hex digits, span ids of 8 bytes as numbers (their
/// hex is ``hex(_:)``). Times are the producer's nanoseconds since 1970, 0 when it sent none.
///
/// ```swift
/// let span = TraceSpan(traceID: "4bf92f3577b34da6a3ce929d0e0e4736", spanID: 7, name: "POST /pay", kind: .server)
/// ```
public struct TraceSpan: Sendable, Hashable {
    /// What side of a call the span is (OTLP's `SpanKind`; `unspecified` also for values not known here).
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case unspecified
        case `internal`
        case server
        case client
        case producer
        case consumer
    }

    /// How the span ended (OTLP's `Status.code`; `unset` also for codes not known here).
    public enum Status: String, Sendable, Hashable, CaseIterable {
        case unset
        case ok
        case error
    }

    /// The trace, as 32 lower-case hex digits.
    public var traceID: String
    /// The span's id.
    public var spanID: UInt64
    /// Its parent's id; `nil` for a root. It may name a span never received, or the span itself.
    public var parentSpanID: UInt64?
    /// Its name, as sent (clipped to 256 characters).
    public var name: String
    /// Its kind.
    public var kind: Kind
    /// The producing service (the resource's `service.name`).
    public var service: String?
    /// Start and end, in nanoseconds since 1970; 0 when not sent.
    public var startUnixNano: UInt64
    public var endUnixNano: UInt64
    /// Its status.
    public var status: Status
    /// The status description, if any.
    public var statusMessage: String?
    /// Errors counted from it (its exceptions, or its error status).
    public var errors: Int
    /// Its attributes, each value rendered as text as the receiver read it (the receiver bounds how many and how
    /// long); empty when it sent none.
    public var attributes: [String: String]
    /// Its events (exceptions among them), in the order sent (the receiver bounds how many).
    public var events: [Event]
    /// Its links to other spans, in the order sent (the receiver bounds how many).
    public var links: [Link]

    /// Something that happened during a span: an `exception` (its attributes hold `exception.type`,
    /// `exception.message`, `exception.stacktrace`) or any other named event.
    public struct Event: Sendable, Hashable {
        /// Its name, as sent.
        public var name: String
        /// When, in nanoseconds since 1970; 0 when not sent.
        public var timeUnixNano: UInt64
        /// Its attributes, values rendered as text.
        public var attributes: [String: String]

        /// An event from its parts.
        public init(name: String, timeUnixNano: UInt64 = 0, attributes: [String: String] = [:]) {
            self.name = name
            self.timeUnixNano = timeUnixNano
            self.attributes = attributes
        }
    }

    /// A link from a span to another span (of its trace or another).
    public struct Link: Sendable, Hashable {
        /// The linked span's trace, as 32 lower-case hex digits.
        public var traceID: String
        /// The linked span's id.
        public var spanID: UInt64
        /// The link's attributes, values rendered as text.
        public var attributes: [String: String]

        /// A link from its parts.
        public init(traceID: String, spanID: UInt64, attributes: [String: String] = [:]) {
            self.traceID = traceID
            self.spanID = spanID
            self.attributes = attributes
        }
    }

    /// A span from its parts.
    public init(
        traceID: String = "", spanID: UInt64, parentSpanID: UInt64? = nil, name: String, kind: Kind = .internal,
        service: String? = nil, startUnixNano: UInt64 = 0, endUnixNano: UInt64 = 0, status: Status = .unset,
        statusMessage: String? = nil, errors: Int = 0, attributes: [String: String] = [:], events: [Event] = [],
        links: [Link] = []
    ) {
        self.traceID = traceID
        self.spanID = spanID
        self.parentSpanID = parentSpanID
        self.name = name
        self.kind = kind
        self.service = service
        self.startUnixNano = startUnixNano
        self.endUnixNano = endUnixNano
        self.status = status
        self.statusMessage = statusMessage
        self.errors = errors
        self.attributes = attributes
        self.events = events
        self.links = links
    }

    /// Nanoseconds from start to end; `nil` when either is missing or the end is before the start.
    public var durationNanos: UInt64? {
        guard startUnixNano != 0, endUnixNano != 0, endUnixNano >= startUnixNano else { return nil }
        return endUnixNano - startUnixNano
    }

    /// Whether the span failed: an error status, or errors counted from it.
    public var failed: Bool { status == .error || errors > 0 }

    /// The id as 16 lower-case hex digits.
    public var hexID: String { Self.hex(spanID) }

    /// A span id as 16 lower-case hex digits.
    public static func hex(_ id: UInt64) -> String {
        let digits = String(id, radix: 16)
        return String(repeating: "0", count: max(0, 16 - digits.count)) + digits
    }
}
