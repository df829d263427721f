import ErrorStreaming

/// Reads the frames out of a stack trace as a runtime printed it, so that a crash read from a log or a child's
/// output is an error with frames (file, line, column, function), like an SDK's report.
///
/// Known shapes, each from a real run (Tests/ErrorWatchIngestTests/StackFramesTests.swift holds them):
/// - Swift's crash backtrace: `1 [ra] 0x… divide(_:by:) + 348 in trap at /src/trap.swift:2:17` (a frame without
///   `at` is a library's: kept with its image as the module);
/// - Python's traceback: `  File "/src/app.py", line 2, in load`;
/// - Java's and Kotlin's: `\tat com.shop.Main.load(Main.java:2)`, up to the first `Caused by:`;
/// - JavaScript's (Node): `    at load (/src/app.js:2:9)` or `    at /src/app.js:4:1`;
/// - Go's panic: a function line (`main.divide(...)`), then its tab-indented `/src/main.go:8 +0x1d`.
///
/// Frames come oldest call first, the failing call last, as an ``ExceptionReport`` keeps them.
public enum StackFrames {
    /// The most frames read from one trace; the rest are counted in ``Parsed/omitted``.
    public static let maximumFrames = 250

    /// The frames of a trace and how many were left out.
    public struct Parsed: Sendable, Hashable {
        /// Oldest call first.
        public var frames: [ExceptionReport.Frame]
        /// Frames past ``StackFrames/maximumFrames``, not kept.
        public var omitted: Int
    }

    /// The frames of `stack`, or `nil` when no line of it is a frame of a known shape.
    public static func parse(_ stack: String) -> Parsed? {
        var newestFirst: [ExceptionReport.Frame] = []
        var oldestFirst: [ExceptionReport.Frame] = []
        var goFunction: String?
        var inPython = false
        for raw in stack.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = raw.hasSuffix("\r") ? raw.dropLast() : raw
            let trimmed = ASCIIScan.trimmingBlanks(line)
            if trimmed.hasPrefix("Traceback (most recent call last)") {
                // A chained traceback: the last one is the exception raised.
                oldestFirst.removeAll()
                inPython = true
                continue
            }
            if trimmed.hasPrefix("Caused by:"), !newestFirst.isEmpty { break }
            if inPython, let frame = python(trimmed) {
                oldestFirst.append(frame)
                continue
            }
            if let function = goFunction {
                goFunction = nil
                if line.first == "\t", let frame = go(trimmed, function: function) {
                    newestFirst.append(frame)
                    continue
                }
            }
            if trimmed.hasPrefix("at "), let frame = atFrame(trimmed.dropFirst(3)) {
                newestFirst.append(frame)
            } else if let frame = swift(trimmed) {
                newestFirst.append(frame)
            } else if line.first != "\t", line.first != " ", trimmed.hasSuffix(")"), !trimmed.contains(" "),
                trimmed.contains("(")
            {
                goFunction = String(trimmed)
            }
        }
        let frames = oldestFirst.isEmpty ? Array(newestFirst.reversed()) : oldestFirst
        guard !frames.isEmpty else { return nil }
        guard frames.count > maximumFrames else { return Parsed(frames: frames, omitted: 0) }
        // The failing end matters most: keep the newest frames.
        return Parsed(frames: Array(frames.suffix(maximumFrames)), omitted: frames.count - maximumFrames)
    }

    /// `File "/src/app.py", line 2, in load`.
    static func python(_ line: Substring) -> ExceptionReport.Frame? {
        guard line.hasPrefix("File \"") else { return nil }
        let rest = line.dropFirst(6)
        guard let quote = rest.firstIndex(of: "\"") else { return nil }
        let file = String(rest[..<quote])
        var frame = ExceptionReport.Frame(file: file)
        let tail = rest[rest.index(after: quote)...]
        if let range = tail.range(of: ", line ") {
            let digits = tail[range.upperBound...].prefix { $0.isASCII && $0.isNumber }
            frame.line = Int(digits)
        }
        if let range = tail.range(of: ", in ") {
            frame.function = String(ASCIIScan.trimmingBlanks(tail[range.upperBound...]))
        }
        return frame
    }

    /// After `at `: `load (/src/app.js:2:9)`, `/src/app.js:4:1`, `com.shop.Main.load(Main.java:2)`,
    /// `async run (file:///src/app.mjs:3:5)`.
    static func atFrame(_ text: Substring) -> ExceptionReport.Frame? {
        var text = ASCIIScan.trimmingBlanks(text)
        if text.hasPrefix("async ") { text = text.dropFirst(6) }
        if text.hasSuffix(")"), let open = text.lastIndex(of: "(") {
            let function = ASCIIScan.trimmingBlanks(text[..<open])
            let place = text[text.index(after: open)..<text.index(before: text.endIndex)]
            var frame = location(place) ?? ExceptionReport.Frame()
            if place == "Native Method" || place == "Unknown Source" { frame = ExceptionReport.Frame() }
            guard !function.isEmpty else { return frame.file == nil ? nil : frame }
            frame.function = String(function)
            if frame.file == nil, !place.isEmpty, !place.contains(" ") { frame.file = String(place) }
            if frame.column == nil, let dot = function.lastIndex(of: "."), function.contains("."),
                !function.hasPrefix("Object."), !function.hasPrefix("Module.")
            {
                // Java's `com.shop.Main.load`: the class is the module.
                frame.module = String(function[..<dot])
            }
            return frame
        }
        return location(text)
    }

    /// `/src/app.js:4:1`, `Main.java:2`, `file:///src/app.mjs:3:5`, `node:internal/x:12:3`.
    static func location(_ text: Substring) -> ExceptionReport.Frame? {
        var text = text
        if text.hasPrefix("file://") { text = text.dropFirst(7) }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count >= 2 else { return nil }
        if parts.count >= 3, let line = Int(parts[parts.count - 2]), let column = Int(parts[parts.count - 1]) {
            let file = parts.dropLast(2).joined(separator: ":")
            guard !file.isEmpty, !file.contains(" ") else { return nil }
            return ExceptionReport.Frame(file: file, line: line, column: column)
        }
        guard let line = Int(parts[parts.count - 1]) else { return nil }
        let file = parts.dropLast().joined(separator: ":")
        guard !file.isEmpty, !file.contains(" ") else { return nil }
        return ExceptionReport.Frame(file: file, line: line)
    }

    /// Go: `/src/main.go:8 +0x1d` under the function line `main.divide(...)`.
    static func go(_ line: Substring, function: String) -> ExceptionReport.Frame? {
        let place = line.split(separator: " ").first ?? line
        guard var frame = location(place), frame.file?.hasSuffix(".go") == true || frame.file?.hasPrefix("/") == true
        else { return nil }
        var name = Substring(function)
        if let open = name.lastIndex(of: "(") { name = name[..<open] }
        frame.function = String(name)
        if let slash = name.lastIndex(of: "/") { name = name[name.index(after: slash)...] }
        if let dot = name.firstIndex(of: ".") { frame.module = String(name[..<dot]) }
        return frame
    }

    /// Swift's backtracer: `1 [ra] 0x0000559334cfa45d divide(_:by:) + 348 in trap at /src/trap.swift:2:17`, or
    /// `0 0x00007f94f6af9361 _assertionFailure(_:_:file:line:flags:) + 225 in libswiftCore.so`.
    static func swift(_ line: Substring) -> ExceptionReport.Frame? {
        guard let first = line.first, first.isASCII, first.isNumber else { return nil }
        guard let address = line.range(of: " 0x") else { return nil }
        let index = line[..<address.lowerBound]
        guard index.allSatisfy({ $0.isNumber || $0 == " " || $0 == "[" || $0 == "]" || $0.isLetter }) else {
            return nil
        }
        var rest = line[address.upperBound...].drop { $0.isHexDigit }
        rest = ASCIIScan.trimmingBlanks(rest)
        guard !rest.isEmpty else { return nil }
        var frame = ExceptionReport.Frame()
        var symbol = rest
        if let at = rest.range(of: " at ", options: .backwards) {
            if let place = location(ASCIIScan.trimmingBlanks(rest[at.upperBound...])) {
                frame.file = place.file
                frame.line = place.line
                frame.column = place.column
            }
            symbol = rest[..<at.lowerBound]
        }
        if let image = symbol.range(of: " in ", options: .backwards) {
            frame.module = String(ASCIIScan.trimmingBlanks(symbol[image.upperBound...]))
            symbol = symbol[..<image.lowerBound]
        }
        if let offset = symbol.range(of: " + ", options: .backwards),
            symbol[offset.upperBound...].allSatisfy({ $0.isNumber })
        {
            symbol = symbol[..<offset.lowerBound]
        }
        let function = ASCIIScan.trimmingBlanks(symbol)
        if !function.isEmpty { frame.function = String(function) }
        return frame
    }
}
