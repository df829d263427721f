import ErrorStreaming
import Foundation
import Testing

@testable import ErrorWatchWire

/// The trace, release and fingerprint members: read by both decoders, written by both writers, and carried onto
/// a ``RemoteError`` as typed values.
struct TraceAndReleaseMemberTests {
    static let event = WireEvent(
        kind: .error, time: WireFormatTests.time, serviceName: "shop", exceptionType: "Shop.PaymentError",
        exceptionMessage: "gateway said 503", traceID: "4bf92f3577b34da6a3ce929d0e0e4736", spanID: "00f067aa0ba902b7",
        serviceVersion: "2.4.1", deploymentEnvironment: "staging", fingerprint: "payments-gateway-down")

    @Test func theScannerAndTheWriterRoundTripThem() throws {
        let line = try WireEncoder().encode(Self.event)
        let text = String(decoding: line, as: UTF8.self)
        for member in [
            #""trace_id":"4bf92f3577b34da6a3ce929d0e0e4736""#, #""span_id":"00f067aa0ba902b7""#,
            #""service.version":"2.4.1""#, #""deployment.environment.name":"staging""#,
            #""fingerprint":"payments-gateway-down""#,
        ] {
            #expect(text.contains(member), "\(member) missing from \(text)")
        }
        #expect(try WireDecoder().decode(line) == Self.event)
    }

    @Test func codableAgreesWithTheFastPath() throws {
        let data = try JSONEncoder().encode(Self.event)
        #expect(try JSONDecoder().decode(WireEvent.self, from: data) == Self.event)
    }

    @Test func aRemoteErrorCarriesThemTyped() throws {
        let error = try #require(RemoteError(Self.event))
        #expect(error.provenance.traceID == "4bf92f3577b34da6a3ce929d0e0e4736")
        #expect(error.provenance.spanID == "00f067aa0ba902b7")
        #expect(error.provenance.serviceVersion == "2.4.1")
        #expect(error.provenance.environment == "staging")
        // The producer's fingerprint wins over type and code.
        #expect(error.fingerprint == "payments-gateway-down")
        var plain = Self.event
        plain.fingerprint = nil
        // Without one: the type, the code as sent (none here), the component (none) and the message's template.
        #expect(try #require(RemoteError(plain)).fingerprint == "Shop.PaymentError###gateway said <num>")
    }

    @Test func aNonStringValueIsMalformed() {
        let line = Array(
            #"{"v":1,"kind":"log","time":"2026-11-22T00:40:00Z","body":"x","trace_id":17}"#.utf8)
        #expect(throws: WireError.self) { try WireDecoder().decode(line) }
    }
}
