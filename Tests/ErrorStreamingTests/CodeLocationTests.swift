import ErrorStreamingTesting
import Foundation
import Synchronization
import Testing

@testable import ErrorStreaming

/// An error that says it has no location, whatever adds it.
struct Unlocated: LocatedError {
    var sourceLocation: CodeLocation? { nil }
}

/// Where events come from: `add`, the handler tree, `reportBug` and `retry` capture their caller's location.
struct CodeLocationTests {
    /// The events a stream holds once it is finished.
    private func events(of stream: ErrorStream, _ body: () -> Void) async -> [ErrorEvent] {
        let events = stream.events(bufferingPolicy: .unbounded)
        body()
        stream.finish()
        var received: [ErrorEvent] = []
        for await event in events { received.append(event) }
        return received
    }

    @Test func everyAddOverloadCapturesItsCaller() async {
        let stream = makeStream()
        var lines: [UInt] = []
        let received = await events(of: stream) {
            lines.append(#line + 1)
            stream.add(Other(index: 1))
            lines.append(#line + 1)
            stream.add(Other(index: 2), context: ErrorContext(source: "sync"))
            lines.append(#line + 1)
            stream.add(Other(index: 3), source: "auth.login", severity: .warning)
        }
        #expect(
            received.map(\.location)
                == lines.map { CodeLocation(file: #fileID, line: $0, function: #function) }.map(Optional.some))
        let location = received[0].location
        #expect(location?.file == "ErrorStreamingTests/CodeLocationTests.swift")
        #expect(location?.function == "everyAddOverloadCapturesItsCaller()")
        #expect(location?.description == "ErrorStreamingTests/CodeLocationTests.swift:\(lines[0]) in \(#function)")
    }

    @Test func addReturnsTheSequenceNumberAndNilOnceFinished() {
        let stream = makeStream()
        #expect(stream.add(Other(index: 1)) == 1)
        #expect(stream.add(Other(index: 2), context: .default) == 2)
        stream.finish()
        #expect(stream.add(Other(index: 3)) == nil)
        #expect(stream.statistics.addedAfterFinish == 1)
    }

    @Test func throwHandleAndDoGiveTheForwardedEventTheirCallersLocation() async {
        let stream = makeStream()
        let root = ErrorHandler(forwardingTo: stream)
        let leaf = root.catch { _ in }
        let events = stream.events(bufferingPolicy: .unbounded)
        let thrownAt: UInt = #line + 1
        leaf.throw(Other(index: 1))
        let handledAt: UInt = #line + 1
        await leaf.handle(Other(index: 2))
        let doneAt: UInt = #line + 1
        let value: Int? = leaf.do { throw Other(index: 3) }
        #expect(value == nil)
        stream.finish()
        var locations: [CodeLocation?] = []
        for await event in events { locations.append(event.location) }
        #expect(
            locations
                == [thrownAt, handledAt, doneAt].map {
                    Optional(CodeLocation(file: #fileID, line: $0, function: #function))
                })
    }

    @Test func reportBugsEventCarriesTheBugsLocation() async {
        let stream = makeStream()
        var line: UInt = 0
        let received = await events(of: stream) {
            line = #line + 1
            reportBug("cart without items", to: stream)
        }
        let expected = CodeLocation(file: #fileID, line: line, function: #function)
        #expect(received.map(\.location) == [Optional(expected)])
        let bug = received.first?.error as? BugReport
        #expect(bug?.file == #fileID && bug?.line == line && bug?.function == #function)
        #expect(bug?.sourceLocation == expected)
    }

    @Test func aLocatedErrorSpeaksForItselfWhereverItIsAdded() async {
        let stream = makeStream()
        let bug = BugReport("made elsewhere", file: "Shop/Cart.swift", line: 7, function: "checkout()")
        let received = await events(of: stream) {
            stream.add(bug)
            stream.add(Unlocated())
        }
        #expect(received.map(\.location) == [CodeLocation(file: "Shop/Cart.swift", line: 7, function: "checkout()"), nil])
    }

    @Test func retryAndReportingFailuresNameTheirCallers() async throws {
        let stream = makeStream()
        let events = stream.events(bufferingPolicy: .unbounded)
        let retriedAt: UInt = #line + 1
        let value = try await retry(maxAttempts: 2, backoff: .constant(.zero), reportingTo: stream) {
            if stream.statistics.added == 0 { throw Other(index: 1) }
            return 1
        }
        #expect(value == 1)
        let failures = AsyncStream<Result<Int, Other>> { continuation in
            continuation.yield(.failure(Other(index: 2)))
            continuation.finish()
        }
        let reportedAt: UInt = #line + 1
        for await _ in failures.reportingFailures(to: stream) {}
        stream.finish()
        var lines: [UInt?] = []
        for await event in events { lines.append(event.location?.line) }
        #expect(lines == [retriedAt, reportedAt])
    }

    @Test func anEventMadeDirectlyCarriesTheLiteralsItWasGiven() {
        let time = Date(timeIntervalSince1970: 0)
        let event = ErrorEvent(
            error: Other(index: 1), sequence: 1, timestamp: time, file: "Shop/Cart.swift", line: 9, function: "pay()")
        #expect(event.location == CodeLocation(file: "Shop/Cart.swift", line: 9, function: "pay()" as String))
        #expect(ErrorEvent(error: Other(index: 1), sequence: 1, timestamp: time).location == nil)
    }

    @Test func literalAndStringLocationsAreEqualWhenTheyReadTheSame() {
        let literal = CodeLocation(file: "Shop/Cart.swift", line: 3, function: "pay()" as StaticString)
        let string = CodeLocation(file: "Shop/Cart.swift", line: 3, function: "pay()" as String)
        #expect(literal == string)
        #expect(Set([literal, string]).count == 1)
        #expect(literal != CodeLocation(file: "Shop/Cart.swift", line: 4, function: "pay()" as String))
        #expect(literal != CodeLocation(file: "Shop/Cart.swift", line: 3, function: "" as String))
        #expect(CodeLocation(file: "a.swift", line: 1, function: "").description == "a.swift:1")
    }
}

struct StreamOnAddTests {
    /// `onAdd` sees every event synchronously, in order, on the adding thread: nothing is left to drain.
    @Test func onAddSeesEveryEventAsItIsAdded() {
        let seen = Mutex<[UInt64]>([])
        let stream = ErrorStream(onAdd: { event in seen.withLock { $0.append(event.sequence) } })
        var sequences: [UInt64] = []
        for _ in 0..<1_000 { if let sequence = stream.add(CocoaLikeError()) { sequences.append(sequence) } }
        #expect(seen.withLock { $0 } == sequences)
        stream.finish()
        stream.add(CocoaLikeError())
        #expect(seen.withLock { $0.count } == 1_000, "an event added after finish is not an event")
    }

    struct CocoaLikeError: Error {}
}
