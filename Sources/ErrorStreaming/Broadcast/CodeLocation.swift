/// Where in the source an error was added to a stream (or thrown into an ``ErrorHandler`` tree): file, line
/// and function.
///
/// `ErrorStream.add` and the handler tree capture it with defaulted `#fileID`, `#line` and `#function`
/// parameters, kept as pointers to the literals the compiler wrote into the binary, so capturing a location
/// allocates nothing; ``file`` and ``function`` make `String`s only when read. A location decoded from another
/// process (the initializer taking `String`s) holds ordinary strings.
///
/// ```swift
/// for await event in stream.events {
///     if let location = event.location { print(location) }   // "Shop/Checkout.swift:42 in pay()"
/// }
/// ```
///
/// Named after OpenTelemetry's `code.*` attributes (`code.filepath`, `code.lineno`, `code.function`), and not
/// `SourceLocation`, which Swift Testing declares too.
public struct CodeLocation: Sendable, Hashable, CustomStringConvertible {
    enum Storage: Sendable {
        case literals(CapturedLocation)
        case strings(file: String, line: UInt, function: String)
    }

    let storage: Storage

    /// Captures the caller's location: the file as `#fileID` spells it (`"Module/File.swift"`), the line and the
    /// function. Allocates nothing.
    ///
    /// ```swift
    /// func record(_ error: any Error, file: StaticString = #fileID, line: UInt = #line) {
    ///     log.append((error, CodeLocation(file: file, line: line)))
    /// }
    /// ```
    public init(file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function) {
        self.storage = .literals(CapturedLocation(file: file, line: line, function: function))
    }

    /// A location from elsewhere, for example another process's `code.filepath`, `code.lineno` and
    /// `code.function`. Use an empty function and line 0 for what the producer did not say.
    public init(file: String, line: UInt, function: String) {
        self.storage = .strings(file: file, line: line, function: function)
    }

    /// The location an event captured; `nil` when it captured none.
    init?(_ captured: CapturedLocation) {
        guard !captured.isNone else { return nil }
        self.storage = .literals(captured)
    }

    /// The file, as `#fileID` spells it for a local error (`"Shop/Checkout.swift"`), or as the producer sent it.
    public var file: String {
        switch storage {
        case .literals(let captured): captured.withFile { String(decoding: $0, as: UTF8.self) }
        case .strings(let file, _, _): file
        }
    }

    /// The line, as `#line` gives it; 0 when the producer did not say.
    public var line: UInt {
        switch storage {
        case .literals(let captured): captured.line
        case .strings(_, let line, _): line
        }
    }

    /// The function, as `#function` spells it (`"pay(order:)"`); empty when the producer did not say.
    public var function: String {
        switch storage {
        case .literals(let captured): captured.withFunction { String(decoding: $0, as: UTF8.self) }
        case .strings(_, _, let function): function
        }
    }

    /// `"<file>:<line>"`, then `" in <function>"` when the function is known.
    public var description: String {
        let function = self.function
        return function.isEmpty ? "\(file):\(line)" : "\(file):\(line) in \(function)"
    }

    /// Equal when file, line and function read the same, however they are stored.
    public static func == (lhs: CodeLocation, rhs: CodeLocation) -> Bool {
        lhs.line == rhs.line
            && lhs.withFile { left in rhs.withFile { right in left.elementsEqual(right) } }
            && lhs.withFunction { left in rhs.withFunction { right in left.elementsEqual(right) } }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(line)
        withFile { Self.combine($0, into: &hasher) }
        withFunction { Self.combine($0, into: &hasher) }
    }

    private static func combine(_ bytes: UnsafeBufferPointer<UInt8>, into hasher: inout Hasher) {
        hasher.combine(bytes.count)
        hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
    }

    /// Calls `body` with the file's UTF-8 bytes, without making a `String` of a literal (for encoders in this
    /// package).
    package func withFile<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        switch storage {
        case .literals(let captured): captured.withFile(body)
        case .strings(var file, _, _): file.withUTF8(body)
        }
    }

    /// Calls `body` with the function's UTF-8 bytes, without making a `String` of a literal (for encoders in this
    /// package).
    package func withFunction<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        switch storage {
        case .literals(let captured): captured.withFunction(body)
        case .strings(_, _, var function): function.withUTF8(body)
        }
    }
}

/// How an event stores where it was added: pointers to the `#fileID` and `#function` literals, their lengths and
/// the line, in 24 bytes and without reference counting.
///
/// Every event in a stream's log carries one, so its size is part of the cost of every `add`. In a producer-only
/// loop against the stream before locations (about 105 ns per add on the development machine), this form adds
/// about 5 ns; storing the two `StaticString`s (57 bytes) added about 12 ns, and a reference-counted form (an
/// enum that may hold `String`s, 50 bytes) about 30 ns.
///
/// ## Why `@unchecked Sendable` is safe here
///
/// The pointers come from `StaticString`s with a pointer representation, which point at string literals in the
/// binary's constant data: immutable, and valid for the life of the process. Nothing ever writes through them. A
/// literal without a pointer representation is stored as `nil` (read as empty), never as a pointer into a
/// temporary; the counts are clamped to the literal's own length, so reads stay inside it. The struct's fields
/// are `let`s: a copy shared across threads is only ever read.
struct CapturedLocation: @unchecked Sendable {
    private let filePointer: UnsafePointer<UInt8>?
    private let functionPointer: UnsafePointer<UInt8>?
    private let fileCount: UInt16
    private let functionCount: UInt16
    private let lineNumber: UInt32

    /// No location.
    static let none = CapturedLocation()

    private init() {
        (filePointer, functionPointer, fileCount, functionCount, lineNumber) = (nil, nil, 0, 0, 0)
    }

    /// Keeps the literals' addresses. A literal the compiler stored as a single scalar instead (never `#fileID` or
    /// `#function`) reads as empty; a file or function name beyond 65,535 bytes, or a line beyond 2³², is clamped.
    init(file: StaticString, line: UInt, function: StaticString) {
        (filePointer, fileCount) = Self.address(of: file)
        (functionPointer, functionCount) = Self.address(of: function)
        lineNumber = UInt32(clamping: line)
    }

    private static func address(of text: StaticString) -> (UnsafePointer<UInt8>?, UInt16) {
        guard text.hasPointerRepresentation else { return (nil, 0) }
        return (text.utf8Start, UInt16(clamping: text.utf8CodeUnitCount))
    }

    var isNone: Bool { filePointer == nil && lineNumber == 0 && functionPointer == nil }
    var line: UInt { UInt(lineNumber) }

    func withFile<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        body(UnsafeBufferPointer(start: filePointer, count: Int(fileCount)))
    }

    func withFunction<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        body(UnsafeBufferPointer(start: functionPointer, count: Int(functionCount)))
    }
}

