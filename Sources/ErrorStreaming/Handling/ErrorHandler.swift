/// A node in a top-down tree of error handlers.
///
/// Each node has an optional parent and an action. Handling an error thrown at a node runs in two phases:
///
/// 1. **Climb.** From the throwing node up to the root, unconditionally, every node's observers see the
///    original error (``listen(_:name:_:)``, and the root's forwarding to an ``ErrorStream``). Nothing can stop
///    the climb, so logging and analytics see everything.
/// 2. **Descend.** From the root back down to the throwing node, each node's action runs in turn. An action
///    that returns normally *consumes* the error and handling stops; an action that throws *passes it on*,
///    and the nodes below see what it threw: the same error, or a rewritten one.
///
/// Outer layers (the app, a flow) therefore decide first, and a screen sees only what they let through.
///
/// ```swift
/// let root = ErrorHandler(forwardingTo: stream)            // sees everything, passes everything on
/// let session = root.catch(LoginError.sessionExpired) {   // the session flow restarts the login
///     restartLogin()
/// }
/// let screen = session.catch { error in                   // the screen shows whatever is left
///     showBanner(error)
/// }
/// screen.throw(LoginError.wrongPassword, finally: { handled in print(handled) })   // true
/// ```
///
/// ## Ownership
///
/// A node holds its parent strongly and its action strongly; nothing holds a node's children. An object that
/// owns a node (a view model, a flow) must therefore capture itself *weakly* in the node's action, or the
/// node and its owner keep each other alive:
///
/// ```swift
/// @MainActor final class LoginModel {
///     var banner: String?
///     let parent: ErrorHandler
///     lazy var errors: ErrorHandler = parent.catch(LoginError.self) { [weak self] (error: LoginError) in
///         await self?.show(error)         // no strong reference: the model can deinitialise
///     }
///     init(parent: ErrorHandler) { self.parent = parent }
///     func show(_ error: LoginError) { banner = "\(error)" }
/// }
/// ```
///
/// The tree is `Sendable`: a node's parent, actions and observers are immutable after creation.
public final class ErrorHandler: Sendable {
    /// A synchronous action: return to consume the error, throw to pass it (or a rewritten error) on.
    public typealias Action = @Sendable (any Error) throws -> Void
    /// An asynchronous action: return to consume the error, throw to pass it (or a rewritten error) on.
    public typealias AsyncAction = @Sendable (any Error) async throws -> Void
    /// An observer, run during the climb with the original error and the thrower's context.
    public typealias Observer = @Sendable (any Error, ErrorContext) -> Void

    enum Step: Sendable {
        case passOn
        case sync(Action)
        case async(AsyncAction)
    }

    /// The node above this one; `nil` for a root.
    public let parent: ErrorHandler?
    /// A label for diagnostics, for example `"login screen"`.
    public let name: String?
    let step: Step
    let observer: Observer?

    init(parent: ErrorHandler?, name: String?, step: Step, observer: Observer?) {
        self.parent = parent
        self.name = name
        self.step = step
        self.observer = observer
    }

    /// Creates a root whose action passes every error on.
    public convenience init(name: String? = "root") {
        self.init(parent: nil, name: name, step: .passOn, observer: nil)
    }

    /// Creates a root that adds every error thrown anywhere in its tree to `stream`, then passes it on.
    ///
    /// The error is forwarded during the climb, before any action runs, so the stream sees every error,
    /// handled or not, as it was thrown, with the context given to ``throw(_:context:finally:)`` or
    /// ``handle(_:context:)``.
    public convenience init(forwardingTo stream: ErrorStream, name: String? = "root") {
        self.init(
            parent: nil, name: name, step: .passOn,
            observer: { error, context in
                stream.add(error, context: context)
            })
    }

    /// The nodes from the root down to this one, root first.
    public var pathFromRoot: [ErrorHandler] {
        var path: [ErrorHandler] = []
        var node: ErrorHandler? = self
        while let current = node {
            path.append(current)
            node = current.parent
        }
        return path.reversed()
    }

    /// Whether this node is a root.
    public var isRoot: Bool { parent == nil }

    // MARK: Handling

    /// Handles `error` as if thrown at this node and tells `finally` whether some node consumed it.
    ///
    /// When every action on the path is synchronous, handling completes and `finally` runs before this method
    /// returns. When the descent reaches an asynchronous action, the rest of the descent continues in a new task
    /// and `finally` runs when it ends. Use ``handle(_:context:)`` to await the outcome instead.
    public func `throw`(
        _ error: any Error,
        context: ErrorContext = .default,
        finally: (@Sendable (_ handled: Bool) -> Void)? = nil
    ) {
        let path = pathFromRoot
        Self.climb(path, error: error, context: context)
        var current = error
        for (index, node) in path.enumerated() {
            switch node.step {
            case .passOn:
                continue
            case .sync(let action):
                do {
                    try action(current)
                    finally?(true)
                    return
                } catch {
                    current = error
                }
            case .async:
                let rest = Array(path[index...])
                let pending = current
                Task {
                    let handled = await Self.descend(rest, error: pending)
                    finally?(handled)
                }
                return
            }
        }
        finally?(false)
    }

    /// Handles `error` as if thrown at this node, awaiting asynchronous actions.
    /// - Returns: `true` when some node consumed the error, `false` when every node passed it on.
    @discardableResult
    public func handle(_ error: any Error, context: ErrorContext = .default) async -> Bool {
        let path = pathFromRoot
        Self.climb(path, error: error, context: context)
        return await Self.descend(path, error: error)
    }

    /// Runs `body` and handles what it throws at this node, like a `do`/`catch` whose `catch` is the tree.
    ///
    /// The error is handled as by ``throw(_:context:finally:)``: asynchronous actions finish in a task.
    ///
    /// ```swift
    /// let age: Int? = screen.do { try parseAge(field.text) }   // nil, and the tree showed the error
    /// ```
    /// - Returns: what `body` returned, or `nil` when it threw.
    @discardableResult
    public func `do`<T>(context: ErrorContext = .default, _ body: () throws -> T) -> T? {
        do {
            return try body()
        } catch {
            self.throw(error, context: context)
            return nil
        }
    }

    /// Runs async `body` and handles what it throws at this node, awaiting asynchronous actions.
    /// - Returns: what `body` returned, or `nil` when it threw.
    @discardableResult
    public func `do`<T>(
        context: ErrorContext = .default,
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> sending T
    ) async -> sending T? {
        do {
            return try await body()
        } catch {
            await handle(error, context: context)
            return nil
        }
    }

    private static func climb(_ path: [ErrorHandler], error: any Error, context: ErrorContext) {
        for node in path.reversed() {
            node.observer?(error, context)
        }
    }

    private static func descend(_ path: some Collection<ErrorHandler>, error: any Error) async -> Bool {
        var current = error
        for node in path {
            do {
                switch node.step {
                case .passOn: continue
                case .sync(let action): try action(current)
                case .async(let action): try await action(current)
                }
                return true
            } catch {
                current = error
            }
        }
        return false
    }
}
