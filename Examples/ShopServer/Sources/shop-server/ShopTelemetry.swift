import ArgumentParser
import Foundation
import Logging
import OTel
import ServiceLifecycle

/// `--otel ENDPOINT`: the shop's traces, logs and metrics sent over OTLP by swift-otel.
///
/// Tracing (Hummingbird's `TracingMiddleware` and each failed checkout's exception) and swift-metrics (Hummingbird's
/// `MetricsMiddleware`) are bootstrapped to swift-otel; swift-log gets swift-otel's handler beside the console's, so
/// the shop still logs to standard error. swift-otel's own problems (a failed export, spans dropped from a full
/// queue) go to standard error through its diagnostic logger, as `Failed to export batch.` and the like.
///
/// The endpoint and protocol come from the command line; the OpenTelemetry environment variables
/// (`OTEL_EXPORTER_OTLP_PROTOCOL`, `OTEL_BSP_MAX_QUEUE_SIZE`…) still override them, as swift-otel reads them last.
struct ShopTelemetry {
    /// The OTLP transport, named as `OTEL_EXPORTER_OTLP_PROTOCOL` names it.
    enum Transport: String, ExpressibleByArgument, CaseIterable, Sendable {
        /// OTLP/gRPC: the endpoint is the server's address (`http://127.0.0.1:4317`).
        case grpc
        /// OTLP/HTTP with protobuf bodies: the endpoint is the base URL, `/v1/traces`… appended.
        case httpProtobuf = "http/protobuf"
        /// OTLP/HTTP with OTLP/JSON bodies.
        case httpJSON = "http/json"
    }

    /// What `ShopTelemetry(endpoint:…)` refuses.
    struct EndpointError: Error, CustomStringConvertible {
        let description: String
    }

    /// The configuration handed to swift-otel, before its environment overrides.
    let configuration: OTel.Configuration

    /// Configures export of everything to `endpoint` (`http://HOST:PORT`, or `https://`) over `transport`.
    init(endpoint: String, transport: Transport) throws {
        guard let url = URL(string: endpoint), let scheme = url.scheme, ["http", "https"].contains(scheme),
            url.host != nil
        else {
            throw EndpointError(description: "expected http://HOST:PORT or https://HOST:PORT, got \(endpoint)")
        }
        var configuration = OTel.Configuration.default
        configuration.serviceName = "shop-server"
        // Enough room for a load test: each tick (every 100 ms) exports up to 2,048 spans, and 100,000 wait while an
        // export is in flight. swift-otel's defaults (2,048 queued, 512 every 5 s) drop spans, and so exceptions,
        // from a few hundred requests a second on.
        configuration.traces.batchSpanProcessor.scheduleDelay = .milliseconds(100)
        configuration.traces.batchSpanProcessor.maxQueueSize = 100_000
        configuration.traces.batchSpanProcessor.maxExportBatchSize = 2_048
        configuration.logs.batchLogRecordProcessor.scheduleDelay = .milliseconds(100)
        configuration.logs.batchLogRecordProcessor.maxQueueSize = 100_000
        configuration.logs.batchLogRecordProcessor.maxExportBatchSize = 2_048
        configuration.metrics.exportInterval = .seconds(5)

        let base = endpoint.hasSuffix("/") ? String(endpoint.dropLast()) : endpoint
        let exporterProtocol: OTel.Configuration.OTLPExporterConfiguration.`Protocol`
        switch transport {
        case .grpc: exporterProtocol = .grpc
        case .httpProtobuf: exporterProtocol = .httpProtobuf
        case .httpJSON: exporterProtocol = .httpJSON
        }
        // swift-otel uses an endpoint set in code as it is: OTLP/HTTP needs each signal's path spelled out.
        let http = transport != .grpc
        configuration.traces.otlpExporter.protocol = exporterProtocol
        configuration.traces.otlpExporter.endpoint = http ? base + "/v1/traces" : base
        configuration.metrics.otlpExporter.protocol = exporterProtocol
        configuration.metrics.otlpExporter.endpoint = http ? base + "/v1/metrics" : base
        configuration.logs.otlpExporter.protocol = exporterProtocol
        configuration.logs.otlpExporter.endpoint = http ? base + "/v1/logs" : base
        self.configuration = configuration
    }

    /// Bootstraps the tracing and metrics systems to swift-otel and makes its log handler, which the caller
    /// bootstraps with its own (swift-log can be bootstrapped once). Run `services` beside the server: they export.
    func bootstrap() throws -> (logHandler: @Sendable (String) -> any LogHandler, services: [any Service]) {
        // The log exporter first: AsyncHTTPClient takes the global tracer when a client is made, so an OTLP/HTTP
        // exporter made after tracing is bootstrapped traces its own exports, and a 503 from a busy receiver (which
        // the exporter retries) would come back as an ERROR client span, an error of the shop's that never was.
        // OTel.bootstrap makes its own exporters before it bootstraps tracing.
        let logging = try OTel.makeLoggingBackend(configuration: configuration)
        var tracesAndMetrics = configuration
        tracesAndMetrics.logs.enabled = false
        let observability = try OTel.bootstrap(configuration: tracesAndMetrics)
        return (logging.factory, [observability, logging.service])
    }
}
