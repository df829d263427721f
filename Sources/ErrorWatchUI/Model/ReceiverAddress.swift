/// Where the dashboard listens, said so that a producer can be pointed at it: shown on the first screen until
/// something arrives ("Send to:"), one line each, copyable.
///
/// ```swift
/// ReceiverAddress(kind: "OTLP/HTTP", address: "http://127.0.0.1:4318",
///                 setting: "OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4318")
/// ```
public struct ReceiverAddress: Sendable, Hashable {
    /// The protocol: `OTLP/HTTP`, `OTLP/gRPC`, `Sentry`, `NDJSON`.
    public var kind: String
    /// The address a client connects to.
    public var address: String
    /// The environment setting that points an SDK at it (`SENTRY_SPOTLIGHT=…`).
    public var setting: String

    /// An address; see the properties.
    public init(kind: String, address: String, setting: String) {
        self.kind = kind
        self.address = address
        self.setting = setting
    }
}
