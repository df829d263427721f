import ErrorWatchWire
import ErrorStreaming
import Foundation

/// Folds multi-line stack traces into the event they belong to: Python tracebacks, Java and .NET exceptions,
/// Go panics and goroutine dumps, Swift's `Fatal error:` and crash backtraces.
///
/// The last plain-text line is held until the next line shows whether a trace follows it, so a line is
/// emitted one line late, or when its source goes quiet (``flush(_:)``). A trace is capped at
/// ``maximumStackBytes``; the lines past the cap are counted, not kept.
struct TracebackFolder {
    /// The most bytes of trace kept per event.
    static let maximumStackBytes = 32 * 1024

    private enum Kind {
        case python
        case java
        case go
        case swift
    }

    private var pending: LogRecord?
    private var kind: Kind?
    private var awaitingPythonException = false
    private var stack = ""
    private var omittedLines = 0

    /// The time of the last line emitted that carried one, from this folder's source.
    private var lastTime: Date?
    /// Whether a line without a time takes the previous line's (a file, whose lines' places are their order) or
    /// keeps the time it was read (a live stream, where it was written about when it was read).
    var inheritsTimes = true

    /// Whether a line is held, waiting to learn whether a trace follows it.
    var hasPending: Bool { pending != nil }

    /// Gives a line without a time of its own the time of the previous line of this source that had one, and
    /// remembers the time of a line that has one.
    mutating func stamp(_ record: inout LogRecord) {
        if let own = record.ownTime {
            lastTime = own
        } else if inheritsTimes {
            record.inheritedTime = lastTime
        }
    }

    /// Offers one plain-text line; `makeRecord` reads it as a line of its own when it is not part of a trace.
    mutating func offer(_ line: String, makeRecord: () -> LogRecord, emit: (consuming WireEvent) -> Void) {
        // Whether the line starts a trace under the held line: asked once per line (it was asked twice whenever the
        // held line was not an error, as it is for most lines).
        // The held line's two facts the question needs are read where it lies: reading the whole record out of its
        // optional copied it (some twenty members) for every line.
        let foldsInto =
            kind == nil && pending != nil
            ? Self.foldKind(line, intoError: pending!.isError, typed: pending!.exceptionType != nil) : nil
        if let kind, pending != nil {
            if continues(kind, line) {
                append(line)
                return
            }
            flush(emit)
        } else if pending?.isError == false, let kind = foldsInto {
            // A trace under a line that is not an error (an `INFO` line, then a traceback) is an error of its own:
            // the line before stays the log line it was.
            flush(emit)
            var record = makeRecord()
            let started = Self.start(line, record: &record) ?? kind
            if started == .python { record.message = nil }
            self.kind = started
            awaitingPythonException = started == .python
            stack = ""
            omittedLines = 0
            pending = record
            append(line)
            return
        } else if pending != nil, let kind = foldsInto {
            // A trace that starts under a line already held (`logger.exception` writes its message, then the
            // traceback): the held line becomes the trace's event.
            if kind == .java, pending!.exceptionType == nil,
                let (type, message) = StackText.parseExceptionLine(pending!.message ?? ""), type.contains(".")
            {
                pending!.exceptionType = type
                pending!.exceptionMessage = message
            }
            if Self.isJavaHeader(line), pending!.exceptionType == nil,
                let (type, message) = StackText.parseExceptionLine(line)
            {
                pending!.exceptionType = type
                pending!.exceptionMessage = message
            }
            self.kind = kind
            stack = ""
            omittedLines = 0
            awaitingPythonException = kind == .python
            append(line)
            return
        }
        flush(emit)
        var record = makeRecord()
        if let kind = Self.start(line, record: &record) {
            self.kind = kind
            awaitingPythonException = kind == .python
            stack = ""
            omittedLines = 0
            pending = record
            append(line)
        } else {
            pending = record
        }
    }

    /// Emits the held line or trace, if any.
    mutating func flush(_ emit: (consuming WireEvent) -> Void) {
        // Moved out, not copied: the folder keeps nothing of it.
        guard var record = pending.take() else { return }
        if kind != nil {
            while stack.hasSuffix("\n") { stack.removeLast() }
            if omittedLines > 0 { stack += "\n… \(omittedLines) more lines" }
            record.stacktrace = stack
            if record.exceptionType == nil, record.exceptionMessage == nil {
                record.exceptionMessage = record.message
            }
            if record.severity == nil || record.severity! < .error { record.severity = .error }
        }
        kind = nil
        stack = ""
        omittedLines = 0
        awaitingPythonException = false
        stamp(&record)
        emit(record.takeEvent())
    }

    private mutating func append(_ line: String) {
        if kind == .python, awaitingPythonException, let first = line.first, first != " ", first != "\t",
            !line.hasPrefix("Traceback (most recent call last)"), !line.hasPrefix("During handling"),
            !line.hasPrefix("The above exception")
        {
            // The line after the frames names the exception; in a chain, the last one is the one raised.
            if let (type, message) = StackText.parseExceptionLine(line) {
                pending?.exceptionType = type
                pending?.exceptionMessage = message
            } else {
                pending?.exceptionMessage = line
            }
            awaitingPythonException = false
        } else if line.hasPrefix("Traceback (most recent call last)") {
            awaitingPythonException = true
        }
        guard stack.utf8.count + line.utf8.count < Self.maximumStackBytes else {
            omittedLines += 1
            return
        }
        stack += stack.isEmpty ? line : "\n" + line
    }

    /// Whether `line` goes on a trace of `kind`.
    private func continues(_ kind: Kind, _ line: String) -> Bool {
        let indented = line.first == " " || line.first == "\t"
        switch kind {
        case .python:
            return line.isEmpty || indented || line.hasPrefix("Traceback (most recent call last)")
                || line.hasPrefix("During handling of the above exception")
                || line.hasPrefix("The above exception was the direct cause") || awaitingPythonException
        case .java:
            return indented || line.hasPrefix("Caused by: ") || line.hasPrefix("Suppressed: ")
                || line.hasPrefix("--- End of") || (line.hasPrefix("...") && line.hasSuffix("more"))
        case .go:
            return line.isEmpty || indented || line.hasPrefix("goroutine ") || line.hasPrefix("created by ")
                || line.hasPrefix("panic: ") || line.hasPrefix("[signal ") || line.hasPrefix("exit status ")
                || line.hasPrefix("signal ") || (line.contains("(") && (line.hasSuffix(")") || line.hasSuffix("...")))
        case .swift:
            guard let first = line.unicodeScalars.first else { return true }
            return indented || first.properties.numericType != nil || line.hasPrefix("*** ") || line.hasPrefix("💣")
                || line.hasPrefix("Thread ") || line.hasPrefix("Current stack trace") || line.hasPrefix("Backtrace")
                || line.hasPrefix("Platform:") || line.hasPrefix("Registers") || line.hasPrefix("Images")
                || line.hasPrefix("Stack dump") || line.hasPrefix("Crashed") || line.hasPrefix("0x")
                // The backtracer marks frames left out with a line of dots.
                || line.hasPrefix("...")
        }
    }

    /// The trace `line` starts under a held line that is an error when `intoError`, with an exception type when
    /// `typed`; `nil` when it starts none.
    private static func foldKind(_ line: String, intoError: Bool, typed: Bool) -> Kind? {
        // Most lines of a log start with their time: no trace line does (each starts with a word, a space or a
        // tab), so they are passed by their first byte.
        if Self.startsWithDigit(line) { return nil }
        if line.hasPrefix("Traceback (most recent call last)") { return .python }
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        if trimmed.startIndex != line.startIndex, trimmed.hasPrefix("at ") { return .java }
        if line.hasPrefix("Caused by: ") { return .java }
        if intoError, !typed, isJavaHeader(line) { return .java }
        if line.hasPrefix("goroutine "), line.hasSuffix(":") { return .go }
        if line.hasPrefix("Current stack trace:") || line.hasPrefix("*** Signal") { return .swift }
        return nil
    }

    /// `java.lang.IllegalStateException: boom`, `System.InvalidOperationException: …`: a dotted type that ends in
    /// Exception, Error or Throwable, at the start of the line.
    private static func isJavaHeader(_ line: String) -> Bool {
        guard let first = line.first, first != " ", first != "\t" else { return false }
        // What the type must be is true of the text before the colon too (the type ends it): most lines fail
        // here, before the line is parsed.
        let head = line.utf8.firstIndex(of: UInt8(ascii: ":")).map { line[..<$0] } ?? line[...]
        guard head.utf8.contains(UInt8(ascii: ".")),
            head.hasSuffix("Exception") || head.hasSuffix("Error") || head.hasSuffix("Throwable"),
            let (type, _) = StackText.parseExceptionLine(line)
        else { return false }
        return type.contains(".")
            && (type.hasSuffix("Exception") || type.hasSuffix("Error") || type.hasSuffix("Throwable"))
    }

    /// The record becomes the crash's: critical, with the crash's type and message (when the line gave them) in
    /// place of a plain message.
    private static func crash(
        _ kind: Kind, _ exception: (type: String, message: String)?, into record: inout LogRecord
    ) -> Kind {
        if let exception {
            record.exceptionType = exception.type
            record.exceptionMessage = exception.message
        }
        record.severity = .critical
        record.message = nil
        return kind
    }

    /// The trace `line` starts on its own, with the record's error fields set from it.
    private static func start(_ line: String, record: inout LogRecord) -> Kind? {
        // A line that starts with a digit (its time) starts no trace by its first words; Swift's `Fatal error:`
        // may follow a time.
        if Self.startsWithDigit(line) { return fatalError(line, record: &record) }
        if line.hasPrefix("Traceback (most recent call last)") {
            record.message = nil
            return .python
        }
        if line.hasPrefix("Exception in thread "), let quote = line.dropFirst(20).dropFirst().firstIndex(of: "\"") {
            return crash(.java, StackText.parseExceptionLine(line[line.index(after: quote)...]), into: &record)
        }
        if line.hasPrefix("Unhandled exception. ") || line.hasPrefix("Unhandled Exception: ") {
            return crash(.java, StackText.parseExceptionLine(line), into: &record)
        }
        for prefix in ["panic: ", "fatal error: "] where line.hasPrefix(prefix) {
            return crash(.go, (String(prefix.dropLast(2)), String(line.dropFirst(prefix.count))), into: &record)
        }
        if let kind = fatalError(line, record: &record) { return kind }
        if line.hasPrefix("💣 Program crashed: ") {
            return crash(.swift, ("Crash", String(line.dropFirst("💣 Program crashed: ".count))), into: &record)
        }
        return nil
    }

    /// Swift's `Fatal error:` anywhere in the line (`File.swift:12: Fatal error: …`, after a time), with the
    /// record's location and crash set from it.
    private static func fatalError(_ line: String, record: inout LogRecord) -> Kind? {
        guard let range = ASCIIScan.range(of: "Fatal error: ", in: line) else { return nil }
        let location = String(line[..<range.lowerBound].drop { $0 == ":" || $0 == " " }.trimmingColonsAndSpaces())
        if !location.isEmpty { record.setCaller(location) }
        return crash(.swift, ("Fatal error", String(line[range.upperBound...])), into: &record)
    }

    /// Whether the line's first byte is an ASCII digit.
    private static func startsWithDigit(_ line: String) -> Bool {
        guard let first = line.utf8.first else { return false }
        return first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9")
    }
}

extension Substring {
    /// The text without trailing colons and spaces.
    fileprivate func trimmingColonsAndSpaces() -> Substring {
        var end = endIndex
        while end > startIndex, self[index(before: end)] == ":" || self[index(before: end)] == " " {
            end = index(before: end)
        }
        return self[startIndex..<end]
    }
}
