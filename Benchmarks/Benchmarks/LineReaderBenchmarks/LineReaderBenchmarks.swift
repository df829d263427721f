import Benchmark
import ErrorStreaming
import ErrorWatchIngest
import ErrorWatchWire
import Foundation

/// Lines read per second by one `LineReader` on one thread.
let linesPerSecond = BenchmarkMetric.custom("lines/s", polarity: .prefersLarger, useScalingFactor: false)

/// Lines per round.
let linesPerRound = 200_000

/// One of each shape the reader knows, with the variety real logs have: levels, errors with stacks, unicode and
/// escapes, and multi-line traces (which count as their lines).
let mixedCorpus: [[UInt8]] = {
    var lines: [String] = []
    for n in 0..<50 {
        lines += [
            #"{"level":30,"time":1795000000\#(n)00,"pid":4242,"hostname":"web-1","name":"checkout","msg":"order \#(n) placed","orderId":"A-\#(n)"}"#,
            #"{"level":50,"time":1795000002000,"pid":4242,"hostname":"web-1","msg":"payment failed","err":{"type":"CardDeclinedError","message":"card declined","stack":"CardDeclinedError: card declined\n    at charge (/app/pay.js:42:11)"}}"#,
            #"{"level":"info","ts":1795000000.5,"caller":"server/main.go:42","msg":"request served","status":200,"path":"/products/\#(n)"}"#,
            #"{"level":"error","ts":1795000001.25,"caller":"pay/charge.go:117","msg":"charge failed","error":"stripe: card_declined","stacktrace":"main.charge\n\t/src/pay/charge.go:117"}"#,
            #"{"level":"warning","msg":"cache miss for \"zoë\"","time":"2026-11-23T11:00:00+01:00","key":"u:\#(n)"}"#,
            #"{"event": "job picked", "level": "info", "timestamp": "2026-11-23T10:00:00.123456Z", "logger": "worker", "job_id": \#(n)}"#,
            #"{"@t":"2026-11-23T10:00:00.1234567Z","@mt":"Order {OrderId} placed by {User}","OrderId":\#(n),"User":"zoë","SourceContext":"Shop.Orders"}"#,
            #"{"version":"1.1","host":"db-1","short_message":"checkpoint complete","timestamp":1795000000.5,"level":6,"_facility":"postgres"}"#,
            #"{"asctime": "2026-11-23 10:00:00,123", "levelname": "INFO", "name": "billing", "message": "invoice \#(n) sent"}"#,
            #"ts=2026-11-23T10:00:01Z level=info msg="request served" path=/products status=200 took=12ms"#,
            "2026-11-23T10:00:00.250Z INFO  http: GET /products/\(n) 200 12ms",
            "2026-11-23 10:00:01,500 [worker-3] WARN  com.shop.Cache - eviction storm ⚡",
            "2026-11-23 10:00:00,001 ERROR worker: order \(n) failed",
            "Traceback (most recent call last):",
            "  File \"/app/worker.py\", line 41, in process",
            "    reserve(order)",
            "KeyError: 'sku-\(n)'",
            "just a plain line without a level, number \(n)",
        ]
    }
    return lines.map { Array($0.utf8) }
}()

/// Our own wire lines: the reader must keep the decoder's speed for them.
let wireCorpus: [[UInt8]] = (0..<100).map { n in
    let event = WireEvent(
        kind: .error, time: Date(timeIntervalSince1970: 1_795_000_000 + Double(n)), serviceName: "shop", pid: 4242,
        hostName: "web-1", source: "checkout", exceptionType: "Shop.PaymentError",
        exceptionMessage: "card declined for order \(n)", userMessage: "Your card was declined.", code: "P-402",
        category: .userActionable, severity: .error, origin: .user, attempt: 1, sequence: UInt64(n),
        attributes: ["order": "A-\(n)"])
    var line = (try? WireEncoder().encode(event)) ?? []
    if line.last == 0x0A { line.removeLast() }
    return line
}

/// Reads `lines` round-robin until `count` lines are read; the number of results, so the work is not optimised away.
func readRound(_ corpus: [[UInt8]], count: Int, format: LogFormat) -> Int {
    var reader = LineReader(format: format)
    var results = 0
    let received = Date()
    for index in 0..<count {
        corpus[index % corpus.count].withUnsafeBytes { bytes in
            reader.read(bytes, receivedAt: received) { _ in results += 1 }
        }
    }
    reader.flush { _ in results += 1 }
    return results
}

/// As ``readRound(_:count:format:)``, with templates on: every event's message masked into its template (what the
/// Patterns view mines), and every error made into the `RemoteError` the dashboard adds, whose fingerprint is its
/// type, code and message template. What a line costs from its bytes to its template and fingerprint.
func readRoundWithTemplates(_ corpus: [[UInt8]], count: Int) -> Int {
    var reader = LineReader(format: .auto)
    var results = 0
    let received = Date()
    func take(_ result: Result<WireEvent, WireError>) {
        guard case .success(let event) = result else { return }
        if event.kind == .error, let error = RemoteError(event) {
            results &+= error.fingerprint.utf8.count
        } else {
            results &+= TemplateMask.template(of: event.body ?? "").utf8.count
        }
    }
    for index in 0..<count {
        corpus[index % corpus.count].withUnsafeBytes { bytes in reader.read(bytes, receivedAt: received, take) }
    }
    reader.flush(take)
    return results
}

let benchmarks: @Sendable () -> Void = {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, linesPerSecond, .peakMemoryResident],
        units: [linesPerSecond: .kilo, .peakMemoryResident: .kilo],
        warmupIterations: 1,
        maxDuration: .seconds(5),
        maxIterations: 10
    )
    let cases: [(String, [[UInt8]], LogFormat)] = [
        ("LineReader mixed shapes (auto)", mixedCorpus, .auto),
        ("LineReader our wire lines (auto)", wireCorpus, .auto),
        ("WireDecoder alone, our wire lines (--format wire)", wireCorpus, .wire),
    ]
    // What a forwarder does for every error its app adds: one line per ErrorEvent, straight from the event
    // (what `encode(_:)` does since the forwarder's encoding was rewritten) or through a WireEvent (before).
    let events = forwardedEvents()
    let encoder = WireEncoder(source: SourceInfo(serviceName: "shop-server", pid: 4242, host: "web-1"))
    let encodings: [(String, @Sendable (ErrorEvent) -> Int)] = [
        ("Forwarder: encode an ErrorEvent (direct)", { (try? encoder.encode($0))?.count ?? 0 }),
        ("Forwarder: encode an ErrorEvent through a WireEvent", {
            (try? encoder.encode(encoder.wireEvent(for: $0)))?.count ?? 0
        }),
    ]
    for (name, encode) in encodings {
        Benchmark(name, configuration: configuration) { benchmark in
            let start = ContinuousClock.now
            benchmark.startMeasurement()
            var bytes = 0
            for index in 0..<linesPerRound { bytes &+= encode(events[index % events.count]) }
            benchmark.stopMeasurement()
            blackHole(bytes)
            let seconds = (ContinuousClock.now - start) / .seconds(1)
            benchmark.measurement(linesPerSecond, Int(Double(linesPerRound) / seconds))
        }
    }
    Benchmark("LineReader mixed shapes (auto) + templates and fingerprints", configuration: configuration) {
        benchmark in
        let start = ContinuousClock.now
        benchmark.startMeasurement()
        let results = readRoundWithTemplates(mixedCorpus, count: linesPerRound)
        benchmark.stopMeasurement()
        blackHole(results)
        let seconds = (ContinuousClock.now - start) / .seconds(1)
        benchmark.measurement(linesPerSecond, Int(Double(linesPerRound) / seconds))
    }
    for (name, corpus, format) in cases {
        Benchmark(name, configuration: configuration) { benchmark in
            let start = ContinuousClock.now
            benchmark.startMeasurement()
            let results = readRound(corpus, count: linesPerRound, format: format)
            benchmark.stopMeasurement()
            blackHole(results)
            let seconds = (ContinuousClock.now - start) / .seconds(1)
            benchmark.measurement(linesPerSecond, Int(Double(linesPerRound) / seconds))
        }
    }
}

/// A checkout's failures as a server's stream holds them: classified errors with metadata and retry attempts.
struct CheckoutFailure: ClassifiedError {
    let reason: String
    var category: ErrorCategory { .userActionable }
    var code: ErrorCode { "P-402" }
    var userMessage: String { "Your card was declined. Please use another card." }
    var technicalMessage: String { "card declined by the payment provider: \(reason)" }
}

/// 100 events taken from a real stream, so each carries the location `add` captured.
func forwardedEvents() -> [ErrorEvent] {
    let stream = ErrorStream()
    let poller = stream.eventPoller(bufferingPolicy: .unbounded) {}
    for n in 0..<100 {
        stream.add(
            CheckoutFailure(reason: n.isMultiple(of: 2) ? "insufficient_funds" : "do_not_honor"),
            context: ErrorContext(
                source: "shop.checkout", severity: .warning, attempt: n % 3 + 1,
                metadata: ["sku": "mug", "quantity": String(n % 5 + 1)]))
    }
    var events: [ErrorEvent] = []
    poller.poll { events.append($0) }
    return events
}
