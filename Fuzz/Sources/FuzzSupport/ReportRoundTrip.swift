import ErrorStreaming
import ErrorWatchWire
import Foundation

/// The report as a recording keeps it (`exception.report`): a line the writer takes reads back as the same report,
/// breadcrumb times to the microsecond.
public func checkReportRoundTrip(_ event: WireEvent, _ report: ExceptionReport) {
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
