import CoreMetrics
import ErrorStreaming
import ErrorStreamingMetrics
import MetricsTestKit
import Testing

/// An app's classified error, as the counters see it.
private enum PaymentError: ClassifiedError, Equatable {
    case declined
    case deadlock

    var category: ErrorCategory { self == .declined ? .userActionable : .transient }
    var code: ErrorCode { self == .declined ? "P-402" : "D-40001" }
}

/// An error that classifies by default (`.unrecoverable`, `X-0`).
private struct PlainError: Error {}

struct ErrorMetricsRecorderTests {
    private let typeName = String(reflecting: PaymentError.self)

    private func dimensions(_ code: String, _ category: String, _ origin: String, type: String? = nil)
        -> [(String, String)]
    {
        [("type", type ?? typeName), ("code", code), ("category", category), ("origin", origin)]
    }

    @Test func countsEveryErrorByTypeCodeCategoryAndOrigin() async throws {
        let metrics = TestMetrics()
        let stream = ErrorStream()
        let recorder = ErrorMetricsRecorder(stream: stream, factory: metrics)
        for _ in 0..<3 { stream.add(PaymentError.declined) }
        stream.add(PaymentError.declined, context: ErrorContext(origin: .background))
        for _ in 0..<2 { stream.add(PaymentError.deadlock, source: "db", origin: .background) }
        stream.add(PlainError())
        stream.finish()
        await recorder.run()  // returns once the finished stream is drained

        #expect(metrics.counters(label: "errors_total").count == 4)
        #expect(
            try metrics.expectCounter("errors_total", dimensions("P-402", "userActionable", "user")).totalValue == 3)
        #expect(
            try metrics.expectCounter("errors_total", dimensions("P-402", "userActionable", "background")).totalValue
                == 1)
        #expect(
            try metrics.expectCounter("errors_total", dimensions("D-40001", "transient", "background")).totalValue == 2)
        let plain = dimensions("X-0", "unrecoverable", "user", type: String(reflecting: PlainError.self))
        #expect(try metrics.expectCounter("errors_total", plain).totalValue == 1)
        #expect(metrics.counterTotal(label: "errors_total") == 7)
    }

    @Test func errorsAddedBeforeRunStartsAreCounted() async throws {
        let metrics = TestMetrics()
        let stream = ErrorStream()
        let recorder = ErrorMetricsRecorder(stream: stream, factory: metrics)  // subscribed here
        stream.add(PaymentError.deadlock)
        let recording = Task { await recorder.run() }
        stream.add(PaymentError.deadlock)
        stream.finish()
        await recording.value
        #expect(try metrics.expectCounter("errors_total", dimensions("D-40001", "transient", "user")).totalValue == 2)
    }

    @Test func errorsAddedBeforeTheRecorderExistsAreNot() async {
        let metrics = TestMetrics()
        let stream = ErrorStream()
        stream.add(PaymentError.declined)
        let recorder = ErrorMetricsRecorder(stream: stream, factory: metrics)
        stream.add(PaymentError.declined)
        stream.finish()
        await recorder.run()
        #expect(metrics.counterTotal(label: "errors_total") == 1)
    }

    @Test func gaugesFollowTheStreamsListenersAndDrops() async throws {
        let metrics = TestMetrics()
        let stream = ErrorStream()
        let recorder = ErrorMetricsRecorder(stream: stream, factory: metrics)
        #expect(try metrics.expectGauge("error_stream_listeners").lastValue == 1)  // the recorder itself
        #expect(try metrics.expectGauge("error_stream_dropped").lastValue == 0)

        // A listener that keeps one event and never reads: every later error is a drop for it.
        let stuck = stream.events(bufferingPolicy: .bufferingOldest(1))
        for _ in 0..<5 { stream.add(PaymentError.deadlock) }
        recorder.refreshGauges()
        #expect(try metrics.expectGauge("error_stream_listeners").lastValue == 2)
        #expect(try metrics.expectGauge("error_stream_dropped").lastValue == 4)

        stream.finish()
        await recorder.run()
        withExtendedLifetime(stuck) {}
        #expect(metrics.counterTotal(label: "errors_total") == 5)
        #expect(try metrics.expectGauge("error_stream_dropped").lastValue == 4)
    }

    @Test func customLabelsNameTheMetrics() async throws {
        let metrics = TestMetrics()
        let stream = ErrorStream()
        let labels = ErrorMetricsRecorder.Labels(errors: "shop_errors", dropped: "shop_drops", listeners: "shop_subs")
        let recorder = ErrorMetricsRecorder(stream: stream, factory: metrics, labels: labels)
        stream.add(PaymentError.declined)
        stream.finish()
        await recorder.run()
        #expect(try metrics.expectCounter("shop_errors", dimensions("P-402", "userActionable", "user")).totalValue == 1)
        #expect(metrics.counters(label: "errors_total").isEmpty)
        #expect(try metrics.expectGauge("shop_subs").lastValue != nil)
        #expect(try metrics.expectGauge("shop_drops").lastValue == 0)
    }

    @Test func cancellingTheTaskEndsRun() async {
        let metrics = TestMetrics()
        let stream = ErrorStream()
        let recorder = ErrorMetricsRecorder(stream: stream, factory: metrics)
        stream.add(PaymentError.declined)
        let recording = Task { await recorder.run() }
        recording.cancel()
        await recording.value  // returns although the stream never finishes
        #expect(stream.statistics.subscribers == 0)  // the recorder's listener is gone
    }

    @Test func aSecondRunReturnsAtOnceAndCountsNothing() async {
        let metrics = TestMetrics()
        let stream = ErrorStream()
        let recorder = ErrorMetricsRecorder(stream: stream, factory: metrics)
        stream.add(PaymentError.declined)
        stream.finish()
        await recorder.run()
        await recorder.run()
        #expect(metrics.counterTotal(label: "errors_total") == 1)
    }

    @Test func manyProducersAreCountedExactly() async {
        let metrics = TestMetrics()
        let stream = ErrorStream()
        let recorder = ErrorMetricsRecorder(stream: stream, factory: metrics)
        let recording = Task { await recorder.run() }
        await withTaskGroup(of: Void.self) { group in
            for producer in 0..<8 {
                group.addTask {
                    for _ in 0..<1_000 { stream.add(producer.isMultiple(of: 2) ? PaymentError.declined : .deadlock) }
                }
            }
        }
        stream.finish()
        await recording.value
        #expect(metrics.counterTotal(label: "errors_total") == 8_000)
        #expect(metrics.counters(label: "errors_total").count == 2)
    }
}
