/// An error that knows what kind of failure it is, adopted by an app's own error types.
///
/// Only ``category`` and ``code`` are required; the messages, severity and fingerprint have defaults.
///
/// ```swift
/// enum LoginError: ClassifiedError {
///     case wrongPassword, offline
///
///     var category: ErrorCategory { .userActionable }
///     var code: ErrorCode {
///         switch self {
///         case .wrongPassword: "A-401"
///         case .offline: "N-1009"
///         }
///     }
///     var userMessage: String {
///         switch self {
///         case .wrongPassword: "Wrong password."
///         case .offline: "You are offline."
///         }
///     }
/// }
/// ```
public protocol ClassifiedError: Error {
    /// What kind of failure this is, which decides who can do something about it.
    var category: ErrorCategory { get }
    /// The stable code shown to users and written to logs, like `N-503`.
    var code: ErrorCode { get }
    /// A short sentence for the user. Defaults to a generic sentence for the category.
    var userMessage: String { get }
    /// A precise description for logs and bug reports. Defaults to the type name and the error's description.
    var technicalMessage: String { get }
    /// How serious the error is. Defaults by category (see ``ErrorCategory/defaultSeverity``).
    var severity: ErrorSeverity { get }
    /// The key under which alerts group this error. Defaults to the type name and the code.
    var fingerprint: String { get }
    /// The fully qualified type name shown for this error. Defaults to the Swift type's name; an error that stands
    /// for one from elsewhere (decoded from another process, say) reports the original type.
    var typeName: String { get }
}

extension ClassifiedError {
    /// A generic sentence for the category (see ``ErrorCategory/defaultUserMessage``).
    public var userMessage: String { category.defaultUserMessage }

    /// `"<Module.Type>: <description>"`.
    public var technicalMessage: String { "\(String(reflecting: Self.self)): \(String(describing: self))" }

    /// The category's default severity.
    public var severity: ErrorSeverity { category.defaultSeverity }

    /// `"<Module.Type>#<code>"`, so every error of one type and code lands in one alert.
    public var fingerprint: String { Classification.fingerprint(typeName: typeName, code: code) }

    /// The Swift type's fully qualified name, for example `"MyApp.LoginError"`.
    public var typeName: String { TypeNameCache.name(of: Self.self) }
}

extension ErrorCategory {
    /// The severity an error of this category gets when nobody says otherwise.
    ///
    /// `.bug` is `.critical`, `.unrecoverable` is `.error`, `.userActionable` and `.transient` are `.warning`,
    /// `.expected` is `.debug`.
    public var defaultSeverity: ErrorSeverity {
        switch self {
        case .bug: .critical
        case .unrecoverable: .error
        case .userActionable, .transient: .warning
        case .expected: .debug
        }
    }

    /// A generic sentence for the user, used when an error does not provide its own.
    public var defaultUserMessage: String {
        switch self {
        case .bug: "Something went wrong on our side. We have been notified."
        case .userActionable: "Please check your input or connection and try again."
        case .transient: "The service is temporarily unavailable. Please try again shortly."
        case .unrecoverable: "Something went wrong."
        case .expected: ""
        }
    }
}
