import ErrorStreaming
import Foundation
import Synchronization
import Testing

@testable import ErrorWatchIngest

/// A Sentry `transaction` as spans for the trace store: the transaction itself and its `spans[]`, with the SDK's ids,
/// times, names and statuses, the span type the OTLP receivers deliver; malformed ids left out and counted; and the
/// receiver handing them on before the errors of the same envelope.
struct SentryTransactionSpansTests {
    static let trace = "a4a8df4141a14af9b93407bb7f4ce3e9"

    /// What sentry-python 2.75 sends for `start_transaction(op="task", name="checkout")` with two child spans, one
    /// of them failed and one nested under it.
    static let transaction = #"""
        {"type":"transaction","transaction":"checkout","start_timestamp":"2026-11-25T18:14:19.500000Z",
         "timestamp":"2026-11-25T18:14:19.820125Z","release":"shop@1.4.2",
         "contexts":{"trace":{"trace_id":"a4a8df4141a14af9b93407bb7f4ce3e9","span_id":"830dd69515c89dfa",
                              "op":"task","status":"ok"}},
         "spans":[{"op":"db.query","description":"SELECT stock","status":"internal_error",
                   "span_id":"1111111111111111","parent_span_id":"830dd69515c89dfa",
                   "trace_id":"a4a8df4141a14af9b93407bb7f4ce3e9",
                   "start_timestamp":1795630459.600001,"timestamp":1795630459.7},
                  {"op":"db.connect","span_id":"2222222222222222","parent_span_id":"1111111111111111",
                   "start_timestamp":1795630459.61,"timestamp":1795630459.62},
                  {"op":"http.client","description":"GET /price","span_id":"3333333333333333",
                   "parent_span_id":"830dd69515c89dfa","status":"ok","start_timestamp":1795630459.71}]}
        """#

    static func spans(_ json: String) throws -> SentryEventMapper.TransactionSpans {
        SentryEventMapper.spans(try #require(SentryJSON.object(Array(json.utf8)[...])))
    }

    @Test func theTransactionIsTheRootAndItsSpansHangFromTheirParents() throws {
        let mapped = try Self.spans(Self.transaction)
        #expect(mapped.rejected == 0)
        #expect(mapped.spans.map { TraceSpan.hex($0.spanID) } == [
            "830dd69515c89dfa", "1111111111111111", "2222222222222222", "3333333333333333",
        ])
        #expect(mapped.spans.map { $0.parentSpanID.map { TraceSpan.hex($0) } } == [
            nil, "830dd69515c89dfa", "1111111111111111", "830dd69515c89dfa",
        ])
        #expect(mapped.spans.allSatisfy { $0.traceID == Self.trace })
        // Names in the words of a failed span's error: `op: description` (the transaction's name for the root).
        #expect(mapped.spans.map(\.name) == ["task: checkout", "db.query: SELECT stock", "db.connect", "http.client: GET /price"])
        // Sentry sends no span kind and no service: both stay unknown.
        #expect(mapped.spans.allSatisfy { $0.kind == .unspecified && $0.service == nil })
    }

    @Test func statusesAreTheSDKsWordsAndOnlyANonOkStatusIsAnError() throws {
        let mapped = try Self.spans(Self.transaction)
        #expect(mapped.spans.map(\.status) == [.ok, .error, .unset, .ok])
        #expect(mapped.spans.map(\.statusMessage) == [nil, "internal_error", nil, nil])
        // The failed span is the one error the mapper made of the transaction.
        #expect(mapped.spans.map(\.errors) == [0, 1, 0, 0])
        let errors = SentryEventMapper.map(
            type: "transaction", payload: try #require(SentryJSON.object(Array(Self.transaction.utf8)[...])),
            receivedAt: Date())
        #expect(errors.map(\.event.spanID) == ["1111111111111111"])
        #expect(errors.map(\.event.traceID) == [Self.trace])
    }

    @Test func timesAreTheSentOnesToTheMicrosecondAndUnknownWhenAbsent() throws {
        let mapped = try Self.spans(Self.transaction)
        // RFC 3339 text and seconds as numbers, both exact to the microsecond.
        #expect(mapped.spans[0].startUnixNano == 1_795_630_459_500_000_000)
        #expect(mapped.spans[0].endUnixNano == 1_795_630_459_820_125_000)
        #expect(mapped.spans[1].startUnixNano == 1_795_630_459_600_001_000)
        #expect(mapped.spans[1].endUnixNano == 1_795_630_459_700_000_000)
        // A span still open when the transaction was sent has no end: 0, unknown, not the receive time.
        #expect(mapped.spans[3].startUnixNano == 1_795_630_459_710_000_000)
        #expect(mapped.spans[3].endUnixNano == 0)
    }

    @Test func malformedIdsAreLeftOutAndCountedAndTheRestKept() throws {
        let mapped = try Self.spans(
            #"""
            {"contexts":{"trace":{"trace_id":"a4a8df4141a14af9b93407bb7f4ce3e9","span_id":"830dd69515c89dfa"}},
             "spans":[{"span_id":"xyz"},{"span_id":"0000000000000000"},{"op":"no id"},
                      {"span_id":"1111111111111111","parent_span_id":"12"},
                      {"span_id":"2222222222222222","trace_id":"not a trace"},
                      {"span_id":"3333333333333333","parent_span_id":null,"trace_id":null},
                      "not an object",
                      {"span_id":"4444444444444444","trace_id":"B4A8DF4141A14AF9B93407BB7F4CE3E9"}]}
            """#)
        #expect(mapped.rejected == 6)
        #expect(mapped.spans.map { TraceSpan.hex($0.spanID) } == [
            "830dd69515c89dfa", "3333333333333333", "4444444444444444",
        ])
        // A span naming another trace keeps it, as sent.
        #expect(mapped.spans.map(\.traceID) == [Self.trace, Self.trace, "B4A8DF4141A14AF9B93407BB7F4CE3E9"])
        // Nothing to join without the transaction's trace id: all left out.
        let untraced = try Self.spans(
            #"{"contexts":{"trace":{"trace_id":"00000000000000000000000000000000","span_id":"830dd69515c89dfa"}},"spans":[{"span_id":"1111111111111111"}]}"#)
        #expect(untraced.spans.isEmpty)
        #expect(untraced.rejected == 2)
        #expect(try Self.spans(#"{"spans":[{"span_id":"1111111111111111"}]}"#) == .init())
    }

    @Test func hugeSpanListsAndNamesAndFarTimesStayBounded() throws {
        let many = (0..<5_000).map { #"{"span_id":"\#(String(format: "%016lx", $0 + 1))","description":"\#(String(repeating: "d", count: 1_000))"}"# }
        let mapped = try Self.spans(
            #"{"timestamp":1e300,"start_timestamp":-5,"contexts":{"trace":{"trace_id":"a4a8df4141a14af9b93407bb7f4ce3e9","span_id":"830dd69515c89dfa"}},"spans":[\#(many.joined(separator: ","))]}"#)
        #expect(mapped.spans.count == 1 + SentryEventMapper.Limits.spans)
        #expect(mapped.spans.allSatisfy { $0.name.count <= OTLPTraceMapper.maximumNameLength + 1 })
        #expect(mapped.spans[0].startUnixNano == 0)
        #expect(mapped.spans[0].endUnixNano == 0)
    }

    @Test func theReceiverHandsOnATransactionsSpansBeforeItsErrors() async throws {
        let order = SpanOrder()
        let receiver = SentryReceiver(
            endpoint: SentryEndpoint(port: 0), onSpans: { _, spans in order.note("spans \(spans.count)") },
            onEvents: { _, events in order.note("events \(events.count)") })
        try await receiver.start()
        defer { Task { await receiver.shutdown() } }
        let port = try #require(receiver.localEndpoint?.port)
        let payload = Self.transaction.replacingOccurrences(of: "\n", with: "")
        let envelope = "{}\n" + #"{"type":"transaction","length":\#(payload.utf8.count)}"# + "\n" + payload + "\n"
        let response = try await post(port, "/api/1/envelope/", headers: [:], body: Array(envelope.utf8))
        #expect(response.status == 200)
        #expect(order.notes == ["spans 4", "events 1"])
    }
}

/// The order a receiver's callbacks came in.
final class SpanOrder: Sendable {
    private let state = Mutex<[String]>([])
    var notes: [String] { state.withLock { $0 } }
    func note(_ text: String) { state.withLock { $0.append(text) } }
}
