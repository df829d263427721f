import ErrorStreaming
import Foundation

extension ErrorForwarder {
    /// The variable `errorwatch run` sets in its child's environment: the endpoint of its NDJSON listener
    /// (`tcp:127.0.0.1:PORT`, `unix:PATH`).
    public static let environmentVariable = "ERRORWATCH_ENDPOINT"

    /// A forwarder to the endpoint ``environmentVariable`` names, or `nil` when it is unset or empty: an app that
    /// builds its forwarder this way is watched by `errorwatch run -- app` with no other configuration.
    ///
    /// ```swift
    /// if let forwarder = try ErrorForwarder.fromEnvironment(source: SourceInfo(serviceName: "shop"), stream: stream) {
    ///     forwarder.start()
    /// }
    /// ```
    ///
    /// Throws ``WireTransportError/invalidEndpoint(_:)`` (or another parsing error) when the value is malformed.
    public static func fromEnvironment(
        source: SourceInfo, stream: ErrorStream? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        configuration: Configuration = Configuration()
    ) throws(WireTransportError) -> ErrorForwarder? {
        guard let text = environment[environmentVariable], !text.isEmpty else { return nil }
        let endpoint = try Endpoint(parsing: text)
        return ErrorForwarder(endpoint: endpoint, source: source, stream: stream, configuration: configuration)
    }
}
