import ErrorStreaming
import ErrorWatchIngest
import ErrorWatchWire
import Foundation
import FuzzSupport

/// One input is a Sentry request: the first byte picks the endpoint (envelope, store or Spotlight's stream) and
/// whether the body is declared gzip; the rest is the body, handled by `SentryRequestDecoder` as the receiver
/// handles it (zlib inflate, the envelope reader, the bounded item reader, the event, transaction and log mappers).
/// Every error's report must stay within its bounds, and every event (with its report, as a recording keeps it) must
/// survive the recorder's round trip; every transaction span must have valid ids and a bounded name.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 0 else { return 0 }
    let selector = data[0]
    let paths = ["/api/1/envelope/", "/api/1/store/", "/stream", "/api/1/envelope/"]
    let path = paths[Int(selector & 3)]
    let headers = selector & 4 == 0 ? [] : [("Content-Encoding", "gzip")]
    let body = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let decoder = SentryRequestDecoder(
        limits: HTTPReceiverLimits(maximumBodyBytes: 1 << 20), now: { Date(timeIntervalSince1970: 1_795_000_000) })
    let answer = decoder.decode(path: path, headers: headers, body: body)
    precondition([200, 400, 413].contains(answer.status), "unexpected status \(answer.status)")
    precondition(answer.status == 200 || answer.events.isEmpty, "a failed request delivered events")
    for mapped in answer.events {
        if let report = mapped.report {
            precondition(report.exceptions.count <= 20, "the chain is not bounded")
            precondition(report.exceptions.allSatisfy { $0.frames.count <= 250 }, "frames are not bounded")
            precondition(report.breadcrumbs.count <= 100, "breadcrumbs are not bounded")
            checkReportRoundTrip(mapped.event, report)
        }
        checkRoundTrip(mapped.event, from: "SentryRequestDecoder")
    }
    precondition(answer.status == 200 || answer.spans.isEmpty, "a failed request delivered spans")
    for span in answer.spans {
        precondition(span.traceID.utf8.count == 32, "a span without a valid trace id: \(span)")
        precondition(span.spanID != 0 && span.parentSpanID != 0, "a span with a zero id: \(span)")
        precondition(span.name.count <= 257, "a span name is not bounded: \(span.name.count)")
        precondition(span.startUnixNano % 1_000 == 0 && span.endUnixNano % 1_000 == 0, "times finer than Sentry's")
    }
    return 0
}
