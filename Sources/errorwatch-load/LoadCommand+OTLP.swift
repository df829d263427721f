import ArgumentParser
import ErrorWatchIngest
import ErrorWatchWire
import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// `--otlp`: OTLP/HTTP clients posting protobuf log batches, against an in-process ``OTLPReceiver`` or a running
/// `errorwatch --listen otlp:PORT`.
extension LoadCommand {
    /// Records of each batch that are exceptions: every other one.
    static func otlpRecords(count: Int, client: Int) -> [OTLPLogsRequestBody.Record] {
        let types = ["Shop.PaymentError", "Shop.InventoryConflict", "DB.Deadlock", "HTTP.Timeout", "Auth.Expired"]
        return (0..<count).map { index in
            guard index.isMultiple(of: 2) else {
                return OTLPLogsRequestBody.Record(
                    body: "GET /products answered 200 in \(index % 40 + 3) ms", severityNumber: 9,
                    attributes: ["http.route": "/products", "client": String(client)])
            }
            let type = types[(index / 2) % types.count]
            return OTLPLogsRequestBody.Record(
                body: "checkout failed", severityNumber: 17, attributes: ["order": "A-\(index)"],
                exception: .init(
                    type: type, message: "order A-\(index) failed: \(type) from the payment gateway",
                    stacktrace: """
                        Traceback (most recent call last):
                          File "shop/checkout.py", line 88, in pay
                            gateway.charge(order)
                          File "shop/gateway.py", line 41, in charge
                            raise \(type)(order.id)
                        """))
        }
    }

    func runOTLP() async throws {
        let clientCount = clients ?? producers
        guard clientCount > 0, batch > 0, rate > 0 else {
            throw ValidationError("--otlp needs at least one client, a batch and a rate")
        }
        if grpc || connect?.hasPrefix("otlp-grpc:") == true { return try await runOTLPGRPC(clients: clientCount) }
        let received = Atomic<UInt64>(0)
        let admissions = Atomic<UInt64>(0)
        var receiver: OTLPReceiver?
        let target: OTLPEndpoint
        if let connect {
            target = try OTLPEndpoint(parsing: connect)
        } else {
            let every = UInt64(max(0, refuseEvery))
            let started = OTLPReceiver(
                endpoint: try OTLPEndpoint(parsing: listen == "tcp:0" ? "otlp:0" : listen),
                hasRoom: { _ in
                    // Every --refuse-every'th request is answered 503, to exercise the clients' counting.
                    let asked = admissions.add(1, ordering: .relaxed).newValue
                    return every == 0 || !asked.isMultiple(of: every)
                },
                onEvents: { _, events in received.add(UInt64(events.count), ordering: .relaxed) })
            try await started.start()
            receiver = started
            target = started.localEndpoint ?? started.endpoint
        }
        let counters = OTLPLoadCounters()
        let group = MultiThreadedEventLoopGroup(numberOfThreads: producerThreads)
        let batchesPerSecond = Double(rate) / Double(batch) / Double(clientCount)
        var running: [OTLPLoadClient] = []
        var bodyBytes = 0
        var sentBytes = 0
        for index in 0..<clientCount {
            let body = OTLPLogsRequestBody.protobuf(
                service: "load", instance: "client-\(index)", scope: "checkout",
                records: Self.otlpRecords(count: batch, client: index))
            let sent = gzip ? OTLPLogsRequestBody.gzip(body) : body
            (bodyBytes, sentBytes) = (body.count, sent.count)
            let request = OTLPLoadClient.Batch(
                body: ByteBuffer(bytes: sent), records: batch, gzip: gzip,
                host: String(target.url.dropFirst("http://".count)))
            running.append(
                try await OTLPLoadClient.connect(
                    to: target, group: group, batch: request, batchesPerSecond: batchesPerSecond, counters: counters))
        }
        let encoding = gzip ? "\(sentBytes) bytes gzip'ed from \(bodyBytes)" : "\(bodyBytes) bytes"
        print(
            "\(clientCount) OTLP clients connected to \(target); batches of \(batch) records (\(encoding)); "
                + "asking for \(rate) records/s for \(duration) s")
        let start = NIODeadline.now() + .milliseconds(20)
        let window = OTLPLoadClient.Start(start: start, stop: start + TimeAmount(.seconds(duration)))
        let begin = ContinuousClock.now
        for client in running { client.start(window) }
        for client in running { try? await client.finished.get() }
        let elapsed = Self.seconds(ContinuousClock.now - begin)
        for client in running { try? await client.channel.close() }
        let rows = receiver?.sources ?? []
        let sources = (rows: rows.count, events: rows.reduce(0) { $0 + $1.events })
        await receiver?.shutdown()
        try await group.shutdownGracefully()

        let accepted = counters.accepted.load(ordering: .relaxed)
        let ingested = receiver == nil ? nil : received.load(ordering: .relaxed)
        Self.reportOTLP(counters, elapsed: elapsed, received: ingested, sources: sources)
        if let ingested, ingested != accepted || sources.events != accepted { throw ExitCode(1) }
    }

    static func reportOTLP(
        _ counters: OTLPLoadCounters, elapsed: Double, received: UInt64?, sources: (rows: Int, events: UInt64)
    ) {
        func load(_ counter: borrowing Atomic<UInt64>) -> UInt64 { counter.load(ordering: .relaxed) }
        func perSecond(_ count: UInt64) -> String { String(format: "%.0f/s", Double(count) / elapsed) }
        let accepted = load(counters.accepted)
        let requests = load(counters.answered200) + load(counters.answeredRefused) + load(counters.answeredOther)
        print(String(format: "time:             %.2f s", elapsed))
        print(
            "requests:         \(requests) answered: \(load(counters.answered200)) 200, "
                + "\(load(counters.answeredRefused)) 503/429, \(load(counters.answeredOther)) other; "
                + "\(load(counters.connectionFailures)) connections lost")
        print("accepted:         \(accepted) records in 200s (\(perSecond(accepted)))")
        print("rejected in 200s: \(load(counters.partiallyRejected)) records (partial_success)")
        print("refused:          \(load(counters.refused)) records in 503/429 answers")
        print("errors:           \(load(counters.failed)) records (other statuses, lost connections)")
        print(
            "not sent:         \(load(counters.notSent)) records (client waiting for an answer, or after Retry-After)")
        let latencies = counters.latencies.withLock { $0.sorted() }
        if !latencies.isEmpty {
            func percentile(_ p: Double) -> String {
                let micros = latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))]
                return String(format: "%.1f ms", Double(micros) / 1000)
            }
            print("answer time:      p50 \(percentile(0.5)), p99 \(percentile(0.99)), max \(percentile(1))")
        }
        if let received {
            print("ingested:         \(received) records by the in-process receiver")
            print("sources:          \(sources.rows) rows counting \(sources.events) events")
            print("lost:             \(Int64(accepted) - Int64(received)) (accepted but not ingested)")
        }
        let rss = peakResidentMegabytes().map { String(format: "%.1f MB", $0) } ?? "unknown"
        print("peak RSS:         \(rss) (VmHWM, whole process)")
    }
}
