import ArgumentParser
import ErrorStreaming
import ErrorStreamingMetrics
import ErrorWatchWire
import Foundation
import Hummingbird
import Logging
import Prometheus
import ShopCore

/// `shop-server`: the example shop, its errors and logs sent to an errorwatch dashboard, its error counters
/// served to Prometheus.
@main
struct ShopServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shop-server",
        abstract: "A Hummingbird shop whose checkout fails in realistic ways, watched live by errorwatch.",
        discussion: """
            GET /products, POST /checkout {"sku":"mug","quantity":1}, GET /metrics (Prometheus text).
            Watch it: errorwatch --listen unix:/tmp/ew.sock, then shop-server --errorwatch unix:/tmp/ew.sock
            Or over OpenTelemetry: errorwatch --otlp, then shop-server --otel http://127.0.0.1:4318
            (or --otel http://127.0.0.1:4317 --otel-protocol grpc)
            Or with nothing to configure: errorwatch run -- shop-server (without --errorwatch and --otel it
            exports to OTEL_EXPORTER_OTLP_ENDPOINT when set, else forwards to ERRORWATCH_ENDPOINT when set).
            """)

    @Option(help: "The TCP port to serve HTTP on.")
    var port = 8080

    @Option(help: "The address to bind.")
    var host = "127.0.0.1"

    @Option(
        help: ArgumentHelp(
            "Send errors and logs to this errorwatch dashboard: unix:PATH, tcp:PORT or tcp:HOST:PORT.",
            valueName: "endpoint"))
    var errorwatch: String?

    @Option(
        name: .customLong("errorwatch-queue"),
        help: "Lines the forwarder may hold while the dashboard reads late; beyond them it drops and counts.")
    var errorwatchQueue = 4_096

    @Option(
        help: ArgumentHelp(
            "Send traces (each failed checkout an exception on its request span), logs and metrics over OTLP "
                + "through swift-otel to this endpoint: http://HOST:PORT.",
            valueName: "endpoint"))
    var otel: String?

    @Option(
        name: .customLong("otel-protocol"),
        help: "The OTLP transport for --otel: http/protobuf, http/json or grpc (OTEL_EXPORTER_OTLP_PROTOCOL wins).")
    var otelProtocol = ShopTelemetry.Transport.httpProtobuf

    @Option(help: "Seed for the simulated failures.")
    var seed: UInt64 = 7

    @Option(name: .customLong("log-level"), help: "The lowest level logged (trace…critical).")
    var logLevel = "info"

    /// `--errorwatch`, else `ERRORWATCH_ENDPOINT` (what `errorwatch run` sets) when OpenTelemetry is not in use:
    /// `errorwatch run` sets both, and one channel reports each failure once.
    var errorwatchEndpoint: String? {
        errorwatch ?? (otelEndpoint == nil ? Self.environment(ErrorForwarder.environmentVariable) : nil)
    }

    /// `--otel`, else `OTEL_EXPORTER_OTLP_ENDPOINT` (what `errorwatch run` and collectors' docs set).
    var otelEndpoint: String? { otel ?? Self.environment("OTEL_EXPORTER_OTLP_ENDPOINT") }

    /// `--otel-protocol`, else `OTEL_EXPORTER_OTLP_PROTOCOL` when the endpoint came from the environment too.
    var otelTransport: ShopTelemetry.Transport {
        guard otel == nil, let name = Self.environment("OTEL_EXPORTER_OTLP_PROTOCOL"),
            let transport = ShopTelemetry.Transport(rawValue: name)
        else { return otelProtocol }
        return transport
    }

    private static func environment(_ name: String) -> String? {
        ProcessInfo.processInfo.environment[name].flatMap { $0.isEmpty ? nil : $0 }
    }

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be 0…65535") }
        guard errorwatchQueue > 0 else { throw ValidationError("--errorwatch-queue must be positive") }
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("--log-level: unknown level") }
        if let errorwatch = errorwatchEndpoint {
            do { _ = try Endpoint(parsing: errorwatch) } catch {
                throw ValidationError("--errorwatch \(errorwatch): \(error)")
            }
        }
        if let otel = otelEndpoint {
            do { _ = try ShopTelemetry(endpoint: otel, transport: otelTransport) } catch {
                throw ValidationError("--otel \(otel): \(error)")
            }
        }
    }

    func run() async throws {
        let level = Logger.Level(rawValue: logLevel) ?? .info
        let stream = ErrorStream()
        let forwarder = try errorwatchEndpoint.map {
            ErrorForwarder(
                endpoint: try Endpoint(parsing: $0), source: SourceInfo(serviceName: "shop-server"), stream: stream,
                configuration: ErrorForwarder.Configuration(queueCapacity: errorwatchQueue))
        }
        forwarder?.start()
        // With --otel: tracing and swift-metrics go to swift-otel now; its log handler joins the console's below.
        let telemetry = try otelEndpoint.map { try ShopTelemetry(endpoint: $0, transport: otelTransport).bootstrap() }
        let exportedLogs = telemetry?.logHandler
        LoggingSystem.bootstrap { label in
            var console = StreamLogHandler.standardError(label: label)
            console.logLevel = level
            // A tee, not MultiplexLogHandler: Hummingbird sets request metadata on every request, which the
            // multiplexer pays for by copying its handlers (docs/benchmarks-shop.md).
            let local: any LogHandler =
                forwarder.map { TeeLogHandler(console, label: label, forwarder: $0) as any LogHandler } ?? console
            guard let exportedLogs else { return local }
            // --otel pays that copy for the sake of one more handler: swift-otel's, which stamps each record
            // with the trace and span it was logged in.
            var exported = exportedLogs(label)
            exported.logLevel = level
            return MultiplexLogHandler([local, exported])
        }
        let logger = Logger(label: "shop")

        // One registry for everything /metrics serves; the factory is passed explicitly, nothing global.
        let registry = PrometheusCollectorRegistry()
        let factory = PrometheusMetricsFactory(registry: registry)
        let recorder = ErrorMetricsRecorder(stream: stream, factory: factory)
        let recording = Task { await recorder.run() }
        let forwarderGauges = forwarder.map { ForwarderGauges(forwarder: $0, factory: factory) }

        let exceptions = telemetry.map { _ in RecordedExceptions() }
        let routes = ShopRoutes(
            checkout: CheckoutService(
                stream: stream, dice: ShopDice(seed: seed), logger: Logger(label: "shop.checkout")),
            handling: ShopErrorHandling(stream: stream, logger: Logger(label: "shop.errors")),
            recorder: recorder, registry: registry, beforeScrape: { forwarderGauges?.refresh() },
            exceptions: exceptions)
        var app = Application(
            router: routes.router(),
            configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: "shop-server"),
            logger: logger)
        logger.info(
            "shop-server starting",
            metadata: [
                "port": "\(port)", "seed": "\(seed)", "errorwatch": "\(errorwatchEndpoint ?? "off")",
                "otel": "\(otelEndpoint.map { "\($0) (\(otelTransport.rawValue))" } ?? "off")",
            ])
        // swift-otel's exporters run as services beside the server. Hummingbird stops its services in the reverse
        // of their order and the server is last: it stops first, its in-flight requests (and their spans) finish,
        // then swift-otel flushes what it still holds.
        if let telemetry { app.addServices(telemetry.services) }
        // Runs until SIGINT or SIGTERM, then shuts down gracefully: in-flight requests finish first.
        try await app.runService()

        stream.finish()
        await recording.value
        if let forwarder {
            await forwarder.shutdown()
            let statistics = forwarder.statistics
            print("shop-server: forwarder sent \(statistics.sent) lines, dropped \(statistics.dropped)")
        }
        print("shop-server: \(stream.statistics.added) errors added to the stream")
        if let exceptions { print("shop-server: \(exceptions.summary)") }
    }
}
