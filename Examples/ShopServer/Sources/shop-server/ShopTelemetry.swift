import Logging
import Metrics
import OTel
import ServiceLifecycle
import Tracing

/// `--otel`: the shop's logs, metrics and traces exported over OTLP by swift-otel, to an errorwatch dashboard
/// (`errorwatch --otlp`) or any collector. swift-log records go there beside the console, swift-metrics (Hummingbird's
/// request metrics) and swift-distributed-tracing (Hummingbird's request spans, the checkout's own span with its
/// failure recorded) are bootstrapped to it.
struct ShopTelemetry {
    /// How the exporter speaks: `grpc` or `http/protobuf` (OTEL_EXPORTER_OTLP_PROTOCOL's words).
    enum Transport: String, CaseIterable {
        case grpc
        case httpProtobuf = "http/protobuf"
    }

    /// The log handler factory for `LoggingSystem` and the services that export, to run beside the server.
    let logHandler: @Sendable (String) -> any LogHandler
    let services: [any Service]

    /// Builds the exporters for `endpoint` (a base URL, `http://127.0.0.1:4317`) and bootstraps metrics and tracing.
    /// Failed exports are reported by swift-otel's diagnostic logger on standard error ("Failed to export …").
    static func bootstrap(endpoint: String, transport: Transport, serviceName: String) throws -> ShopTelemetry {
        var configuration = OTel.Configuration.default
        configuration.serviceName = serviceName
        configuration.diagnosticLogLevel = .warning
        // Short delays so a dashboard shows a failure within a second or two, as errorwatch's forwarder does.
        configuration.logs.batchLogRecordProcessor.scheduleDelay = .seconds(1)
        configuration.traces.batchSpanProcessor.scheduleDelay = .seconds(1)
        configuration.metrics.exportInterval = .seconds(5)
        let base = endpoint.hasSuffix("/") ? String(endpoint.dropLast()) : endpoint
        switch transport {
        case .grpc:
            for exporter in [\OTel.Configuration.logs.otlpExporter, \.metrics.otlpExporter, \.traces.otlpExporter] {
                configuration[keyPath: exporter].protocol = .grpc
                configuration[keyPath: exporter].endpoint = base
                configuration[keyPath: exporter].compression = .gzip
            }
        case .httpProtobuf:
            // An endpoint set explicitly is used as it is: each signal gets its own path.
            configuration.logs.otlpExporter.endpoint = base + "/v1/logs"
            configuration.metrics.otlpExporter.endpoint = base + "/v1/metrics"
            configuration.traces.otlpExporter.endpoint = base + "/v1/traces"
            for exporter in [\OTel.Configuration.logs.otlpExporter, \.metrics.otlpExporter, \.traces.otlpExporter] {
                configuration[keyPath: exporter].protocol = .httpProtobuf
                configuration[keyPath: exporter].compression = .gzip
            }
        }
        let logging = try OTel.makeLoggingBackend(configuration: configuration)
        let metrics = try OTel.makeMetricsBackend(configuration: configuration)
        let tracing = try OTel.makeTracingBackend(configuration: configuration)
        MetricsSystem.bootstrap(metrics.factory)
        InstrumentationSystem.bootstrap(tracing.factory)
        return ShopTelemetry(logHandler: logging.factory, services: [logging.service, metrics.service, tracing.service])
    }
}
