import ErrorStreaming
import Synchronization
import Testing

/// Errors used by the handler, binding and sample tests.
enum SignInError: Error, Equatable {
    case wrongPassword
    case sessionExpired
    case offline
}

struct RewrittenError: Error, Equatable {
    var reason: String
}

/// A thread-safe list of what happened, in order.
final class VisitLog: Sendable {
    private let entries = Mutex<[String]>([])
    func record(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
}

/// Builds root → middle → leaf, where every node records its name in both phases, and `middle` runs `action`.
private func recordingTree(
    _ recorder: VisitLog, middle action: @escaping ErrorHandler.Action
) -> (root: ErrorHandler, middle: ErrorHandler, leaf: ErrorHandler) {
    let root = ErrorHandler()
    let rootListener = root.listen { _, _ in recorder.record("up:root") }
    let rootAction = rootListener.catch { error in
        recorder.record("down:root")
        throw error
    }
    let middle = rootAction.listen { _, _ in recorder.record("up:middle") }.catch { error in
        recorder.record("down:middle")
        try action(error)
    }
    let leaf = middle.listen { _, _ in recorder.record("up:leaf") }.catch { error in
        recorder.record("down:leaf(\(error))")
    }
    return (root, middle, leaf)
}

struct ErrorHandlerTests {
    @Test func climbsToTheRootThenDescendsToTheThrower() {
        let recorder = VisitLog()
        let tree = recordingTree(recorder) { error in throw error }
        let handled = Mutex<Bool?>(nil)
        tree.leaf.throw(SignInError.offline, finally: { result in handled.withLock { $0 = result } })
        #expect(
            recorder.all == [
                "up:leaf", "up:middle", "up:root",
                "down:root", "down:middle", "down:leaf(offline)",
            ])
        #expect(handled.withLock { $0 } == true)
    }

    @Test func consumingStopsTheDescentButNotTheClimb() {
        let recorder = VisitLog()
        let tree = recordingTree(recorder) { _ in }
        tree.leaf.throw(SignInError.offline)
        #expect(recorder.all == ["up:leaf", "up:middle", "up:root", "down:root", "down:middle"])
    }

    @Test func aRewrittenErrorIsWhatTheNodesBelowSee() {
        let recorder = VisitLog()
        let tree = recordingTree(recorder) { _ in throw RewrittenError(reason: "friendlier") }
        tree.leaf.throw(SignInError.offline)
        #expect(recorder.all.last == "down:leaf(RewrittenError(reason: \"friendlier\"))")
    }

    @Test func finallyIsToldFalseWhenNoNodeHandles() {
        let root = ErrorHandler()
        let leaf = root.catch(SignInError.self) { _ in }.listen { _, _ in }
        let handled = Mutex<Bool?>(nil)
        leaf.throw(RewrittenError(reason: "nobody wants me"), finally: { result in handled.withLock { $0 = result } })
        #expect(handled.withLock { $0 } == false)
    }

    @Test func typedNodeHandlesOnlyItsType() {
        let recorder = VisitLog()
        let root = ErrorHandler()
        let typed = root.catch(SignInError.self) { (error: SignInError) in recorder.record("login:\(error)") }
        let leaf = typed.catch { error in recorder.record("leaf:\(error)") }
        leaf.throw(SignInError.wrongPassword)
        leaf.throw(RewrittenError(reason: "other"))
        #expect(recorder.all == ["login:wrongPassword", "leaf:RewrittenError(reason: \"other\")"])
    }

    @Test func equatableNodeHandlesOnlyItsValue() {
        let recorder = VisitLog()
        let root = ErrorHandler()
        let session = root.catch(SignInError.sessionExpired) { recorder.record("restart") }
        let leaf = session.catch { error in recorder.record("leaf:\(error)") }
        leaf.throw(SignInError.sessionExpired)
        leaf.throw(SignInError.wrongPassword)
        #expect(recorder.all == ["restart", "leaf:wrongPassword"])
    }

    @Test func listenerObservesButNeverHandles() {
        let recorder = VisitLog()
        let root = ErrorHandler()
        let listener = root.listen(SignInError.self) { error in recorder.record("saw:\(error)") }
        let handled = Mutex<[Bool]>([])
        listener.throw(SignInError.offline, finally: { result in handled.withLock { $0.append(result) } })
        listener.throw(RewrittenError(reason: "x"), finally: { result in handled.withLock { $0.append(result) } })
        #expect(recorder.all == ["saw:offline"])
        #expect(handled.withLock { $0 } == [false, false])
    }

    @Test func listenerBelowAConsumingAncestorStillSeesTheError() {
        let recorder = VisitLog()
        let root = ErrorHandler()
        let consumer = root.catch { _ in recorder.record("consumed") }
        let listener = consumer.listen(SignInError.self) { error in recorder.record("saw:\(error)") }
        listener.throw(SignInError.offline)
        #expect(recorder.all == ["saw:offline", "consumed"])
    }

    @Test func rootForwardsEveryErrorToTheStream() async {
        let stream = ErrorStream()
        let events = stream.events(bufferingPolicy: .unbounded)
        let root = ErrorHandler(forwardingTo: stream)
        let leaf = root.catch(SignInError.self) { _ in }
        leaf.throw(SignInError.offline, context: ErrorContext(source: "auth.login"))
        leaf.throw(RewrittenError(reason: "unhandled"))
        stream.finish()
        var received: [String] = []
        for await event in events { received.append("\(event.source):\(event.error)") }
        #expect(received == ["auth.login:offline", "app:RewrittenError(reason: \"unhandled\")"])
    }

    @Test func asyncActionsAreAwaitedByHandle() async {
        let recorder = VisitLog()
        let root = ErrorHandler()
        let middle = root.catch { (error: any Error) async throws in
            await Task.yield()
            recorder.record("async:\(error)")
            throw RewrittenError(reason: "after async")
        }
        let leaf = middle.catch(RewrittenError.self) { (error: RewrittenError) in
            recorder.record("leaf:\(error.reason)")
        }
        let handled = await leaf.handle(SignInError.offline)
        #expect(handled)
        #expect(recorder.all == ["async:offline", "leaf:after async"])
    }

    @Test func closuresThatAwaitPickTheAsyncOverloadsWithoutAnnotations() async {
        let recorder = VisitLog()
        let root = ErrorHandler()
        let any = root.catch { error in
            await Task.yield()
            recorder.record("any:\(error)")
            throw error
        }
        let typed = any.catch(SignInError.self) { error in
            await Task.yield()
            recorder.record("typed:\(error)")
        }
        let value = typed.catch(SignInError.offline) {
            await Task.yield()
            recorder.record("value")
        }
        #expect(await value.handle(SignInError.offline))
        #expect(recorder.all == ["any:offline", "typed:offline"])
    }

    @Test func throwFinishesAnAsyncDescentInATask() async {
        let root = ErrorHandler()
        let leaf = root.catch { (_: any Error) async throws in await Task.yield() }
        let handled = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            leaf.throw(SignInError.offline, finally: { continuation.resume(returning: $0) })
        }
        #expect(handled)
    }

    @Test func doHelperReturnsTheValueOrHandlesTheError() async {
        let recorder = VisitLog()
        let node = ErrorHandler().catch { error in recorder.record("handled:\(error)") }
        let value = node.do { 42 }
        let failed: Int? = node.do { throw SignInError.wrongPassword }
        let asyncFailed: Int? = await node.do {
            await Task.yield()
            throw SignInError.offline
        }
        #expect(value == 42)
        #expect(failed == nil)
        #expect(asyncFailed == nil)
        #expect(recorder.all == ["handled:wrongPassword", "handled:offline"])
    }

    @Test func pathFromRootListsTheAncestry() {
        let root = ErrorHandler(name: "app")
        let leaf = root.catch(name: "flow") { _ in }.listen(name: "screen") { _, _ in }
        #expect(leaf.pathFromRoot.map(\.name) == ["app", "flow", "screen"])
        #expect(root.isRoot && !leaf.isRoot)
    }
}

/// An owner of a node, capturing itself weakly as the handler documentation shows.
@MainActor
final class SignInModel {
    var banner: String?
    let parent: ErrorHandler
    let deinitialised: @Sendable () -> Void

    lazy var errors: ErrorHandler = parent.catch(SignInError.self) { [weak self] (error: SignInError) in
        await self?.show(error)
    }

    init(parent: ErrorHandler, deinitialised: @escaping @Sendable () -> Void) {
        self.parent = parent
        self.deinitialised = deinitialised
    }

    func show(_ error: SignInError) { banner = "\(error)" }

    deinit { deinitialised() }
}

@MainActor
struct ErrorHandlerOwnershipTests {
    @Test func anOwnerOfANodeDeinitialises() async {
        let root = ErrorHandler()
        let gone = Mutex(false)
        var model: SignInModel? = SignInModel(parent: root, deinitialised: { gone.withLock { $0 = true } })
        let node = model!.errors
        let handled = await node.handle(SignInError.wrongPassword)
        #expect(handled)
        #expect(model?.banner == "wrongPassword")
        model = nil
        #expect(gone.withLock { $0 })
        // The node outlives its owner and still works; the weak capture just finds nothing.
        #expect(await node.handle(SignInError.offline))
    }
}
