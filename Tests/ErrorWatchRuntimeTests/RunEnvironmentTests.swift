import ErrorWatchWire
import Testing

@testable import ErrorWatchRuntime

/// What `errorwatch run` sets in its child's environment, and what it leaves alone.
struct RunEnvironmentTests {
    static let receivers = RunEnvironment.Receivers(
        otlpHTTP: 4318, otlpGRPC: 4317, sentry: 8969, ndjson: .tcp(host: "127.0.0.1", port: 40123))

    @Test func everySDKIsPointedAtItsReceiver() {
        let environment = RunEnvironment.make(
            inherited: ["PATH": "/usr/bin", "HOME": "/home/dev"], overrides: [], receivers: Self.receivers,
            otlpProtocol: .httpProtobuf, serviceName: "shop")
        #expect(environment["OTEL_EXPORTER_OTLP_ENDPOINT"] == "http://127.0.0.1:4318")
        #expect(environment["OTEL_EXPORTER_OTLP_PROTOCOL"] == "http/protobuf")
        #expect(environment["OTEL_SERVICE_NAME"] == "shop")
        #expect(environment["SENTRY_SPOTLIGHT"] == "http://127.0.0.1:8969/stream")
        #expect(environment["ERRORWATCH_ENDPOINT"] == "tcp:127.0.0.1:40123")
        #expect(environment["SWIFT_BACKTRACE"] == "color=no,registers=none,images=none")
        // Never a DSN: an app with its own keeps sending there; Spotlight gets a copy.
        #expect(environment["SENTRY_DSN"] == nil)
        // The rest is inherited as it was.
        #expect(environment["PATH"] == "/usr/bin")
        #expect(environment["HOME"] == "/home/dev")
    }

    @Test func grpcPointsAtTheGRPCPort() {
        let environment = RunEnvironment.make(
            inherited: [:], overrides: [], receivers: Self.receivers, otlpProtocol: .grpc, serviceName: "shop")
        #expect(environment["OTEL_EXPORTER_OTLP_ENDPOINT"] == "http://127.0.0.1:4317")
        #expect(environment["OTEL_EXPORTER_OTLP_PROTOCOL"] == "grpc")
    }

    @Test func whatTheUserSetIsLeftAlone() {
        let inherited = [
            "OTEL_EXPORTER_OTLP_ENDPOINT": "https://collector.example:4318",
            "SENTRY_SPOTLIGHT": "0",
            "OTEL_RESOURCE_ATTRIBUTES": "deployment.environment=dev, service.name=checkout",
        ]
        let environment = RunEnvironment.make(
            inherited: inherited, overrides: [], receivers: Self.receivers, otlpProtocol: .httpProtobuf,
            serviceName: "python3")
        #expect(environment["OTEL_EXPORTER_OTLP_ENDPOINT"] == "https://collector.example:4318")
        #expect(environment["SENTRY_SPOTLIGHT"] == "0")
        // The resource attributes name the service: the command's name would contradict them.
        #expect(environment["OTEL_SERVICE_NAME"] == nil)
        // What was not set still is.
        #expect(environment["ERRORWATCH_ENDPOINT"] == "tcp:127.0.0.1:40123")
    }

    @Test func envOptionsWinOverBoth() {
        let environment = RunEnvironment.make(
            inherited: ["OTEL_SERVICE_NAME": "inherited"],
            overrides: [(key: "OTEL_SERVICE_NAME", value: "typed"), (key: "EXTRA", value: "a=b")],
            receivers: Self.receivers, otlpProtocol: .httpProtobuf, serviceName: "shop")
        #expect(environment["OTEL_SERVICE_NAME"] == "typed")
        #expect(environment["EXTRA"] == "a=b")
    }

    @Test func backtraceSettingsJoinTheOnesSet() {
        let environment = RunEnvironment.make(
            inherited: ["SWIFT_BACKTRACE": "interactive=no,color=yes"], overrides: [], receivers: Self.receivers,
            otlpProtocol: .httpProtobuf, serviceName: "shop")
        #expect(environment["SWIFT_BACKTRACE"] == "interactive=no,color=yes,registers=none,images=none")
    }

    @Test func receiversNotRunningAreNotNamed() {
        let environment = RunEnvironment.make(
            inherited: [:], overrides: [], receivers: RunEnvironment.Receivers(sentry: 8969),
            otlpProtocol: .httpProtobuf, serviceName: "shop")
        #expect(environment["OTEL_EXPORTER_OTLP_ENDPOINT"] == nil)
        #expect(environment["OTEL_SERVICE_NAME"] == nil)
        #expect(environment["ERRORWATCH_ENDPOINT"] == nil)
        #expect(environment["SENTRY_SPOTLIGHT"] == "http://127.0.0.1:8969/stream")
    }
}
