import Synchronization

/// What a receiver remembers of recent traces so that one failure is one error however its spans arrive: which
/// span is whose child, and which failures were already counted (docs/otlp.md, "One failure, one error").
///
/// A failure is a candidate error of one span: an `exception` event (type and message), or an error status with no
/// exception event (its description). A candidate is the *same failure* as one counted before in the same trace
/// when their spans are related (the same span, or one an ancestor of the other, as far as the parent links
/// received so far tell) and
/// - both are exceptions with the same `exception.type` and `exception.message` (an exception recorded on the span
///   that raised it and again on each span it passed through, or twice on one span), or
/// - one is an error status with no exception event whose description is empty, holds the other's message, or
///   names the other's type (its last component: Python's SDK writes `ValueError: bad`).
///
/// Bounded: the most recently heard ``maximumTraces`` traces, ``maximumLinksPerTrace`` parent links and
/// ``maximumFailuresPerTrace`` counted failures each, ``maximumLinks`` links in all; past them, a relation that is not remembered is not known, and
/// the candidate is counted. Every mutation happens under one lock per request.
///
/// One memory may be shared by several receivers (the `traces` parameter of ``OTLPReceiver`` and ``OTLPGRPCReceiver``):
/// the dashboard's OTLP/HTTP and OTLP/gRPC receivers share one, so a trace whose services export over different
/// transports is still one trace, and its failure one error.
public final class OTLPTraceMemory: Sendable {
    /// Traces remembered; the least recently heard is forgotten first.
    static let maximumTraces = 4_096
    /// Parent links remembered per trace.
    static let maximumLinksPerTrace = 10_000
    /// Parent links remembered across all traces (about 6 MB); past it the least recently heard traces are
    /// forgotten, as past ``maximumTraces``.
    static let maximumLinks = 100_000
    /// Counted failures remembered per trace.
    static let maximumFailuresPerTrace = 256
    /// How far up a parent chain a relation is looked for (a cycle of parents ends here too).
    static let maximumDepth = 256

    /// An empty memory.
    public init() {}

    /// One candidate error of a span.
    struct Failure: Sendable, Hashable {
        /// An exception event's type and message, or an error status's description (in `message`).
        enum Origin: Sendable, Hashable {
            case exception
            case status
        }

        var origin: Origin
        var spanID: UInt64
        var type: String
        var message: String
    }

    /// One span's place in its trace and its candidates.
    struct SpanFailures: Sendable {
        var traceID: String
        var spanID: UInt64
        var parentSpanID: UInt64?
        var failures: [Failure]
    }

    private struct Trace {
        var links: [UInt64: UInt64] = [:]
        var counted: [Failure] = []
        /// When it was last heard of, in requests: the oldest are forgotten first.
        var heard: UInt64 = 0
    }

    private struct State {
        var traces: [String: Trace] = [:]
        var requests: UInt64 = 0
        /// Parent links held across all traces.
        var links = 0
    }

    private let state = Mutex(State())

    /// Learns the parent links of every span of `spans` first (a child and its parent in one request relate
    /// whichever comes first), then decides for each candidate, in order, whether it is a failure not counted
    /// yet; returns, per span, which of its candidates to count.
    func count(_ spans: [SpanFailures]) -> [[Bool]] {
        state.withLock { state in
            state.requests += 1
            let now = state.requests
            for span in spans {
                state.traces[span.traceID, default: Trace()].heard = now
                guard let parent = span.parentSpanID else { continue }
                if state.traces[span.traceID]!.links.count < Self.maximumLinksPerTrace,
                    state.traces[span.traceID]!.links.updateValue(parent, forKey: span.spanID) == nil
                {
                    state.links += 1
                }
            }
            var decisions: [[Bool]] = []
            decisions.reserveCapacity(spans.count)
            for span in spans {
                guard !span.failures.isEmpty else {
                    decisions.append([])
                    continue
                }
                var counts: [Bool] = []
                for failure in span.failures {
                    // Every span of the request was entered above.
                    let trace = state.traces[span.traceID]!
                    let same = trace.counted.contains {
                        Self.same($0, failure) && Self.related($0.spanID, failure.spanID, trace.links)
                    }
                    counts.append(!same)
                    if !same, trace.counted.count < Self.maximumFailuresPerTrace {
                        state.traces[span.traceID]!.counted.append(failure)
                    }
                }
                decisions.append(counts)
            }
            if state.traces.count > Self.maximumTraces || state.links > Self.maximumLinks {
                // Down to three quarters of both limits at once, least recently heard first, so forgetting costs
                // O(1) per trace on average.
                for (key, _) in state.traces.sorted(by: { $0.value.heard < $1.value.heard }) {
                    guard state.traces.count > Self.maximumTraces * 3 / 4 || state.links > Self.maximumLinks * 3 / 4
                    else { break }
                    state.links -= state.traces.removeValue(forKey: key)?.links.count ?? 0
                }
            }
            return decisions
        }
    }

    /// Whether two failures of related spans are one.
    static func same(_ a: Failure, _ b: Failure) -> Bool {
        switch (a.origin, b.origin) {
        case (.exception, .exception): return a.type == b.type && a.message == b.message
        case (.status, .exception): return describes(status: a.message, b)
        case (.exception, .status): return describes(status: b.message, a)
        case (.status, .status): return a.message == b.message || a.message.isEmpty || b.message.isEmpty
        }
    }

    /// Whether an error status's description names `exception`: empty, or holding its message or its type's last
    /// component (Python's SDK writes `ValueError: bad` beside an `exception.type` of `builtins.ValueError`).
    private static func describes(status: String, _ exception: Failure) -> Bool {
        guard !status.isEmpty else { return true }
        if !exception.message.isEmpty, status.contains(exception.message) { return true }
        let short = exception.type.split(whereSeparator: { $0 == "." || $0 == ":" }).last.map(String.init) ?? ""
        return !short.isEmpty && status.contains(short)
    }

    /// Whether `a` and `b` are the same span or one is an ancestor of the other, by the links known.
    static func related(_ a: UInt64, _ b: UInt64, _ links: [UInt64: UInt64]) -> Bool {
        a == b || isAncestor(a, of: b, links) || isAncestor(b, of: a, links)
    }

    private static func isAncestor(_ ancestor: UInt64, of span: UInt64, _ links: [UInt64: UInt64]) -> Bool {
        var current = span
        for _ in 0..<maximumDepth {
            guard let parent = links[current], parent != current else { return false }
            if parent == ancestor { return true }
            current = parent
        }
        return false
    }
}
