import Testing

@testable import ErrorStreaming

/// `stream.handlingReports(bufferingPolicy:)`: registration, policies, cancellation and concurrent reporters.
struct HandlingReportsSubscriptionTests {
    private func report(_ sequence: UInt64) -> HandlingReport {
        HandlingReport(sequence: sequence, path: ["node \(sequence)"], outcome: .passed, handled: false)
    }

    private func drain(_ reports: ErrorStream.HandlingReports) async -> (sequences: [UInt64], dropped: UInt64) {
        var iterator = reports.makeAsyncIterator()
        var sequences: [UInt64] = []
        while let report = await iterator.next() { sequences.append(report.sequence) }
        return (sequences, iterator.droppedCount)
    }

    @Test func aListenerIsRegisteredWhenCreatedAndEveryListenerGetsEveryReport() async {
        let stream = makeStream()
        let first = stream.handlingReports()
        let second = stream.handlingReports(bufferingPolicy: .unbounded)
        stream.report(report(1))
        let late = stream.handlingReports()
        stream.report(report(2))
        stream.finish()
        #expect(await drain(first).sequences == [1, 2])
        #expect(await drain(second).sequences == [1, 2])
        #expect(await drain(late).sequences == [2])
        #expect(stream.reportListenerCount == 0)
    }

    @Test func boundedPoliciesKeepTheNewestOrTheOldestAndCountTheRest() async {
        let stream = makeStream()
        let newest = stream.handlingReports(bufferingPolicy: .bufferingNewest(2))
        let oldest = stream.handlingReports(bufferingPolicy: .bufferingOldest(2))
        let none = stream.handlingReports(bufferingPolicy: .bufferingNewest(0))
        for sequence in 1...5 { stream.report(report(UInt64(sequence))) }
        stream.finish()
        let (kept, dropped) = await drain(newest)
        #expect(kept == [4, 5] && dropped == 3)
        let (keptOldest, droppedOldest) = await drain(oldest)
        #expect(keptOldest == [1, 2] && droppedOldest == 3)
        let (keptNone, droppedNone) = await drain(none)
        #expect(keptNone.isEmpty && droppedNone == 5)
    }

    @Test func aWaitingListenerIsResumedByAReportAndByFinish() async {
        let stream = makeStream()
        let reports = stream.handlingReports()
        let task = Task { await drain(reports).sequences }
        #expect(await eventually { stream.reportWaiterCount == 1 })
        stream.report(report(7))
        #expect(await eventually { stream.reportWaiterCount == 1 })
        stream.finish()
        #expect(await task.value == [7])
        stream.report(report(8))  // ignored after finish
        #expect(await drain(stream.handlingReports()).sequences.isEmpty)
    }

    @Test func cancellingOrDroppingAListenerUnregistersIt() async {
        let stream = makeStream()
        let reports = stream.handlingReports()
        let task = Task { await drain(reports).sequences }
        #expect(await eventually { stream.reportWaiterCount == 1 })
        task.cancel()
        #expect(await task.value.isEmpty)
        #expect(stream.reportListenerCount == 0 && stream.reportWaiterCount == 0)
        _ = stream.handlingReports()
        #expect(stream.reportListenerCount == 0)
        do {
            let kept = stream.handlingReports()
            #expect(stream.reportListenerCount == 1)
            withExtendedLifetime(kept) {}
        }
        #expect(stream.reportListenerCount == 0)
    }

    @Test func breakUnregisters() async {
        let stream = makeStream()
        let reports = stream.handlingReports()
        stream.report(report(1))
        stream.report(report(2))
        for await _ in reports { break }
        #expect(stream.reportListenerCount == 0)
    }

    @Test func concurrentReportersLoseNothingUnderAnUnboundedListener() async {
        let stream = makeStream()
        let reports = stream.handlingReports(bufferingPolicy: .unbounded)
        let consumer = Task { await drain(reports) }
        await onThreads(4) { thread in
            for index in 0..<2_000 {
                stream.report(
                    HandlingReport(
                        sequence: UInt64(thread * 2_000 + index), path: [], outcome: .unhandled, handled: false))
            }
        }
        stream.finish()
        let (sequences, dropped) = await consumer.value
        #expect(dropped == 0)
        #expect(Set(sequences) == Set(0..<8_000))
        #expect(sequences.count == 8_000)
    }
}
