import ArgumentParser
import ErrorStreaming
import ErrorWatchIngest
import ErrorWatchWire
import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// Load test for the wire feed: N producers at a target total rate against a listener, then the counts.
@main
struct LoadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "errorwatch-load",
        abstract: "Send NDJSON or OTLP events from many producers at a target rate and check nothing is lost.",
        discussion: """
            Without --connect, a FeedListener runs in this process on --listen and every count is checked at both
            ends. With --connect, events go to a running `errorwatch --listen` and only the sending side is counted.
            With --producers 0, only the listener runs, for --duration seconds, and prints what it received: run
            one of those and one --connect to measure across processes. With --otlp, HTTP/1.1 clients post OTLP batches
            instead (logs, traces, metrics: --signals), or gRPC clients call the collector services (--grpc); at the
            end they print, per signal, what was sent, accepted, refused and rejected, and the events, errors and
            spans the dashboard must count for what was accepted (docs/otlp.md, "Load").
            """)

    @Option(help: "Producer connections.") var producers = 50
    @Option(help: "Events per second, all producers together.") var rate = 200_000
    @Option(help: "Seconds to send for.") var duration = 10.0
    @Option(help: "Where the in-process listener listens (tcp:PORT, tcp:HOST:PORT, unix:PATH).")
    var listen = "tcp:0"
    @Option(help: "Send to a running listener instead of starting one.") var connect: String?
    @Option(help: "Event loop threads for the producers.") var producerThreads = 1
    @Flag(help: "Only time encoding and decoding one line, single-threaded, and exit.") var codecOnly = false
    @Flag(
        help: """
            Speak OTLP/HTTP: clients POST protobuf export requests to /v1/logs, /v1/traces, /v1/metrics \
            (--signals; in-process receiver on otlp:0, or --connect otlp:HOST:PORT); --rate counts their items.
            """)
    var otlp = false
    @Option(help: "OTLP clients (keep-alive connections); --producers by default.") var clients: Int?
    @Option(
        help: """
            Items per OTLP request: log records (half of them exceptions), spans (traces of 10 nested spans, half \
            of the traces failing) or gauge data points.
            """)
    var batch = 500
    @Option(
        help: """
            With --otlp, the signals each client sends in turn, comma-separated: logs, traces, metrics; --rate \
            counts their items together.
            """)
    var signals = "logs"
    @Flag(help: "gzip the OTLP request bodies.") var gzip = false
    @Option(help: "In-process OTLP receiver: answer every Nth request 503 (0: admit all).") var refuseEvery = 0
    @Flag(
        help: """
            With --otlp, speak OTLP/gRPC: clients call the services' Export (in-process receiver on otlp-grpc:0, or \
            --connect otlp-grpc:HOST:PORT, which implies it); --gzip compresses the messages.
            """)
    var grpc = false

    func run() async throws {
        if codecOnly { return try Self.measureCodec() }
        if otlp { return try await runOTLP() }
        let counters = LoadCounters()
        var listener: FeedListener?
        let target: Endpoint
        if let connect {
            target = try Endpoint(parsing: connect)
        } else {
            let started = FeedListener(
                endpoint: try Endpoint(parsing: listen), configuration: .init(maximumBytesPerSecond: nil)
            ) { _, _ in counters.received.add(1, ordering: .relaxed) }
            try await started.start()
            listener = started
            target = try started.localEndpoint.unwrapOr(started.endpoint)
        }
        if producers == 0, let listener {
            print("listening on \(target) for \(duration) s")
            try await Task.sleep(for: .seconds(duration))
            let received = counters.received.load(ordering: .relaxed)
            let bad = listener.producers.reduce(0) { $0 + $1.errors.total }
            let producersSeen = listener.producers.count
            await listener.shutdown()
            print("received:         \(received) events from \(producersSeen) producers, bad input: \(bad)")
            print("peak RSS:         \(Self.peakResidentMegabytes().map { String(format: "%.1f MB", $0) } ?? "?")")
            return
        }
        guard producers > 0 else { throw ValidationError("--producers 0 needs the in-process listener") }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: producerThreads)
        let line = try WireEncoder(source: SourceInfo(serviceName: "load")).encode(Self.sampleEvent)
        let perProducer = Double(rate) / Double(producers)
        var running: [LoadProducer] = []
        for index in 0..<producers {
            running.append(
                try await LoadProducer.connect(
                    to: target, group: group, line: line, perSecond: perProducer, index: index, counters: counters))
        }
        print("\(producers) producers connected to \(target); sending \(rate) events/s for \(duration) s")
        let start = ContinuousClock.now
        for producer in running { producer.start() }
        try await Task.sleep(for: .seconds(duration))
        for producer in running { try await producer.stop() }
        let sendingTime = Self.seconds(ContinuousClock.now - start)
        let sent = counters.sent.load(ordering: .relaxed)
        if listener != nil {
            let deadline = ContinuousClock.now + .seconds(15)
            while counters.received.load(ordering: .relaxed) < sent, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(10))
            }
        }
        let drainedTime = Self.seconds(ContinuousClock.now - start)
        let received = counters.received.load(ordering: .relaxed)
        let statuses = listener?.producers ?? []
        for producer in running { try? await producer.close() }
        await listener?.shutdown()
        try await group.shutdownGracefully()
        Self.report(
            sent: sent, received: listener == nil ? nil : received, failed: counters.failed.load(ordering: .relaxed),
            skipped: counters.skipped.load(ordering: .relaxed), sendingTime: sendingTime, drainedTime: drainedTime,
            badLines: statuses.reduce(0) { $0 + $1.errors.total }, lineBytes: line.count)
        if listener != nil, received != sent { throw ExitCode(1) }
    }

    static let sampleEvent = WireEvent(
        kind: .error, time: Date(timeIntervalSince1970: 1_800_000_000), serviceName: "load", pid: 1,
        hostName: "localhost",
        source: "checkout.pay", exceptionType: "Shop.PaymentError", exceptionMessage: "gateway answered 503",
        userMessage: "The service is temporarily unavailable. Please try again shortly.", code: "N-503",
        category: .transient, severity: .warning, origin: .user, attempt: 1, sequence: 1, attributes: ["order": "A-19"])

    static func measureCodec() throws {
        let encoder = WireEncoder()
        let decoder = WireDecoder()
        let line = try encoder.encode(sampleEvent)
        let iterations = 200_000
        var clock = ContinuousClock.now
        for _ in 0..<iterations { _ = try encoder.encode(sampleEvent) }
        let encode = seconds(ContinuousClock.now - clock) / Double(iterations) * 1e6
        clock = ContinuousClock.now
        for _ in 0..<iterations { _ = try decoder.decode(line) }
        let decode = seconds(ContinuousClock.now - clock) / Double(iterations) * 1e6
        let format = "encode: %.2f µs/event, decode: %.2f µs/event (%d-byte line)"
        print(String(format: format, encode, decode, line.count))
    }

    static func seconds(_ duration: Duration) -> Double {
        duration.timeInterval
    }

    static func report(
        sent: UInt64, received: UInt64?, failed: UInt64, skipped: UInt64, sendingTime: Double, drainedTime: Double,
        badLines: Int, lineBytes: Int
    ) {
        func rate(_ count: UInt64, _ seconds: Double) -> String { String(format: "%.0f", Double(count) / seconds) }
        func fixed(_ value: Double) -> String { String(format: "%.2f", value) }
        let rss = peakResidentMegabytes().map { String(format: "%.1f MB", $0) } ?? "unknown"
        print("line size:        \(lineBytes) bytes")
        print("sent:             \(sent) events in \(fixed(sendingTime)) s (\(rate(sent, sendingTime))/s)")
        print("write failures:   \(failed)")
        print("not sent (socket full, producer fell behind): \(skipped)")
        if let received {
            let perSecond = rate(received, drainedTime)
            print("received:         \(received) (\(perSecond)/s until drained at \(fixed(drainedTime)) s)")
            print("lost:             \(Int64(sent) - Int64(received))")
            print("bad input:        \(badLines)")
        }
        print("peak RSS:         \(rss) (VmHWM, whole process)")
    }

    /// `VmHWM` from `/proc/self/status`, in MB (10^6 bytes); `nil` where there is no procfs.
    static func peakResidentMegabytes() -> Double? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let kilobytes = line.split(separator: " ").compactMap { Double($0) }.first
            return kilobytes.map { $0 * 1024 / 1_000_000 }
        }
        return nil
    }
}

extension Optional {
    fileprivate func unwrapOr(_ fallback: Wrapped) throws -> Wrapped { self ?? fallback }
}

/// Counters shared by every producer and the listener.
final class LoadCounters: Sendable {
    let sent = Atomic<UInt64>(0)
    let received = Atomic<UInt64>(0)
    let failed = Atomic<UInt64>(0)
    let skipped = Atomic<UInt64>(0)
}
