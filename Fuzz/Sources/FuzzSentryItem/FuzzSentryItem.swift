import ErrorStreaming
import ErrorWatchIngest
import ErrorWatchWire
import Foundation
import FuzzSupport

/// One input is one Sentry item's payload: the first byte picks its type (`event`, `transaction`, `log`) and
/// whether it travels in an envelope (with its `length`) or alone to the store endpoint; the rest is the payload,
/// read by the bounded item reader (`SentryJSONReader`) and mapped as the receiver maps it.
///
/// Besides the bounds of every report, it checks that an error item is never answered `200` and lost: `200` with
/// its one event, or `400` saying why it was refused; and that an object `JSONSerialization` reads (nested within
/// the reader's depth, no NUL byte that could make Foundation guess UTF-16) is read by the bounded reader too.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 0 else { return 0 }
    let selector = data[0]
    let type = ["event", "transaction", "log", "event"][Int(selector & 3)]
    let store = selector & 4 != 0 && type != "log"
    let payload = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    var body: [UInt8]
    if store {
        body = payload
        if type == "transaction" { return 0 }  // the store endpoint reads a transaction by its own `type`
    } else {
        body = Array(#"{"event_id":"9ec79c33ec9942ab8353589fcb2e04dc"}"#.utf8) + [0x0A]
        body += Array(#"{"type":"\#(type)","length":\#(payload.count)}"#.utf8) + [0x0A] + payload + [0x0A]
    }
    let decoder = SentryRequestDecoder(
        limits: HTTPReceiverLimits(maximumBodyBytes: 1 << 20), now: { Date(timeIntervalSince1970: 1_795_000_000) })
    let answer = decoder.decode(path: store ? "/api/1/store/" : "/api/1/envelope/", body: body)
    precondition([200, 400].contains(answer.status), "unexpected status \(answer.status)")
    if answer.status == 400 {
        precondition(answer.events.isEmpty && answer.spans.isEmpty, "a refused item delivered something")
        precondition(answer.problem?.contains("was refused: ") == true, "refused without a reason: \(answer)")
    }
    // On the store endpoint an item is read by its own `type`: a payload that says `"type":"transaction"` is a
    // transaction, answered 200 with no event when none of its spans failed. Any payload that could spell it (the
    // word, or an escape that could make it) is left out of this check there; in an envelope every event is checked.
    let couldBeATransaction =
        store
        && (payload.contains(UInt8(ascii: "\\")) || String(decoding: payload, as: UTF8.self).contains("transaction"))
    if type == "event", !couldBeATransaction {
        precondition(answer.status == 400 || answer.events.count == 1, "an error item answered 200 and lost")
    }
    if looksLikeJSONObject(payload), (try? JSONSerialization.jsonObject(with: Data(payload))) is [String: Any] {
        precondition(answer.status == 200, "JSONSerialization reads an object the bounded reader refused: \(answer)")
    }
    for mapped in answer.events {
        if let report = mapped.report {
            precondition(report.exceptions.count <= 20, "the chain is not bounded")
            precondition(report.exceptions.allSatisfy { $0.frames.count <= 250 }, "frames are not bounded")
            precondition(
                report.exceptions.allSatisfy { exception in
                    exception.frames.allSatisfy {
                        $0.preContext.count <= 10 && $0.postContext.count <= 10 && $0.variables.count <= 50
                    }
                }, "context lines or variables are not bounded")
            precondition(report.breadcrumbs.count <= 100, "breadcrumbs are not bounded")
            checkReportRoundTrip(mapped.event, report)
        }
        checkRoundTrip(mapped.event, from: "SentryRequestDecoder")
    }
    for span in answer.spans {
        precondition(span.traceID.utf8.count == 32, "a span without a valid trace id: \(span)")
        precondition(span.spanID != 0 && span.parentSpanID != 0, "a span with a zero id: \(span)")
    }
    return 0
}

/// Whether `bytes` starts (after spaces) with `{`, has no NUL byte, nests at most 200 levels and has no comma just
/// before a `}` or `]` (outside strings): what both readers must agree on. Foundation's `JSONSerialization` reads a
/// trailing comma (`{"lineno":196,}`) where JSON has none; the bounded reader refuses it, as Sentry's own parser does.
func looksLikeJSONObject(_ bytes: [UInt8]) -> Bool {
    guard let first = bytes.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }), first == UInt8(ascii: "{"),
        !bytes.contains(0)
    else { return false }
    var depth = 0
    var deepest = 0
    var inString = false
    var escaped = false
    var afterComma = false
    for byte in bytes {
        if inString {
            if escaped {
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                inString = false
            }
            continue
        }
        if afterComma, byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") { return false }
        if ![0x20, 0x09, 0x0A, 0x0D].contains(byte) { afterComma = byte == UInt8(ascii: ",") }
        switch byte {
        case UInt8(ascii: "\""): inString = true
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            depth += 1
            deepest = max(deepest, depth)
        case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
        default: break
        }
    }
    return deepest <= 200
}
