import ErrorWatchIngest
import ErrorWatchWire
import Foundation
import FuzzSupport

/// One input is an OTLP/HTTP trace export: the first byte picks the body format (bit 1: protobuf or OTLP/JSON) and
/// whether it is declared gzip (bit 2); the rest is the body, handled by `OTLPRequestDecoder` as the receiver
/// handles `/v1/traces` (inflate, decoding, the hex-id rewrite, `OTLPTraceMapper` and its memory of failures). The
/// body goes through the same decoder twice, so the second pass meets the failures the first one counted: the
/// same spans must then yield no error at all. Every span must have valid ids, every error its trace, and every
/// event must survive the recorder's round trip.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 0 else { return 0 }
    let selector = data[0]
    let contentType = selector & 2 == 0 ? "application/x-protobuf" : "application/json"
    let encoding = selector & 4 == 0 ? nil : "gzip"
    let body = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let decoder = OTLPRequestDecoder(
        limits: OTLPReceiver.Limits(maximumBodyBytes: 1 << 20), now: { Date(timeIntervalSince1970: 1_795_000_000) })
    // Within the memory's bounds (failures per trace, traces) a failure counted once is never counted again.
    var remembered = true
    for pass in 0..<2 {
        let answer = decoder.decode(path: "/v1/traces", contentType: contentType, contentEncoding: encoding, body: body)
        precondition([200, 400, 413].contains(answer.status), "unexpected status \(answer.status)")
        precondition(answer.status == 200 || (answer.events.isEmpty && answer.spans.isEmpty), "a failure delivered")
        for span in answer.spans {
            precondition(span.traceID.utf8.count == 32 && span.spanID != 0, "a span with an invalid id was kept")
        }
        precondition(
            answer.events.count == answer.spans.reduce(0) { $0 + $1.errors }, "errors and spans' counts disagree")
        if pass == 0 {
            let traces = Set(answer.spans.map(\.traceID))
            remembered = answer.events.count < 256 && traces.count < 1_000
        }
        precondition(pass == 0 || !remembered || answer.events.isEmpty, "the same failures were counted twice")
        for event in answer.events {
            precondition(event.kind == .error && event.traceID?.utf8.count == 32, "an error without its trace")
            checkRoundTrip(event, from: "OTLPRequestDecoder /v1/traces")
        }
    }
    return 0
}
