#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// An error another process reported (over the wire, OTLP, Sentry, a log line), as one value from the moment it is
/// decoded to the screen and the store: what the producer said of the error (its type, messages, code and category
/// as sent, its stack and location, its report), its ``provenance`` (who, where, when), and its fingerprint, made
/// once.
///
/// It is the ``ClassifiedError`` added to the dashboard's ``ErrorStream``, so alerts, counts and filters treat it
/// like a local one: ``Classification`` reports the *remote* type name, and the fingerprint groups by it. The event
/// it is added with carries it again in its context (``ErrorContext/remote``), so every consumer reads its fields
/// without casting the error back. As a ``LocatedError``, the event reports the producer's location, not the line
/// that added it.
///
/// ```swift
/// if let error = RemoteError(event, provenance: provenance) {
///     stream.add(error, context: event.errorContext(for: error))
/// }
/// ```
public struct RemoteError: ClassifiedError, LocatedError, Sendable, Hashable, CustomStringConvertible {
    /// Every member, held once: copies of the error (its stream event's `error` and its context's
    /// ``ErrorContext/remote``, the listeners' copies) share one storage instead of retaining its twenty-odd strings
    /// each.
    private var storage: Storage

    /// The members of a remote error.
    private struct Fields: Hashable, Sendable {
        var typeName: String
        var message: String
        var code: ErrorCode
        var codeText: String?
        var category: ErrorCategory
        var isClassified: Bool
        var userMessage: String
        var logMessage: String?
        var severity: ErrorSeverity
        var stackTrace: String?
        var sourceLocation: CodeLocation?
        var report: ExceptionReport?
        var producerFingerprint: String?
        var provenance: Provenance
        var templateFingerprint: String
    }

    /// The shared storage of a ``RemoteError``: copy on write.
    ///
    /// `@unchecked Sendable` is safe: `fields` is written only after ``RemoteError/makeUnique()``, which first copies
    /// the storage unless this value holds the only reference to it. So a storage two values (or two threads) can
    /// reach is never written again, and a storage being written is reachable from one value only, which Swift's
    /// exclusivity rules keep to one thread at a time.
    private final class Storage: @unchecked Sendable {
        var fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    /// Makes this value the only holder of its storage before a member is written: copies the members first when
    /// another value shares them.
    private mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.fields) }
    }

    /// Writes one member, first making this value the only holder of its storage (``makeUnique()``).
    private mutating func write<Value>(_ member: WritableKeyPath<Fields, Value>, _ value: Value) {
        makeUnique()
        storage.fields[keyPath: member] = value
    }

    /// The producer's fully qualified type name (`exception.type`).
    public var typeName: String { get { storage.fields.typeName } set { write(\.typeName, newValue) } }

    /// The producer's technical message (`exception.message`), without the type name.
    public var message: String { get { storage.fields.message } set { write(\.message, newValue) } }

    /// The stable code: the producer's code read as an ``ErrorCode`` when it is one, else `X-0` (for
    /// ``Classification``; what is shown is ``codeText``).
    public var code: ErrorCode { get { storage.fields.code } set { write(\.code, newValue) } }

    /// The code exactly as the producer sent it (`L-042`, `40001`, `ERR_CONN_RESET`); `nil` when it sent none.
    public var codeText: String? { get { storage.fields.codeText } set { write(\.codeText, newValue) } }

    /// The category; `unrecoverable` for ``Classification`` when the producer sent none, in which case
    /// ``isClassified`` is `false` and the dashboard shows it as unclassified.
    public var category: ErrorCategory { get { storage.fields.category } set { write(\.category, newValue) } }

    /// Whether the producer said which category the error is.
    public var isClassified: Bool { get { storage.fields.isClassified } set { write(\.isClassified, newValue) } }

    /// The sentence for the user: the producer's; empty when it sent none (nothing is invented).
    public var userMessage: String { get { storage.fields.userMessage } set { write(\.userMessage, newValue) } }

    /// A log-derived error's own sentence (the line's `msg`, `event`, rendered `@mt`…) when its ``message`` is the
    /// exception's and says something else.
    public var logMessage: String? { get { storage.fields.logMessage } set { write(\.logMessage, newValue) } }

    /// The severity; the category's default when the producer sent none.
    public var severity: ErrorSeverity { get { storage.fields.severity } set { write(\.severity, newValue) } }

    /// The producer's stack trace (`exception.stacktrace`), if it sent one.
    public var stackTrace: String? { get { storage.fields.stackTrace } set { write(\.stackTrace, newValue) } }

    /// Where the producer raised the error (`code.filepath`, `code.lineno`, `code.function`), if it said.
    public var sourceLocation: CodeLocation? {
        get { storage.fields.sourceLocation }
        set { write(\.sourceLocation, newValue) }
    }

    /// What an error reporter SDK sent beyond the common members (exception chain, frames with source lines and
    /// variables, tags, contexts, breadcrumbs); set by the receivers that read such reports (Sentry), else `nil`.
    public var report: ExceptionReport? { get { storage.fields.report } set { write(\.report, newValue) } }

    /// The producer's own grouping key (`fingerprint`), if it sent one: when set it is ``fingerprint``.
    public var producerFingerprint: String? {
        get { storage.fields.producerFingerprint }
        set { write(\.producerFingerprint, newValue) }
    }

    /// Who sent it, from where, and when; set by the receiver.
    public var provenance: Provenance { get { storage.fields.provenance } set { write(\.provenance, newValue) } }

    /// The fingerprint made from what failed, used when the producer sent none of its own: made once, when the
    /// error is made (``Fingerprint/make(typeName:code:source:logMessage:message:)``).
    public var templateFingerprint: String { storage.fields.templateFingerprint }

    /// Creates a remote error from its parts; `source` is the component that reported it, part of its fingerprint.
    /// The fingerprint is made here, once. A `code` other than `X-0` is its ``codeText``. Without a provenance (an
    /// app relaying an error it made itself), it happened now and nothing else is known of where.
    public init(
        typeName: String, message: String, code: ErrorCode = ErrorCode("X", 0), codeText: String?? = .none,
        category: ErrorCategory? = .unrecoverable, userMessage: String? = nil, logMessage: String? = nil,
        severity: ErrorSeverity? = nil, stackTrace: String? = nil, sourceLocation: CodeLocation? = nil,
        report: ExceptionReport? = nil, producerFingerprint: String? = nil, source: String? = nil,
        provenance: Provenance? = nil
    ) {
        let codeText = codeText ?? (code == ErrorCode("X", 0) ? nil : code.description)
        let logMessage = logMessage.flatMap { $0.isEmpty || $0 == message ? nil : $0 }
        storage = Storage(
            Fields(
                typeName: typeName, message: message, code: code, codeText: codeText,
                category: category ?? .unrecoverable, isClassified: category != nil,
                userMessage: userMessage ?? (category?.defaultUserMessage ?? ""), logMessage: logMessage,
                severity: severity ?? category?.defaultSeverity ?? .error, stackTrace: stackTrace,
                sourceLocation: sourceLocation, report: report, producerFingerprint: producerFingerprint,
                provenance: provenance ?? Provenance(time: Date()),
                templateFingerprint: Fingerprint.make(
                    typeName: typeName, code: codeText, source: source, logMessage: logMessage, message: message)))
    }

    /// ``Fingerprint/make(typeName:code:source:logMessage:message:)``: the type name and code as sent, the
    /// component that reported it, and the template of the messages.
    ///
    /// ```swift
    /// RemoteError.fingerprint(typeName: "Error", code: nil, logMessage: nil, message: "row 12 changed")
    /// // "Error###row <num> changed"
    /// ```
    public static func fingerprint(
        typeName: String, code: String?, source: String? = nil, logMessage: String?, message: String
    ) -> String {
        Fingerprint.make(typeName: typeName, code: code, source: source, logMessage: logMessage, message: message)
    }

    /// The producer's message as sent (the type is shown beside it, from ``typeName``), or the type name alone.
    public var technicalMessage: String { message.isEmpty ? typeName : message }

    /// The producer's own ``producerFingerprint`` when it sent one; otherwise ``templateFingerprint``: errors of one
    /// type, code and component whose messages differ only in ids, numbers and the like share an alert and an issue.
    public var fingerprint: String { producerFingerprint ?? templateFingerprint }

    /// `"<remote type>: <message>"`, or the type name alone.
    public var description: String { message.isEmpty ? typeName : "\(typeName): \(message)" }

    /// Two remote errors are equal when every member is: the same storage, or storages holding the same members.
    public static func == (left: RemoteError, right: RemoteError) -> Bool {
        left.storage === right.storage || left.storage.fields == right.storage.fields
    }

    /// Hashes every member, as ``==`` compares them.
    public func hash(into hasher: inout Hasher) { hasher.combine(storage.fields) }
}
