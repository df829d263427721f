import ArgumentParser
import ErrorWatchIngest
import ErrorWatchWire
import Foundation

/// `--otlp --grpc`: OTLP/gRPC clients calling the collector services' `Export` (`LogsService`, `TraceService`,
/// `MetricsService`, per `--signals`), against an in-process ``OTLPGRPCReceiver`` or a running
/// `errorwatch --listen otlp-grpc:PORT`. The same bodies, pacing and counters as the OTLP/HTTP clients, so the two
/// transports' rates compare.
extension LoadCommand {
    func runOTLPGRPC(clients clientCount: Int, plan: OTLPPlan) async throws {
        let ingested = OTLPIngested()
        var receiver: OTLPGRPCReceiver?
        let target: OTLPEndpoint
        if let connect {
            target = try OTLPEndpoint(parsing: connect)
        } else {
            var endpoint = try OTLPEndpoint(parsing: listen == "tcp:0" ? "otlp-grpc:0" : listen)
            endpoint.transport = .grpc
            let started = OTLPGRPCReceiver(
                endpoint: endpoint,
                hasRoom: ingested.admission(refusingEvery: refuseEvery),
                onSpans: { _, spans in ingested.onSpans(spans.count) },
                onEvents: { _, events in ingested.onEvents(events) })
            try await started.start()
            receiver = started
            target = started.localEndpoint ?? started.endpoint
        }
        let interval = Duration.seconds(Double(batch) * Double(clientCount) / Double(rate))
        var exporters: [OTLPGRPCExporter] = []
        for _ in 0..<clientCount {
            exporters.append(try OTLPGRPCExporter(host: target.host, port: target.port, gzip: gzip))
        }
        printPlan(plan, clients: clientCount, target: "\(target)", transport: "OTLP/gRPC")
        let begin = ContinuousClock.now
        let stop = begin + .seconds(duration)
        await withTaskGroup(of: Void.self) { group in
            for exporter in exporters {
                group.addTask { try? await exporter.run() }
            }
            await withTaskGroup(of: Void.self) { clients in
                for (index, exporter) in exporters.enumerated() {
                    let request = OTLPLoadClient.Batch(
                        templates: plan.templates[index], counters: plan.counters, client: index, gzip: false,
                        host: "")
                    clients.addTask {
                        var sequence: Int64 = 0
                        // Spread the clients' first calls over one interval.
                        var due = begin + interval * (Double(index) / Double(clientCount))
                        var resumeAt = begin
                        while due < stop {
                            // Pacing a load generator, not waiting for an outcome.
                            try? await Task.sleep(until: due, clock: .continuous)
                            if due < resumeAt {
                                request.notSent(sequence, sequence + 1)
                                sequence += 1
                                due += interval
                                continue
                            }
                            // gzip is the transport's message compression here, not the body's.
                            let (slot, body) = request.request(sequence)
                            sequence += 1
                            let counters = plan.counters[slot]
                            let template = plan.templates[index][slot]
                            let records = UInt64(template.items)
                            let sent = ContinuousClock.now
                            let answer: OTLPGRPCExporter.Answer
                            do {
                                answer = try await exporter.export(template.signal.service, body: body)
                            } catch {
                                answer = .failed(code: "TRANSPORT", message: "\(error)", retryAfter: nil)
                            }
                            let took = ContinuousClock.now - sent
                            let micros = UInt32(clamping: Int64((took / .microseconds(1)).rounded()))
                            counters.latencies.withLock { $0.append(micros) }
                            switch answer {
                            case .ok(let response):
                                counters.answered200.add(1, ordering: .relaxed)
                                let answered = template.signal.rejected(inResponse: response) ?? 0
                                let rejected = min(records, UInt64(max(0, answered)))
                                counters.accepted.add(records - rejected, ordering: .relaxed)
                                counters.partiallyRejected.add(rejected, ordering: .relaxed)
                                if rejected == 0 { counters.acceptedWhole.add(1, ordering: .relaxed) }
                            case .failed(let code, _, let retry)
                            where code == "UNAVAILABLE" || code == "RESOURCE_EXHAUSTED":
                                counters.answeredRefused.add(1, ordering: .relaxed)
                                counters.refused.add(records, ordering: .relaxed)
                                if let retry { resumeAt = ContinuousClock.now + retry }
                            case .failed:
                                counters.answeredOther.add(1, ordering: .relaxed)
                                counters.failed.add(records, ordering: .relaxed)
                            }
                            // Batches that fell due while this one was in flight are not sent (counted).
                            due += interval
                            while due < ContinuousClock.now, due < stop {
                                request.notSent(sequence, sequence + 1)
                                sequence += 1
                                due += interval
                            }
                        }
                    }
                }
            }
            for exporter in exporters { exporter.close() }
        }
        let elapsed = Self.seconds(ContinuousClock.now - begin)
        let rows = receiver?.sources ?? []
        let sources = (rows: rows.count, events: rows.reduce(0) { $0 + $1.events })
        await receiver?.shutdown()
        try Self.reportOTLP(plan, elapsed: elapsed, received: receiver == nil ? nil : ingested.counts, sources: sources)
    }
}
