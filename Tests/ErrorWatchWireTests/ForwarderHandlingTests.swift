import ErrorStreaming
import Foundation
import NIOCore
import Testing

@testable import ErrorWatchWire
import ErrorWatchIngest
import IngestTestSupport

/// `ErrorForwarder` forwards handling reports as `handling` lines, each after the `error` line it is about.
@Suite(.timeLimit(.minutes(5)))
struct ForwarderHandlingTests {
    let source = SourceInfo(serviceName: "shop", pid: 321, host: "test-host")

    private func line(_ text: String) -> [UInt8] { Array(text.utf8) }

    private func queued(_ state: ForwarderState) -> [String] {
        state.queue.map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func aHandlingLineWaitsUntilItsErrorLineIsQueuedOrSkipped() {
        var state = ForwarderState(capacity: 10, backoff: .constant(.milliseconds(1)))
        state.forwardedThrough = 4  // the subscription started at 5
        _ = state.enqueueHandling(line("h3"), sequence: 3)  // about an event from before: at once
        _ = state.enqueueHandling(line("h6"), sequence: 6)
        _ = state.enqueueHandling(line("h5"), sequence: 5)
        #expect(queued(state) == ["h3"] && state.parked.count == 2)
        _ = state.enqueueEvent(line("e5"), sequence: 5)
        #expect(queued(state) == ["h3", "e5", "h5"])
        _ = state.enqueueEvent(nil, sequence: 6)  // could not be encoded: counted, and h6 may go
        #expect(queued(state) == ["h3", "e5", "h5", "h6"] && state.statistics.dropped == 1)
        _ = state.enqueueHandling(line("h7"), sequence: 7)
        _ = state.enqueueEvent(line("e9"), sequence: 9)  // 7 and 8 were dropped by the stream's buffer
        _ = state.enqueueHandling(line("h10"), sequence: 10)
        #expect(queued(state) == ["h3", "e5", "h5", "h6", "e9", "h7"])
        _ = state.eventsEnded()  // nothing will come for 10 any more
        #expect(queued(state) == ["h3", "e5", "h5", "h6", "e9", "h7", "h10"] && state.parked.isEmpty)
    }

    @Test func parkedLinesAreBoundedAndCountedWhenDropped() {
        var state = ForwarderState(capacity: 2, backoff: .constant(.milliseconds(1)))
        for sequence in 1...3 { _ = state.enqueueHandling(line("h\(sequence)"), sequence: UInt64(sequence)) }
        #expect(state.parked.count == 2 && state.statistics.dropped == 1)
        _ = state.beginShutdown()
        state.finishShutdown()
        #expect(state.parked.isEmpty && state.statistics.dropped == 3)
    }

    @Test func everyHandlingEventArrivesAfterItsErrorEvent() async throws {
        let path = try temporaryDirectory() + "/handling.sock"
        let probe = FeedProbe()
        let listener = try await startListener(.unix(path: path), probe: probe)
        let stream = ErrorStream()
        let forwarder = ErrorForwarder(endpoint: .unix(path: path), source: source, stream: stream)
        forwarder.start()
        let root = ErrorHandler(forwardingTo: stream)
        let screen = root.catch(name: "screen") { error in
            if error is CheckoutDeclined { return }
            throw error
        }
        stream.add(URLError(.timedOut))  // an error no tree handled: no handling line
        let thrownAt = #line + 1
        screen.throw(CheckoutDeclined(), context: ErrorContext(source: "checkout"))
        try await probe.until { $0.events.count == 3 }
        let events = probe.events.map(\.1)
        #expect(events.map(\.kind) == [.error, .error, .handling])
        #expect(events.map(\.sequence) == [1, 2, 2])
        #expect(events[1].codeFilePath == "ErrorWatchWireTests/ForwarderHandlingTests.swift")
        #expect(events[1].codeLineNumber == thrownAt)
        let handling = events[2]
        #expect(handling.handlingPath == ["screen"] && handling.handlingOutcome == "consumed by screen")
        #expect(handling.handlingHandled == true && handling.serviceName == "shop" && handling.pid == 321)

        // Many, from many tasks: each handling line still comes after its error line.
        let count = 300
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<count {
                group.addTask {
                    if index.isMultiple(of: 2) {
                        screen.throw(CheckoutDeclined())
                    } else {
                        await screen.handle(URLError(.notConnectedToInternet))
                    }
                }
            }
        }
        try await probe.until { $0.events.count == 3 + 2 * count }
        var errorIndex: [UInt64: Int] = [:]
        for (index, event) in probe.events.map(\.1).enumerated() {
            let sequence = try #require(event.sequence)
            switch event.kind {
            case .error: errorIndex[sequence] = index
            case .handling: #expect(errorIndex[sequence].map { $0 < index } == true, "handling \(sequence) came first")
            default: Issue.record("unexpected \(event.kind)")
            }
        }
        await forwarder.shutdown()
        #expect(forwarder.statistics.dropped == 0 && forwarder.statistics.sent == UInt64(3 + 2 * count))
        await listener.shutdown()
    }
}
