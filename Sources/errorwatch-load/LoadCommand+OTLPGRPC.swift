import ArgumentParser
import ErrorWatchIngest
import ErrorWatchWire
import Foundation
import Synchronization

/// `--otlp --grpc`: OTLP/gRPC clients calling `LogsService/Export` with protobuf log batches, against an in-process
/// ``OTLPGRPCReceiver`` or a running `errorwatch --listen otlp-grpc:PORT`. The same batches, pacing and counters as
/// the OTLP/HTTP clients, so the two transports' rates compare.
extension LoadCommand {
    func runOTLPGRPC(clients clientCount: Int) async throws {
        let received = Atomic<UInt64>(0)
        let admissions = Atomic<UInt64>(0)
        var receiver: OTLPGRPCReceiver?
        let target: OTLPEndpoint
        if let connect {
            target = try OTLPEndpoint(parsing: connect)
        } else {
            let every = UInt64(max(0, refuseEvery))
            var endpoint = try OTLPEndpoint(parsing: listen == "tcp:0" ? "otlp-grpc:0" : listen)
            endpoint.transport = .grpc
            let started = OTLPGRPCReceiver(
                endpoint: endpoint,
                hasRoom: { _ in
                    // Every --refuse-every'th call is answered UNAVAILABLE, to exercise the clients' counting.
                    let asked = admissions.add(1, ordering: .relaxed).newValue
                    return every == 0 || !asked.isMultiple(of: every)
                },
                onEvents: { _, events in received.add(UInt64(events.count), ordering: .relaxed) })
            try await started.start()
            receiver = started
            target = started.localEndpoint ?? started.endpoint
        }
        let counters = OTLPLoadCounters()
        let interval = Duration.seconds(Double(batch) * Double(clientCount) / Double(rate))
        var exporters: [(OTLPGRPCExporter, [UInt8])] = []
        var bodyBytes = 0
        for index in 0..<clientCount {
            let body = OTLPLogsRequestBody.protobuf(
                service: "load", instance: "client-\(index)", scope: "checkout",
                records: Self.otlpRecords(count: batch, client: index))
            bodyBytes = body.count
            exporters.append((try OTLPGRPCExporter(host: target.host, port: target.port, gzip: gzip), body))
        }
        print(
            "\(clientCount) OTLP/gRPC clients calling \(target); batches of \(batch) records (\(bodyBytes) bytes"
                + (gzip ? ", gzip" : "") + "); asking for \(rate) records/s for \(duration) s")
        let records = UInt64(batch)
        let begin = ContinuousClock.now
        let stop = begin + .seconds(duration)
        await withTaskGroup(of: Void.self) { group in
            for (exporter, _) in exporters {
                group.addTask { try? await exporter.run() }
            }
            await withTaskGroup(of: Void.self) { clients in
                for (index, (exporter, body)) in exporters.enumerated() {
                    clients.addTask {
                        // Spread the clients' first calls over one interval.
                        var due = begin + interval * (Double(index) / Double(clientCount))
                        var resumeAt = begin
                        while due < stop {
                            // Pacing a load generator, not waiting for an outcome.
                            try? await Task.sleep(until: due, clock: .continuous)
                            if due < resumeAt {
                                counters.notSent.add(records, ordering: .relaxed)
                                due += interval
                                continue
                            }
                            let sent = ContinuousClock.now
                            let answer: OTLPGRPCExporter.Answer
                            do {
                                answer = try await exporter.export(.logs, body: body)
                            } catch {
                                answer = .failed(code: "TRANSPORT", message: "\(error)", retryAfter: nil)
                            }
                            let took = ContinuousClock.now - sent
                            let micros = UInt32(clamping: Int64((took / .microseconds(1)).rounded()))
                            counters.latencies.withLock { $0.append(micros) }
                            switch answer {
                            case .ok(let response):
                                counters.answered200.add(1, ordering: .relaxed)
                                let answered = OTLPLogsRequestBody.rejectedLogRecords(inResponse: response) ?? 0
                                let rejected = UInt64(max(0, answered))
                                counters.accepted.add(records - min(records, rejected), ordering: .relaxed)
                                counters.partiallyRejected.add(rejected, ordering: .relaxed)
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
                                counters.notSent.add(records, ordering: .relaxed)
                                due += interval
                            }
                        }
                    }
                }
            }
            for (exporter, _) in exporters { exporter.close() }
        }
        let elapsed = Self.seconds(ContinuousClock.now - begin)
        let rows = receiver?.sources ?? []
        let sources = (rows: rows.count, events: rows.reduce(0) { $0 + $1.events })
        await receiver?.shutdown()
        let accepted = counters.accepted.load(ordering: .relaxed)
        let ingested = receiver == nil ? nil : received.load(ordering: .relaxed)
        Self.reportOTLP(counters, elapsed: elapsed, received: ingested, sources: sources)
        if let ingested, ingested != accepted || sources.events != accepted { throw ExitCode(1) }
    }
}
