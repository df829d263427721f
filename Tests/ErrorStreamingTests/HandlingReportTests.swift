import Synchronization
import Testing

@testable import ErrorStreaming

/// An error type that describes itself, so its values have no case name to print.
enum Described: Error, Equatable, CustomStringConvertible {
    case tooLate
    var description: String { "too late" }
}

/// An error that cannot be compared: two values of it count as the same error.
struct Opaque: Error {}

/// What a finished stream's reports listener received, and the events, joined by sequence.
private func reports(
    of stream: ErrorStream, _ body: () async -> Void
) async -> (reports: [HandlingReport], events: [UInt64: ErrorEvent]) {
    let reports = stream.handlingReports(bufferingPolicy: .unbounded)
    let events = stream.events(bufferingPolicy: .unbounded)
    await body()
    stream.finish()
    var received: [HandlingReport] = []
    for await report in reports { received.append(report) }
    var bySequence: [UInt64: ErrorEvent] = [:]
    for await event in events { bySequence[event.sequence] = event }
    return (received, bySequence)
}

/// Records what `finally` was told.
final class FinallyLog: Sendable {
    private let values = Mutex<[Bool]>([])
    var all: [Bool] { values.withLock { $0 } }
    var finally: @Sendable (Bool) -> Void { { handled in self.values.withLock { $0.append(handled) } } }
}

struct HandlingReportTests {
    // MARK: Names

    @Test func nodesAreNamedAsGivenElseByTheirFilterElseByWhereTheyWereMade() {
        let root = ErrorHandler()
        let line = #line + 1
        let unnamed = root.catch { _ in }
        let asyncUnnamed = root.catch { (_: any Error) async in }
        let listener = root.listen { _, _ in }
        #expect(root.name == "root")
        #expect(unnamed.name == "ErrorStreamingTests/HandlingReportTests.swift:\(line)")
        #expect(asyncUnnamed.name == "ErrorStreamingTests/HandlingReportTests.swift:\(line + 1)")
        #expect(listener.name == "ErrorStreamingTests/HandlingReportTests.swift:\(line + 2)")
        #expect(root.catch(SignInError.self) { _ in }.name == "SignInError")
        #expect(root.catch(SignInError.self) { (_: SignInError) async in }.name == "SignInError")
        #expect(root.catch(SignInError.sessionExpired) {}.name == "SignInError.sessionExpired")
        #expect(root.catch(Described.tooLate) {}.name == "Described.too late")
        #expect(root.catch(RewrittenError(reason: "x")) {}.name == #"RewrittenError(reason: "x")"#)
        #expect(root.listen(SignInError.self) { _ in }.name == "SignInError")
        #expect(root.catch(SignInError.self, name: "login") { _ in }.name == "login")
        #expect(root.catch(name: "screen") { _ in }.name == "screen")
        #expect(ErrorHandler(name: "app root").name == "app root")
        let rootLine = #line + 1
        let anonymous = ErrorHandler(forwardingTo: makeStream(), name: nil)
        #expect(anonymous.name == "ErrorStreamingTests/HandlingReportTests.swift:\(rootLine)")
    }

    // MARK: Outcomes

    @Test func consumedNamesTheNodeWhoseActionReturned() async {
        let stream = makeStream()
        let finally = FinallyLog()
        let root = ErrorHandler(forwardingTo: stream)
        let app = root.catch(name: "app") { error in throw error }
        let login = app.catch(SignInError.self) { _ in }
        let screen = login.catch(name: "screen") { _ in Issue.record("below the consumer") }
        let (received, _) = await reports(of: stream) {
            screen.throw(SignInError.wrongPassword, finally: finally.finally)
        }
        #expect(
            received == [
                HandlingReport(
                    sequence: 1, path: ["app", "SignInError"], outcome: .consumed(by: "SignInError"), handled: true)
            ])
        #expect(finally.all == [true])
    }

    @Test func rewrittenNamesTheLastRewriteAndSaysWhetherItWasThenConsumed() async {
        let stream = makeStream()
        let finally = FinallyLog()
        let root = ErrorHandler(forwardingTo: stream)
        let app = root.catch(name: "app") { error in
            guard case SignInError.offline = error else { throw error }
            throw RewrittenError(reason: "offline")
        }
        let friendly = app.catch(RewrittenError.self, name: "friendly") { error in
            guard error.reason == "twice" else { return }
            throw SignInError.wrongPassword
        }
        let (received, _) = await reports(of: stream) {
            friendly.throw(SignInError.offline, finally: finally.finally)  // rewritten, then consumed below
            friendly.throw(RewrittenError(reason: "twice"), finally: finally.finally)  // rewritten at the bottom
        }
        #expect(
            received == [
                HandlingReport(
                    sequence: 1, path: ["app", "friendly"], outcome: .rewritten(by: "app", to: "RewrittenError"),
                    handled: true),
                HandlingReport(
                    sequence: 2, path: ["app", "friendly"], outcome: .rewritten(by: "friendly", to: "SignInError"),
                    handled: false),
            ])
        #expect(finally.all == [true, false])
    }

    @Test func passedMeansActionsRanAndLetItThrough() async {
        let stream = makeStream()
        let finally = FinallyLog()
        let root = ErrorHandler(forwardingTo: stream)
        let app = root.catch(name: "app") { error in throw error }
        let typed = app.catch(Opaque.self) { _ in throw Opaque() }  // another value, but not comparable: the same
        let session = typed.catch(SignInError.self) { error in throw error }
        let leaf = session.listen { _, _ in }
        let (received, _) = await reports(of: stream) {
            leaf.throw(SignInError.offline, finally: finally.finally)
            leaf.throw(Opaque(), finally: finally.finally)
        }
        #expect(
            received == [
                HandlingReport(sequence: 1, path: ["app", "SignInError"], outcome: .passed, handled: false),
                HandlingReport(sequence: 2, path: ["app", "Opaque"], outcome: .passed, handled: false),
            ])
        #expect(finally.all == [false, false])
    }

    @Test func unhandledMeansNoActionRanAndThePathIsEmpty() async {
        let stream = makeStream()
        let finally = FinallyLog()
        let root = ErrorHandler(forwardingTo: stream)
        let typed = root.catch(SignInError.self) { _ in Issue.record("not a sign-in error") }
        let value = typed.catch(RewrittenError(reason: "other")) { Issue.record("not this value") }
        let leaf = value.listen(RewrittenError.self) { _ in }
        let (received, _) = await reports(of: stream) {
            leaf.throw(RewrittenError(reason: "mine"), finally: finally.finally)
            root.throw(SignInError.offline, finally: finally.finally)  // the root itself has no action
        }
        #expect(
            received == [
                HandlingReport(sequence: 1, path: [], outcome: .unhandled, handled: false),
                HandlingReport(sequence: 2, path: [], outcome: .unhandled, handled: false),
            ])
        #expect(finally.all == [false, false])
    }

    @Test func anEqualValueThrownOnPassesAndADifferentOneRewrites() async {
        let stream = makeStream()
        let root = ErrorHandler(forwardingTo: stream)
        let node = root.catch(name: "mapper") { error in
            if case SignInError.sessionExpired = error { throw SignInError.wrongPassword }
            throw SignInError.offline
        }
        let (received, _) = await reports(of: stream) {
            node.throw(SignInError.offline)
            node.throw(SignInError.sessionExpired)
        }
        #expect(received.map(\.outcome) == [.passed, .rewritten(by: "mapper", to: "SignInError")])
    }

    // MARK: Sequences and asynchrony

    @Test func theReportsSequenceIsTheForwardedEventsSequence() async {
        let stream = makeStream()
        let root = ErrorHandler(forwardingTo: stream)
        let screen = root.catch(name: "screen") { _ in }
        let (received, events) = await reports(of: stream) {
            stream.add(Other(index: 1))
            stream.add(Other(index: 2))
            screen.throw(SignInError.offline, context: ErrorContext(source: "auth"))
            stream.add(Other(index: 3))
            screen.throw(SignInError.wrongPassword)
        }
        #expect(received.map(\.sequence) == [3, 5])
        #expect(received.map { events[$0.sequence]?.error as? SignInError } == [.offline, .wrongPassword])
        #expect(events[3]?.source == "auth")
    }

    @Test func anAsyncDescentReportsWhenItEndsInItsTask() async {
        let stream = makeStream()
        let reports = stream.handlingReports()
        let root = ErrorHandler(forwardingTo: stream)
        let app = root.catch(name: "app") { error in throw error }
        let slow = app.catch(name: "slow") { (error: any Error) async throws in
            await Task.yield()
            throw RewrittenError(reason: "\(error)")
        }
        let leaf = slow.catch(RewrittenError.self) { (_: RewrittenError) async in }
        let handled = await withCheckedContinuation { continuation in
            leaf.throw(SignInError.offline, finally: { continuation.resume(returning: $0) })
        }
        #expect(handled)
        var iterator = reports.makeAsyncIterator()
        let report = await iterator.next()  // reported before `finally` was told
        #expect(
            report
                == HandlingReport(
                    sequence: 1, path: ["app", "slow", "RewrittenError"],
                    outcome: .rewritten(by: "slow", to: "RewrittenError"), handled: true))
    }

    @Test func handleAndDoReportToo() async {
        let stream = makeStream()
        let root = ErrorHandler(forwardingTo: stream)
        let screen = root.catch(SignInError.self, name: "screen") { (_: SignInError) async in }
        let (received, _) = await reports(of: stream) {
            #expect(await screen.handle(SignInError.offline))
            let value: Int? = await screen.do { () async throws -> Int in throw RewrittenError(reason: "x") }
            #expect(value == nil)
        }
        #expect(
            received == [
                HandlingReport(sequence: 1, path: ["screen"], outcome: .consumed(by: "screen"), handled: true),
                HandlingReport(sequence: 2, path: [], outcome: .unhandled, handled: false),
            ])
    }

    @Test func nothingIsReportedWithoutAForwardingRootOrOnceTheStreamIsFinished() async {
        let stream = makeStream()
        let reports = stream.handlingReports(bufferingPolicy: .unbounded)
        let finally = FinallyLog()
        ErrorHandler().catch { _ in }.throw(SignInError.offline, finally: finally.finally)
        stream.finish()
        ErrorHandler(forwardingTo: stream).catch { _ in }.throw(SignInError.offline, finally: finally.finally)
        var count = 0
        for await _ in reports { count += 1 }
        #expect(count == 0)
        #expect(finally.all == [true, true])
    }

    // MARK: Words

    @Test func outcomesReadAsTheirWordsAndBack() {
        let outcomes: [HandlingOutcome] = [
            .consumed(by: "logged in"), .rewritten(by: "move to cart", to: "CartError"), .passed, .unhandled,
        ]
        #expect(
            outcomes.map(\.description) == [
                "consumed by logged in", "rewritten by move to cart to CartError", "passed", "unhandled",
            ])
        #expect(outcomes.map { HandlingOutcome(parsing: $0.description) } == outcomes.map(Optional.some))
        for words in ["", "consumed by ", "rewritten by x", "rewritten by  to T", "rewritten by x to ", "handled"] {
            #expect(HandlingOutcome(parsing: words) == nil, "\(words)")
        }
    }
}
