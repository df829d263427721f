import ErrorStreaming
import ErrorWatchIngest
import ErrorWatchWire
import Foundation
import FuzzSupport

/// One input is a Sentry request: the first byte picks the endpoint (envelope, store or Spotlight's stream) and
/// whether the body is declared gzip; the rest is the body, handled by `SentryRequestDecoder` as the receiver
/// handles it (zlib inflate, the envelope reader, JSONSerialization, the event, transaction and log mappers). Every
/// error's report must stay within its bounds, and every event (with its report, as a recording keeps it) must
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

/// The report as a recording keeps it (`exception.report`): a line the writer takes reads back as the same report,
/// breadcrumb times to the microsecond.
func checkReportRoundTrip(_ event: WireEvent, _ report: ExceptionReport) {
    var event = event
    event.report = report
    let line: [UInt8]
    do {
        line = try WireEncoder().encode(event)
    } catch .lineTooLong {
        return
    } catch {
        fatalError("the writer refuses a report (\(error)): \(report)")
    }
    let decoded: WireEvent
    do {
        decoded = try WireDecoder().decode(line)
    } catch {
        fatalError("a report line does not decode (\(error)): \(String(decoding: line, as: UTF8.self))")
    }
    guard var again = decoded.report else { fatalError("the report was lost: \(String(decoding: line, as: UTF8.self))") }
    var expected = report
    precondition(again.breadcrumbs.count == expected.breadcrumbs.count, "breadcrumbs were lost")
    for index in expected.breadcrumbs.indices {
        let (before, after) = (expected.breadcrumbs[index].timestamp, again.breadcrumbs[index].timestamp)
        precondition((before == nil) == (after == nil), "a breadcrumb time was lost or invented")
        if let before, let after {
            precondition(abs(before.timeIntervalSince(after)) < 0.001, "a breadcrumb time moved: \(before) → \(after)")
        }
        expected.breadcrumbs[index].timestamp = nil
        again.breadcrumbs[index].timestamp = nil
    }
    precondition(again == expected, "the round trip changed the report: \(expected) → \(again)")
}
