import ErrorWatchIngest
import ErrorWatchWire
import Foundation

/// The environment `errorwatch run` gives its child: each SDK pointed at the dashboard's receivers, with nothing the
/// user set overridden (an app that already exports to its collector, or has a Sentry DSN, keeps doing so).
///
/// | variable | value | read by |
/// | --- | --- | --- |
/// | `OTEL_EXPORTER_OTLP_ENDPOINT` | `http://127.0.0.1:4318` (`:4317` for gRPC) | every OpenTelemetry SDK's OTLP exporter |
/// | `OTEL_EXPORTER_OTLP_PROTOCOL` | `http/protobuf` or `grpc` | the same |
/// | `OTEL_SERVICE_NAME` | the command's name | the same, when the app names no service |
/// | `SENTRY_SPOTLIGHT` | `http://127.0.0.1:8969/stream` | Sentry SDKs: a copy of every envelope, DSN or not |
/// | `ERRORWATCH_ENDPOINT` | `tcp:127.0.0.1:PORT` | ``ErrorWatchWire/ErrorForwarder/fromEnvironment(source:stream:environment:configuration:)`` |
/// | `SWIFT_BACKTRACE` | `color=no,registers=none,images=none` | the Swift runtime's crash backtracer: frames, no colour codes, registers or image lists in the log |
///
/// A variable already in the inherited environment is left as it is (and so is `OTEL_SERVICE_NAME` when
/// `OTEL_RESOURCE_ATTRIBUTES` names a `service.name`); `--env KEY=VALUE` is applied last and wins over both.
public struct RunEnvironment: Sendable, Hashable {
    /// How the child's OpenTelemetry SDK exports.
    public enum OTLPProtocol: String, Sendable, Hashable, CaseIterable {
        /// OTLP/HTTP with protobuf bodies, the SDKs' usual default.
        case httpProtobuf = "http/protobuf"
        /// OTLP/gRPC.
        case grpc
    }

    /// Where the dashboard's receivers listen.
    public struct Receivers: Sendable, Hashable {
        /// OTLP/HTTP's port.
        public var otlpHTTP: Int?
        /// OTLP/gRPC's port.
        public var otlpGRPC: Int?
        /// The Sentry (Spotlight) receiver's port.
        public var sentry: Int?
        /// The NDJSON listener.
        public var ndjson: Endpoint?
        /// The receivers' host (loopback).
        public var host = "127.0.0.1"

        /// Receivers; see the properties.
        public init(otlpHTTP: Int? = nil, otlpGRPC: Int? = nil, sentry: Int? = nil, ndjson: Endpoint? = nil) {
            self.otlpHTTP = otlpHTTP
            self.otlpGRPC = otlpGRPC
            self.sentry = sentry
            self.ndjson = ndjson
        }
    }

    /// The Swift runtime's backtracer settings `run` offers.
    public static let swiftBacktrace = "color=no,registers=none,images=none"

    /// What `run` sets, before the inherited environment and `--env` are considered.
    public static func offered(
        receivers: Receivers, otlpProtocol: OTLPProtocol, serviceName: String
    ) -> [(key: String, value: String)] {
        var offered: [(String, String)] = []
        let otlpPort = otlpProtocol == .grpc ? receivers.otlpGRPC : receivers.otlpHTTP
        if let otlpPort {
            offered.append(("OTEL_EXPORTER_OTLP_ENDPOINT", "http://\(receivers.host):\(otlpPort)"))
            offered.append(("OTEL_EXPORTER_OTLP_PROTOCOL", otlpProtocol.rawValue))
            offered.append(("OTEL_SERVICE_NAME", serviceName))
        }
        if let sentry = receivers.sentry {
            offered.append(("SENTRY_SPOTLIGHT", "http://\(receivers.host):\(sentry)/stream"))
        }
        if let ndjson = receivers.ndjson { offered.append(("ERRORWATCH_ENDPOINT", ndjson.description)) }
        // The backtracer colours its output when stdout is a terminal (it is one here), and lists registers and
        // images: noise in a log. Its frames stay.
        offered.append(("SWIFT_BACKTRACE", swiftBacktrace))
        return offered.map { (key: $0.0, value: $0.1) }
    }

    /// The child's environment: `inherited`, plus what `run` offers where the user set nothing, then `overrides`.
    public static func make(
        inherited: [String: String], overrides: [(key: String, value: String)], receivers: Receivers,
        otlpProtocol: OTLPProtocol, serviceName: String
    ) -> [String: String] {
        var environment = inherited
        let namesService = inherited["OTEL_RESOURCE_ATTRIBUTES"]?.split(separator: ",").contains {
            $0.split(separator: "=", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces) }
                == "service.name"
        } ?? false
        for (key, value) in offered(receivers: receivers, otlpProtocol: otlpProtocol, serviceName: serviceName) {
            if key == "SWIFT_BACKTRACE", let set = environment[key] {
                // A list of settings: ours join the ones set, never replace them.
                environment[key] = merging(settings: set, offered: value)
                continue
            }
            guard environment[key] == nil else { continue }
            if key == "OTEL_SERVICE_NAME", namesService { continue }
            environment[key] = value
        }
        for (key, value) in overrides { environment[key] = value }
        return environment
    }

    /// `interactive=no` with `color=no,registers=none` offered: `interactive=no,color=no,registers=none`; a key
    /// already set keeps its value.
    static func merging(settings: String, offered: String) -> String {
        var merged = settings.split(separator: ",").map(String.init)
        let keys = Set(merged.map { $0.split(separator: "=", maxSplits: 1).first.map(String.init) ?? $0 })
        for setting in offered.split(separator: ",") {
            let key = setting.split(separator: "=", maxSplits: 1).first.map(String.init) ?? String(setting)
            if !keys.contains(key) { merged.append(String(setting)) }
        }
        return merged.joined(separator: ",")
    }
}
