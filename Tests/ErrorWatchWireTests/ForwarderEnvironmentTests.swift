import ErrorStreaming
import Testing

@testable import ErrorWatchWire

/// `ERRORWATCH_ENDPOINT`: the forwarder `errorwatch run` points an app at with no code of its own.
struct ForwarderEnvironmentTests {
    @Test func theVariableNamesTheEndpoint() async throws {
        let forwarder = try #require(
            try ErrorForwarder.fromEnvironment(
                source: SourceInfo(serviceName: "shop"), environment: ["ERRORWATCH_ENDPOINT": "tcp:127.0.0.1:40123"]))
        #expect(forwarder.endpoint == .tcp(host: "127.0.0.1", port: 40123))
        await forwarder.shutdown(gracePeriod: .zero)
    }

    @Test func unsetOrEmptyIsNoForwarder() throws {
        #expect(try ErrorForwarder.fromEnvironment(source: SourceInfo(serviceName: "shop"), environment: [:]) == nil)
        #expect(
            try ErrorForwarder.fromEnvironment(
                source: SourceInfo(serviceName: "shop"), environment: ["ERRORWATCH_ENDPOINT": ""]) == nil)
    }

    @Test func aMalformedValueIsAnError() {
        #expect(throws: WireTransportError.self) {
            _ = try ErrorForwarder.fromEnvironment(
                source: SourceInfo(serviceName: "shop"), environment: ["ERRORWATCH_ENDPOINT": "http://nope"])
        }
    }
}
