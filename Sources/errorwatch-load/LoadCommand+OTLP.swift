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

    /// The clients' plan: the signals asked for, one template per signal per client.
    struct OTLPPlan: Sendable {
        var signals: [OTLPLoadSignal]
        /// `templates[client][slot]`.
        var templates: [[OTLPLoadTemplate]]
        /// `counters[slot]`, shared by every client.
        var counters: [OTLPLoadCounters]
    }

    func makeOTLPPlan(clients: Int) throws -> OTLPPlan {
        let signals = try OTLPLoadSignal.parse(self.signals)
        let run = UInt32.random(in: 1...UInt32.max)
        let templates = (0..<clients).map { client in
            signals.map { OTLPLoadTemplate(signal: $0, items: batch, client: client, run: run) }
        }
        return OTLPPlan(signals: signals, templates: templates, counters: signals.map { _ in OTLPLoadCounters() })
    }

    /// What the in-process receiver took: events (errors among them) and spans.
    final class OTLPIngested: Sendable {
        let events = Atomic<UInt64>(0)
        let errors = Atomic<UInt64>(0)
        let spans = Atomic<UInt64>(0)
        let admissions = Atomic<UInt64>(0)

        /// The receiver's admission: every `every`th request refused (none for 0), to exercise the clients'
        /// counting of refusals (`503` over HTTP, `UNAVAILABLE` over gRPC).
        func admission(refusingEvery every: Int) -> @Sendable (Int) -> Bool {
            let every = UInt64(max(0, every))
            return { _ in
                let asked = self.admissions.add(1, ordering: .relaxed).newValue
                return every == 0 || !asked.isMultiple(of: every)
            }
        }

        func onSpans(_ count: Int) { spans.add(UInt64(count), ordering: .relaxed) }

        func onEvents(_ events: [WireEvent]) {
            self.events.add(UInt64(events.count), ordering: .relaxed)
            errors.add(UInt64(events.count(where: { $0.kind == .error })), ordering: .relaxed)
        }

        var counts: OTLPLoadTemplate.Yield {
            .init(
                events: Int(events.load(ordering: .relaxed)), errors: Int(errors.load(ordering: .relaxed)),
                spans: Int(spans.load(ordering: .relaxed)))
        }
    }

    func runOTLP() async throws {
        let clientCount = clients ?? producers
        guard clientCount > 0, batch > 0, rate > 0 else {
            throw ValidationError("--otlp needs at least one client, a batch and a rate")
        }
        let plan: OTLPPlan
        do {
            plan = try makeOTLPPlan(clients: clientCount)
        } catch let error as LoadError {
            throw ValidationError(error.description)
        }
        if grpc || connect?.hasPrefix("otlp-grpc:") == true {
            return try await runOTLPGRPC(clients: clientCount, plan: plan)
        }
        let ingested = OTLPIngested()
        var receiver: OTLPReceiver?
        let target: OTLPEndpoint
        if let connect {
            target = try OTLPEndpoint(parsing: connect)
        } else {
            let started = OTLPReceiver(
                endpoint: try OTLPEndpoint(parsing: listen == "tcp:0" ? "otlp:0" : listen),
                hasRoom: ingested.admission(refusingEvery: refuseEvery),
                onSpans: { _, spans in ingested.onSpans(spans.count) },
                onEvents: { _, events in ingested.onEvents(events) })
            try await started.start()
            receiver = started
            target = started.localEndpoint ?? started.endpoint
        }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: producerThreads)
        let batchesPerSecond = Double(rate) / Double(batch) / Double(clientCount)
        var running: [OTLPLoadClient] = []
        for index in 0..<clientCount {
            let request = OTLPLoadClient.Batch(
                templates: plan.templates[index], counters: plan.counters, client: index, gzip: gzip,
                host: String(target.url.dropFirst("http://".count)))
            running.append(
                try await OTLPLoadClient.connect(
                    to: target, group: group, batch: request, batchesPerSecond: batchesPerSecond))
        }
        printPlan(plan, clients: clientCount, target: "\(target)", transport: "OTLP/HTTP")
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
        try Self.reportOTLP(plan, elapsed: elapsed, received: receiver == nil ? nil : ingested.counts, sources: sources)
    }

    /// The plan, in one line per signal.
    func printPlan(_ plan: OTLPPlan, clients: Int, target: String, transport: String) {
        print(
            "\(clients) \(transport) clients connected to \(target); asking for \(rate) items/s for \(duration) s, "
                + "\(batch) items a request, \(plan.signals.map(\.rawValue).joined(separator: ", ")) in turn"
                + (gzip ? ", gzip'ed" : ""))
        for (slot, signal) in plan.signals.enumerated() {
            guard let template = plan.templates.first?[slot] else { continue }
            let zipped = gzip ? " (\(OTLPLogsRequestBody.gzip(template.body).count) gzip'ed)" : ""
            print(
                "  \(signal.rawValue): \(template.body.count) bytes\(zipped) a request; one maps to "
                    + "\(template.yield.events) events (\(template.yield.errors) errors), \(template.yield.spans) spans")
        }
    }

    /// Prints what the clients sent and what was answered, per signal, and what the dashboard must count; throws
    /// ``ExitCode`` 1 when an in-process receiver's counts differ from it.
    static func reportOTLP(
        _ plan: OTLPPlan, elapsed: Double, received: OTLPLoadTemplate.Yield?, sources: (rows: Int, events: UInt64)
    ) throws {
        func load(_ counter: borrowing Atomic<UInt64>) -> UInt64 { counter.load(ordering: .relaxed) }
        func perSecond(_ count: UInt64) -> String { String(format: "%.0f/s", Double(count) / elapsed) }
        print(String(format: "time:             %.2f s", elapsed))
        var expected = OTLPLoadTemplate.Yield()
        var exact = true
        var acceptedAll: UInt64 = 0
        for (slot, signal) in plan.signals.enumerated() {
            let counters = plan.counters[slot]
            let items = signal.items
            let accepted = load(counters.accepted)
            acceptedAll += accepted
            let requests = load(counters.answered200) + load(counters.answeredRefused) + load(counters.answeredOther)
            print("\(signal.rawValue):")
            print(
                "  requests:       \(requests) answered: \(load(counters.answered200)) OK, "
                    + "\(load(counters.answeredRefused)) refused (503/429, UNAVAILABLE), "
                    + "\(load(counters.answeredOther)) other; \(load(counters.connectionFailures)) connections lost")
            print("  accepted:       \(accepted) \(items) (\(perSecond(accepted)))")
            print("  rejected in OK: \(load(counters.partiallyRejected)) \(items) (partial_success)")
            print("  refused:        \(load(counters.refused)) \(items) (the dashboard was behind)")
            print("  errors:         \(load(counters.failed)) \(items) (other answers, lost connections)")
            print("  not sent:       \(load(counters.notSent)) \(items) (client waiting for an answer, or backing off)")
            let latencies = counters.latencies.withLock { $0.sorted() }
            if !latencies.isEmpty {
                func percentile(_ p: Double) -> String {
                    let micros = latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))]
                    return String(format: "%.1f ms", Double(micros) / 1000)
                }
                print("  answer time:    p50 \(percentile(0.5)), p99 \(percentile(0.99)), max \(percentile(1))")
            }
            // Every template is the same for all clients but its ids and times: one whole request yields the same.
            let yield = plan.templates.first?[slot].yield ?? .init()
            let whole = Int(load(counters.acceptedWhole))
            if load(counters.answered200) != UInt64(whole) || yield.rejected > 0 { exact = false }
            expected.events += whole * yield.events
            expected.errors += whole * yield.errors
            expected.spans += whole * yield.spans
        }
        print("accepted:         \(acceptedAll) items in all (\(perSecond(acceptedAll)))")
        if exact {
            print(
                "expect:           \(expected.events) events \(expected.errors) errors \(expected.spans) spans "
                    + "(what the accepted requests map to: the dashboard must count exactly these)")
        } else {
            print("expect:           unknown (some answers rejected part of their request)")
        }
        var lost = false
        if let received {
            print(
                "ingested:         \(received.events) events \(received.errors) errors \(received.spans) spans "
                    + "by the in-process receiver")
            print("sources:          \(sources.rows) rows counting \(sources.events) events")
            lost = !exact || received.events != expected.events || received.errors != expected.errors
                || received.spans != expected.spans || sources.events != UInt64(expected.events)
            print("check:            \(lost ? "MISMATCH" : "exact")")
        }
        let rss = peakResidentMegabytes().map { String(format: "%.1f MB", $0) } ?? "unknown"
        print("peak RSS:         \(rss) (VmHWM, whole process)")
        if lost { throw ExitCode(1) }
    }
}
