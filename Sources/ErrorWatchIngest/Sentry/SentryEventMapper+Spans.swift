import ErrorStreaming
import Foundation

extension SentryEventMapper {
    /// A transaction's spans for the trace store, as ``TraceSpan``s, the type the OTLP receivers hand on: the
    /// transaction itself (its `contexts.trace`) as one span, then each of `spans[]` (the first ``Limits/spans``).
    struct TransactionSpans: Equatable {
        var spans: [TraceSpan] = []
        /// Spans left out because an id was missing or malformed (a span id is 16 hex digits, a trace id 32, neither
        /// all zeros; a parent id, when sent, like a span id).
        var rejected = 0
    }

    /// The spans of a `transaction` payload (docs/sentry.md, "Transactions as traces"). Everything is the SDK's own:
    /// ids as sent, `start_timestamp` and `timestamp` to the microsecond Sentry writes (0, unknown, when absent), the
    /// status word as the span's status message. Sentry has no span kind and no service name, so both stay unknown.
    /// Without a valid `contexts.trace.trace_id` nothing is kept: no trace to join.
    static func spans(_ payload: [String: Any]) -> TransactionSpans {
        var result = TransactionSpans()
        guard let trace = (payload["contexts"] as? [String: Any])?["trace"] as? [String: Any] else { return result }
        guard let traceID = Self.traceID(trace["trace_id"]) else {
            result.rejected = 1 + (SentryJSON.list(payload["spans"])?.elements.prefix(Limits.spans).count ?? 0)
            return result
        }
        let transaction = SentryJSON.text(payload["transaction"], limit: OTLPTraceMapper.maximumNameLength)
        if let root = span(
            trace, traceID: traceID, description: transaction, start: payload["start_timestamp"],
            end: payload["timestamp"])
        {
            result.spans.append(root)
        } else {
            result.rejected += 1
        }
        for item in (SentryJSON.list(payload["spans"])?.elements ?? []).prefix(Limits.spans) {
            guard let object = item as? [String: Any] else {
                result.rejected += 1
                continue
            }
            // A span names its trace too; when it names none, it is the transaction's.
            let sent = object["trace_id"]
            let own = sent == nil || sent is NSNull ? traceID : Self.traceID(sent)
            guard let own,
                let span = span(
                    object, traceID: own,
                    description: SentryJSON.text(object["description"], limit: OTLPTraceMapper.maximumNameLength),
                    start: object["start_timestamp"], end: object["timestamp"])
            else {
                result.rejected += 1
                continue
            }
            result.spans.append(span)
        }
        return result
    }

    /// One span: `span_id`, `parent_span_id`, `op` and the description (or the transaction's name) as its name,
    /// `status`; `nil` when an id is missing or malformed.
    private static func span(
        _ object: [String: Any], traceID: String, description: String?, start: Any?, end: Any?
    ) -> TraceSpan? {
        guard let spanID = Self.spanID(object["span_id"]) else { return nil }
        var parent: UInt64?
        if let sent = object["parent_span_id"], !(sent is NSNull) {
            guard let id = Self.spanID(sent) else { return nil }
            parent = id
        }
        let op = SentryJSON.text(object["op"], limit: 200)
        // The same words as a failed span's error message: `op: description`.
        let name = SentryJSON.cut(
            [op, description].compactMap { $0 }.joined(separator: ": "), OTLPTraceMapper.maximumNameLength)
        let word = SentryJSON.text(object["status"], limit: 64)
        let status: TraceSpan.Status =
            switch word {
            case nil: .unset
            case "ok"?: .ok
            default: .error
            }
        return TraceSpan(
            traceID: traceID, spanID: spanID, parentSpanID: parent, name: name, kind: .unspecified,
            startUnixNano: unixNanos(start), endUnixNano: unixNanos(end), status: status,
            statusMessage: status == .error ? word : nil, errors: status == .error ? 1 : 0)
    }

    /// A trace id as sent when it is 32 hex digits, not all zeros.
    static func traceID(_ value: Any?) -> String? {
        guard let text = value as? String, text.utf8.count == 32, text.utf8.allSatisfy(isHexDigit),
            text.utf8.contains(where: { $0 != UInt8(ascii: "0") })
        else { return nil }
        return text
    }

    /// A span id of 16 hex digits, not all zeros, as its number.
    static func spanID(_ value: Any?) -> UInt64? {
        guard let text = value as? String, text.utf8.count == 16, text.utf8.allSatisfy(isHexDigit),
            let id = UInt64(text, radix: 16), id != 0
        else { return nil }
        return id
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
            UInt8(ascii: "A")...UInt8(ascii: "F"):
            true
        default: false
        }
    }

    /// A Sentry time (seconds since 1970, or RFC 3339 text) in nanoseconds since 1970, to the microsecond (what the
    /// SDKs write, and what a `Double` of seconds holds exactly for today's dates); 0 when absent or unreadable.
    static func unixNanos(_ value: Any?) -> UInt64 {
        let seconds: Double
        switch value {
        case let number as NSNumber:
            guard !SentryJSON.isBoolean(number) else { return 0 }
            seconds = number.doubleValue
        case let text as String:
            guard let date = SentryJSON.date(text) else { return 0 }
            seconds = date.timeIntervalSince1970
        default:
            return 0
        }
        // Nanoseconds since 1970 fit 64 bits until the year 2554; a later time is unreadable here.
        guard seconds.isFinite, seconds >= 0, seconds < 18_000_000_000 else { return 0 }
        return UInt64((seconds * 1_000_000).rounded()) * 1_000
    }
}
