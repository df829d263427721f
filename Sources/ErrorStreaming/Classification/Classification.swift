import Synchronization

/// What an error is, as a plain value: category, code, messages, severity and the grouping fingerprint.
///
/// ``init(of:)`` classifies *any* error: a ``ClassifiedError`` as it describes itself, and everything else
/// by a sensible default (see ``init(of:)``). A `Classification` is what policies, reports and alerts work on.
///
/// ```swift
/// let c = Classification(of: URLError(.timedOut))
/// c.category   // .transient
/// c.code       // N-1001
/// ```
public struct Classification: Sendable, Hashable {
    /// What kind of failure it is.
    public var category: ErrorCategory
    /// The stable code, like `N-503`.
    public var code: ErrorCode
    /// A short sentence for the user.
    public var userMessage: String
    /// A precise description for logs and bug reports.
    public var technicalMessage: String
    /// How serious it is.
    public var severity: ErrorSeverity
    /// The fully qualified type name of the error, for example `"Foundation.URLError"`.
    public var typeName: String
    /// The key under which alerts group errors; by default type name and code.
    public var fingerprint: String

    /// Creates a classification from its parts; the fingerprint defaults to type name and code.
    public init(
        category: ErrorCategory,
        code: ErrorCode,
        userMessage: String? = nil,
        technicalMessage: String,
        severity: ErrorSeverity? = nil,
        typeName: String,
        fingerprint: String? = nil
    ) {
        self.category = category
        self.code = code
        self.userMessage = userMessage ?? category.defaultUserMessage
        self.technicalMessage = technicalMessage
        self.severity = severity ?? category.defaultSeverity
        self.typeName = typeName
        self.fingerprint = fingerprint ?? Self.fingerprint(typeName: typeName, code: code)
    }

    /// Classifies any error.
    ///
    /// - A ``ClassifiedError`` describes itself.
    /// - `CancellationError` is `.expected` (`C-0`).
    /// - `URLError` (also an `NSError` in `NSURLErrorDomain`): offline and authentication problems are
    ///   `.userActionable`, timeouts and lost or refused connections `.transient`, cancellation `.expected`,
    ///   a malformed URL a `.bug`; code `N-<|URLError code|>`, so `timedOut` is `N-1001`.
    /// - `POSIXError` (also an `NSError` in `NSPOSIXErrorDomain`): network down or unreachable is
    ///   `.userActionable`, refused, reset, timed-out connections and `EAGAIN` are `.transient`, `ECANCELED`
    ///   is `.expected`; code `P-<errno>`.
    /// - `DecodingError` (`B-1`) and `EncodingError` (`B-2`) are `.bug`s: our model disagrees with the data.
    /// - Anything else is `.unrecoverable` with code `X-0`, its type name in the technical message.
    public init(of error: any Error) {
        if let classified = error as? any ClassifiedError {
            self.init(classified)
        } else if let known = Self.knownClassification(of: error) {
            self = known
        } else {
            let typeName = Self.typeName(of: error)
            self.init(
                category: .unrecoverable, code: ErrorCode("X", 0),
                technicalMessage: "\(typeName): \(String(describing: error))", typeName: typeName)
        }
    }

    /// Copies what a ``ClassifiedError`` says about itself.
    public init(_ error: some ClassifiedError) {
        self.init(
            category: error.category,
            code: error.code,
            userMessage: error.userMessage,
            technicalMessage: error.technicalMessage,
            severity: error.severity,
            typeName: error.typeName,
            fingerprint: error.fingerprint)
    }

    /// The default fingerprint: `"<type name>#<code>"`.
    public static func fingerprint(typeName: String, code: ErrorCode) -> String { "\(typeName)#\(code)" }

    /// The fully qualified dynamic type name of an error, for example `"Foundation.URLError"`.
    public static func typeName(of error: any Error) -> String { TypeNameCache.name(of: type(of: error)) }
}

/// `String(reflecting:)` of a metatype walks runtime metadata and allocates; errors of one type arrive by the
/// thousand, so the names are computed once per type.
enum TypeNameCache {
    private static let names = Mutex<[ObjectIdentifier: String]>([:])

    static func name(of type: any Any.Type) -> String {
        let key = ObjectIdentifier(type)
        if let known = names.withLock({ $0[key] }) { return known }
        let name = String(reflecting: type)
        names.withLock { $0[key] = name }
        return name
    }
}
