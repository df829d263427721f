import ErrorWatchIngest
import ErrorWatchWire
import Foundation
import FuzzSupport

/// One input is an OTLP/HTTP request: the first byte picks the signal (logs or metrics), the body format
/// (protobuf or OTLP/JSON) and whether it is declared gzip; the rest is the body, handled by
/// `OTLPRequestDecoder` as the receiver handles it (zlib inflate, SwiftProtobuf decoding, the hex-id rewrite of
/// OTLP/JSON, the log and metric mappers). The body goes through the same decoder twice, so the second pass meets
/// the cumulative metric streams the first one left. Every event must survive the recorder's round trip.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 0 else { return 0 }
    let selector = data[0]
    let path = selector & 1 == 0 ? "/v1/logs" : "/v1/metrics"
    let contentType = selector & 2 == 0 ? "application/x-protobuf" : "application/json"
    let encoding = selector & 4 == 0 ? nil : "gzip"
    let body = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let decoder = OTLPRequestDecoder(
        limits: OTLPReceiver.Limits(maximumBodyBytes: 1 << 20), now: { Date(timeIntervalSince1970: 1_795_000_000) })
    for _ in 0..<2 {
        let answer = decoder.decode(path: path, contentType: contentType, contentEncoding: encoding, body: body)
        precondition([200, 400, 413].contains(answer.status), "unexpected status \(answer.status)")
        precondition(answer.status == 200 || answer.events.isEmpty, "a failed request delivered events")
        for event in answer.events { checkRoundTrip(event, from: "OTLPRequestDecoder") }
    }
    return 0
}
