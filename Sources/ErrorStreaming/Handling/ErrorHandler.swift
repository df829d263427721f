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
/// Every node has a ``name``. A root that forwards to an ``ErrorStream`` reports to that stream, after the
/// descent, which nodes' actions ran and how it ended (a ``HandlingReport``, see ``HandlingOutcome``), against
/// the sequence number the error's event got there.
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
    /// The node's name in diagnostics and in ``HandlingReport/path``.
    ///
    /// The name given when the node was made; else, for a typed node, its filter (`catch(LoginError.self)` is
    /// `"LoginError"`, `catch(LoginError.sessionExpired)` is `"LoginError.sessionExpired"`); else where the node
    /// was made, as `"<#fileID>:<#line>"` (`"Shop/CartScreen.swift:42"`). A root is `"root"` unless named.
    public let name: String
    let step: Step
    /// Which errors the action runs for; `nil` for all of them. A node whose filter refuses the error is
    /// skipped by the descent, and does not appear in the report's path.
    let filter: (@Sendable (any Error) -> Bool)?
    let observer: Observer?
    /// The stream a root adds every error of its tree to, and reports the handling to.
    let stream: ErrorStream?

    init(
        parent: ErrorHandler?, name: String, step: Step, filter: (@Sendable (any Error) -> Bool)? = nil,
        observer: Observer?, stream: ErrorStream? = nil
    ) {
        self.parent = parent
        self.name = name
        self.step = step
        self.filter = filter
        self.observer = observer
        self.stream = stream
    }

    /// Creates a root whose action passes every error on.
    ///
    /// - Parameters:
    ///   - name: the root's name; `nil` names it after where it was made (`file` and `line`).
    public convenience init(name: String? = "root", file: StaticString = #fileID, line: UInt = #line) {
        self.init(parent: nil, name: name ?? Self.name(file: file, line: line), step: .passOn, observer: nil)
    }

    /// Creates a root that adds every error thrown anywhere in its tree to `stream`, then passes it on.
    ///
    /// The error is forwarded during the climb, before any action runs, so the stream sees every error,
    /// handled or not, as it was thrown, with the context given to ``throw(_:context:file:line:function:finally:)``
    /// or ``handle(_:context:file:line:function:)`` and the location they were called from. After the descent
    /// the root reports its outcome to the same stream (``ErrorStream/report(_:)``) against the event's sequence.
    public convenience init(
        forwardingTo stream: ErrorStream, name: String? = "root", file: StaticString = #fileID, line: UInt = #line
    ) {
        self.init(
            parent: nil, name: name ?? Self.name(file: file, line: line), step: .passOn, observer: nil,
            stream: stream)
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
    /// and `finally` runs when it ends. Use ``handle(_:context:file:line:function:)`` to await the outcome instead.
    /// The caller's file, line and function are the location of the event a forwarding root adds.
    public func `throw`(
        _ error: any Error,
        context: ErrorContext = .default,
        file: StaticString = #fileID,
        line: UInt = #line,
        function: StaticString = #function,
        finally: (@Sendable (_ handled: Bool) -> Void)? = nil
    ) {
        let path = pathFromRoot
        let location = CapturedLocation(file: file, line: line, function: function)
        let forwarded = Self.climb(path, error: error, context: context, location: location)
        var descent = Descent(error: error)
        for (index, node) in path.enumerated() where node.takes(descent.current) {
            switch node.step {
            case .passOn:
                continue
            case .sync(let action):
                do {
                    try action(descent.current)
                    descent.consumed(by: node.name)
                    Self.conclude(descent, forwarded: forwarded, finally: finally)
                    return
                } catch {
                    descent.threw(error, at: node.name)
                }
            case .async:
                let rest = path[index...]
                Task { [descent] in
                    var descent = descent
                    await Self.descend(rest, &descent)
                    Self.conclude(descent, forwarded: forwarded, finally: finally)
                }
                return
            }
        }
        Self.conclude(descent, forwarded: forwarded, finally: finally)
    }

    /// Handles `error` as if thrown at this node, awaiting asynchronous actions.
    /// - Returns: `true` when some node consumed the error, `false` when every node passed it on.
    @discardableResult
    public func handle(
        _ error: any Error,
        context: ErrorContext = .default,
        file: StaticString = #fileID,
        line: UInt = #line,
        function: StaticString = #function
    ) async -> Bool {
        let path = pathFromRoot
        let location = CapturedLocation(file: file, line: line, function: function)
        let forwarded = Self.climb(path, error: error, context: context, location: location)
        var descent = Descent(error: error)
        await Self.descend(path, &descent)
        Self.conclude(descent, forwarded: forwarded, finally: nil)
        return descent.handled
    }

    /// Runs `body` and handles what it throws at this node, like a `do`/`catch` whose `catch` is the tree.
    ///
    /// The error is handled as by ``throw(_:context:file:line:function:finally:)``: asynchronous actions finish in
    /// a task.
    ///
    /// ```swift
    /// let age: Int? = screen.do { try parseAge(field.text) }   // nil, and the tree showed the error
    /// ```
    /// - Returns: what `body` returned, or `nil` when it threw.
    @discardableResult
    public func `do`<T>(
        context: ErrorContext = .default,
        file: StaticString = #fileID,
        line: UInt = #line,
        function: StaticString = #function,
        _ body: () throws -> T
    ) -> T? {
        do {
            return try body()
        } catch {
            self.throw(error, context: context, file: file, line: line, function: function)
            return nil
        }
    }

    /// Runs async `body` and handles what it throws at this node, awaiting asynchronous actions.
    /// - Returns: what `body` returned, or `nil` when it threw.
    @discardableResult
    public func `do`<T>(
        context: ErrorContext = .default,
        file: StaticString = #fileID,
        line: UInt = #line,
        function: StaticString = #function,
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> sending T
    ) async -> sending T? {
        do {
            return try await body()
        } catch {
            await handle(error, context: context, file: file, line: line, function: function)
            return nil
        }
    }

    // MARK: Phases

    /// Where a forwarding root added the error: the stream, and the event's sequence number there.
    typealias Forwarded = (stream: ErrorStream, sequence: UInt64)

    /// Runs every observer from the thrower up to the root, and the root's forwarding.
    private static func climb(
        _ path: [ErrorHandler], error: any Error, context: ErrorContext, location: CapturedLocation
    ) -> Forwarded? {
        var forwarded: Forwarded?
        for node in path.reversed() {
            node.observer?(error, context)
            if let stream = node.stream, let sequence = stream.add(error, context: context, location: location) {
                forwarded = (stream, sequence)
            }
        }
        return forwarded
    }

    /// Runs the actions of the nodes that take the error, root side first, until one consumes it.
    private static func descend(_ path: some Collection<ErrorHandler>, _ descent: inout Descent) async {
        for node in path where node.takes(descent.current) {
            do {
                switch node.step {
                case .passOn: continue
                case .sync(let action): try action(descent.current)
                case .async(let action): try await action(descent.current)
                }
                descent.consumed(by: node.name)
                return
            } catch {
                descent.threw(error, at: node.name)
            }
        }
    }

    /// Reports the outcome to the stream the root forwarded to, then tells `finally`.
    private static func conclude(
        _ descent: Descent, forwarded: Forwarded?, finally: (@Sendable (_ handled: Bool) -> Void)?
    ) {
        if let forwarded {
            forwarded.stream.report(
                HandlingReport(
                    sequence: forwarded.sequence, path: descent.path, outcome: descent.outcome,
                    handled: descent.handled))
        }
        finally?(descent.handled)
    }

    /// Whether this node's action runs for `error`: it has one, and its filter (if any) accepts the error.
    private func takes(_ error: any Error) -> Bool {
        if case .passOn = step { return false }
        return filter?(error) ?? true
    }

    /// The name of a node made without one and without a type filter: where it was made.
    static func name(file: StaticString, line: UInt) -> String { "\(file):\(line)" }
}
