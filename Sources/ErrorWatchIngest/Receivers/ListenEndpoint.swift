import ErrorWatchWire

/// One `--listen` value, sorted by its scheme in one place: `otlp:` and `otlp-grpc:` name an OTLP receiver,
/// `sentry:` a Sentry one, and anything else (`unix:PATH`, `tcp:HOST:PORT`, a bare port) a line feed.
///
/// ```swift
/// try ListenEndpoint(parsing: "otlp-grpc:4317")   // .otlp(OTLP/gRPC on 127.0.0.1:4317)
/// try ListenEndpoint(parsing: "sentry:43210")     // .sentry(…)
/// try ListenEndpoint(parsing: "unix:/tmp/ew.sock") // .lines(.unix(path: "/tmp/ew.sock"))
/// ```
public enum ListenEndpoint: Sendable, Hashable, CustomStringConvertible {
    /// Newline-delimited events or log lines (``FeedListener``).
    case lines(Endpoint)
    /// OTLP over HTTP or gRPC.
    case otlp(OTLPEndpoint)
    /// Sentry envelopes and store requests.
    case sentry(SentryEndpoint)

    /// Parses a `--listen` value; an unknown or malformed one throws, naming it.
    public init(parsing text: String) throws(WireTransportError) {
        if OTLPEndpoint.matches(text) {
            self = .otlp(try OTLPEndpoint(parsing: text))
        } else if SentryEndpoint.matches(text) {
            self = .sentry(try SentryEndpoint(parsing: text))
        } else {
            self = .lines(try Endpoint(parsing: text))
        }
    }

    /// The form ``init(parsing:)`` reads.
    public var description: String {
        switch self {
        case .lines(let endpoint): endpoint.description
        case .otlp(let endpoint): endpoint.description
        case .sentry(let endpoint): endpoint.description
        }
    }

    /// The line feed's endpoint, if this is one.
    public var lines: Endpoint? { if case .lines(let endpoint) = self { endpoint } else { nil } }
    /// The OTLP receiver's endpoint, if this is one.
    public var otlp: OTLPEndpoint? { if case .otlp(let endpoint) = self { endpoint } else { nil } }
    /// The Sentry receiver's endpoint, if this is one.
    public var sentry: SentryEndpoint? { if case .sentry(let endpoint) = self { endpoint } else { nil } }
}
