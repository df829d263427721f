/// The kind of way in that read an event from outside the process: a connection to the NDJSON listener, a file, a
/// pipe, a recording, an OpenTelemetry or a Sentry exporter. Carried with the event, so what is judged of it (is
/// its time skewed?) and what is said of it (`Source file`) rests on how it came, not on a name.
public enum EventChannel: String, Sendable, Hashable, Codable, CaseIterable {
    /// A producer connected to `--listen` (NDJSON over a Unix or TCP socket).
    case socket
    /// A file read (`errorwatch FILE`, `--tail`).
    case file
    /// Standard input or a named pipe.
    case pipe
    /// A recording played back (`replay`, `render --from`).
    case recording
    /// An OpenTelemetry exporter (OTLP over HTTP or gRPC).
    case otlp
    /// A Sentry SDK (envelopes, Spotlight).
    case sentry
    /// The output of the command `errorwatch run` started: its standard output and error, read as it prints them.
    case process

    /// Whether it reports what happens as it happens, so its events' own times can be judged against when they were
    /// read (clock skew): a connection or an exporter. A file, a pipe (`cat old.log | errorwatch -`) or a recording
    /// may hold lines from any time.
    public var isLive: Bool {
        switch self {
        case .socket, .otlp, .sentry, .process: true
        case .file, .pipe, .recording: false
        }
    }
}
