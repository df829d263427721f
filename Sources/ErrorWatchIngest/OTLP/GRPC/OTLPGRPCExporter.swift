import ErrorWatchWire
import GRPCCore
import GRPCNIOTransportHTTP2Posix

/// An OTLP/gRPC client that sends request bodies already encoded (``OTLPLogsRequestBody`` and the like) to a
/// collector service's `Export`, over one plaintext HTTP/2 connection, gzip-compressed or not.
///
/// For this package's own load generator (`errorwatch-load --otlp --grpc`) and tests: `package`, not public, because
/// it is a tool for driving the receiver, not an OpenTelemetry SDK.
///
/// ```swift
/// let exporter = try OTLPGRPCExporter(host: "127.0.0.1", port: 4317)
/// let running = Task { try await exporter.run() }
/// let answer = try await exporter.export(.logs, body: body)   // ExportLogsServiceResponse bytes
/// exporter.close()
/// ```
package final class OTLPGRPCExporter: Sendable {
    /// Which collector service to call.
    package enum Service: Sendable {
        case logs
        case metrics
        case traces

        var method: MethodDescriptor {
            switch self {
            case .logs: OTLPProtoLogsService.Method.Export.descriptor
            case .metrics: OTLPProtoMetricsService.Method.Export.descriptor
            case .traces: OTLPProtoTraceService.Method.Export.descriptor
            }
        }
    }

    /// What a call was answered: the response message's bytes, or the status of a failed call.
    package enum Answer: Sendable, Equatable {
        case ok([UInt8])
        case failed(code: String, message: String, retryAfter: Duration?)
    }

    private let client: GRPCClient<HTTP2ClientTransport.Posix>
    private let gzip: Bool

    /// A client of `host`:`port`; nothing connects until ``run()`` and the first call.
    package init(host: String, port: Int, gzip: Bool = true) throws {
        let transport = try HTTP2ClientTransport.Posix(
            target: host.contains(":") ? .ipv6(address: host, port: port) : .ipv4(address: host, port: port),
            transportSecurity: .plaintext,
            config: .defaults { config in
                config.compression.enabledAlgorithms = [.gzip]
            })
        client = GRPCClient(transport: transport)
        self.gzip = gzip
    }

    /// Runs the client's connections until ``close()``; calls wait for it to run.
    package func run() async throws { try await client.runConnections() }

    /// Finishes the calls in flight, then stops.
    package func close() { client.beginGracefulShutdown() }

    /// Calls `service`'s `Export` with `body`, a serialized request message.
    package func export(_ service: Service, body: [UInt8]) async throws -> Answer {
        var options = CallOptions.defaults
        if gzip { options.compression = .gzip }
        do {
            return try await client.unary(
                request: ClientRequest(message: GRPCNIOTransportBytes(body)), descriptor: service.method, serializer: OTLPGRPCBytes(),
                deserializer: OTLPGRPCBytes(), options: options
            ) { response in .ok(try response.message.withUnsafeBytes { Array($0) }) }
        } catch let error as RPCError {
            return .failed(
                code: OTLPGRPCService.name(error.code), message: error.message, retryAfter: Self.retryDelay(error))
        }
    }

    /// The `RetryInfo` delay in a failed call's `google.rpc.Status` details, when it has one.
    private static func retryDelay(_ error: RPCError) -> Duration? {
        guard let status = try? error.unpackGoogleRPCStatus() else { return nil }
        for detail in status.details {
            if let retry = detail.retryInfo { return retry.delay }
        }
        return nil
    }
}
