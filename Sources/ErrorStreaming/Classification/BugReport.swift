/// A fault in our own code, reported from a branch that "can never happen".
///
/// Created by ``reportBug(_:to:source:origin:file:line:function:)``; its fingerprint is the file and line, so two
/// different impossible branches never hide behind one alert. As a ``LocatedError``, it makes the event that
/// carries it report the reporting line as its ``ErrorEvent/location``, wherever it is added.
public struct BugReport: ClassifiedError, LocatedError, Hashable, CustomStringConvertible {
    /// What was impossible, in the words of the programmer.
    public let message: String
    /// The file that reported it, as `#fileID` spells it (`"Module/File.swift"`).
    public let file: String
    /// The line that reported it.
    public let line: UInt
    /// The function that reported it, as `#function` spells it.
    public let function: String

    /// Creates a report; prefer ``reportBug(_:to:source:origin:file:line:function:)``, which also adds it to a
    /// stream.
    public init(_ message: String, file: String = #fileID, line: UInt = #line, function: String = #function) {
        self.message = message
        self.file = file
        self.line = line
        self.function = function
    }

    /// The file, line and function that reported the bug.
    public var sourceLocation: CodeLocation? { CodeLocation(file: file, line: line, function: function) }

    /// Always `.bug`.
    public var category: ErrorCategory { .bug }
    /// Always `B-0`.
    public var code: ErrorCode { ErrorCode("B", 0) }
    /// Always `.critical`.
    public var severity: ErrorSeverity { .critical }
    /// `"<message> (<file>:<line>)"`.
    public var technicalMessage: String { "\(message) (\(file):\(line))" }
    /// `"bug@<file>:<line>"`.
    public var fingerprint: String { "bug@\(file):\(line)" }
    /// `"bug: <message> (<file>:<line>)"`.
    public var description: String { "bug: \(technicalMessage)" }
}

/// Reports a fault in our own code, from a branch that "can never happen", as a `.bug` on `stream`.
///
/// Unlike `assertionFailure`, it never stops the app; the report carries the file, line and function, and so
/// does its event (``ErrorEvent/location``), so the dashboard and the logs say exactly where. The origin
/// defaults to `.background`: a bug is logged and counted for the developers, and the user is not alerted about
/// something they cannot fix.
///
/// ```swift
/// guard let user = session.user else {
///     reportBug("logged-in screen without a user", to: stream)
///     return
/// }
/// ```
/// - Returns: the report that was added, for tests and for throwing it on.
@discardableResult
public func reportBug(
    _ message: String,
    to stream: ErrorStream = .shared,
    source: String = "app",
    origin: ErrorOrigin = .background,
    file: String = #fileID,
    line: UInt = #line,
    function: String = #function
) -> BugReport {
    let report = BugReport(message, file: file, line: line, function: function)
    let context = ErrorContext(
        source: source, severity: .critical, origin: origin, metadata: ["file": file, "line": String(line)])
    // No location of its own: as a LocatedError, the report gives the event its file, line and function.
    stream.add(report, context: context, location: .none)
    return report
}
