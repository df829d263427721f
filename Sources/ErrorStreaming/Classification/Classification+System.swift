#if canImport(FoundationEssentials)
    import FoundationEssentials  // POSIXError, without the rest of Foundation
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc  // POSIXErrorCode
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The default classification of errors from the standard library and Foundation.
///
/// ErrorStreaming does not import Foundation, which costs a Linux process about 7 MB of resident memory, so
/// `URLError` and `NSError` are recognised by what every Swift `Error` bridges: `_domain` and `_code`. A
/// `URLError` and an `NSError` in `NSURLErrorDomain` both report `"NSURLErrorDomain"` and the URL error code;
/// an `NSError` in `NSPOSIXErrorDomain` reports the errno. `POSIXError` lives in FoundationEssentials.
extension Classification {
    static func knownClassification(of error: any Error) -> Classification? {
        switch error {
        case is CancellationError:
            return Classification(
                category: .expected, code: ErrorCode("C", 0), userMessage: "",
                technicalMessage: "CancellationError: the task was cancelled", typeName: typeName(of: error))
        case let error as POSIXError:
            return posix(error.code, description: String(describing: error))
        case let error as DecodingError:
            return Classification(
                category: .bug, code: ErrorCode("B", 1),
                technicalMessage: "DecodingError: \(describe(decoding: error))", typeName: typeName(of: error))
        case let error as EncodingError:
            return Classification(
                category: .bug, code: ErrorCode("B", 2),
                technicalMessage: "EncodingError: \(String(describing: error))", typeName: typeName(of: error))
        default:
            switch error._domain {
            case urlErrorDomain:
                return url(error._code, description: String(describing: error))
            case posixErrorDomain:
                guard let code = POSIXErrorCode(rawValue: Int32(truncatingIfNeeded: error._code)) else { return nil }
                return posix(code, description: String(describing: error))
            default:
                return nil
            }
        }
    }

    /// `NSURLErrorDomain`, the `_domain` of `URLError` and of URL-loading `NSError`s.
    private static let urlErrorDomain = "NSURLErrorDomain"
    /// `NSPOSIXErrorDomain`, the `_domain` of an `NSError` carrying an errno.
    private static let posixErrorDomain = "NSPOSIXErrorDomain"
    /// `String(reflecting: URLError.self)`: what the type name of a URL error always was, `NSError` or not.
    private static let urlErrorTypeName = "Foundation.URLError"

    /// Classifies a `URLError.Code` raw value; the names are `URLError.Code`'s.
    private static func url(_ code: Int, description: String) -> Classification {
        let category: ErrorCategory
        var message: String?
        switch code {
        case -999,  // cancelled
            -1012:  // userCancelledAuthentication
            category = .expected
            message = ""
        case -1009,  // notConnectedToInternet
            -1020,  // dataNotAllowed
            -1018:  // internationalRoamingOff
            category = .userActionable
            message = "You are offline. Check your connection and try again."
        case -1013,  // userAuthenticationRequired
            -1206:  // clientCertificateRequired
            category = .userActionable
            message = "Please sign in again."
        case -1001:  // timedOut
            category = .transient
            message = "The server took too long to respond. Please try again."
        case -1005,  // networkConnectionLost
            -1004,  // cannotConnectToHost
            -1003,  // cannotFindHost
            -1006,  // dnsLookupFailed
            -1011,  // badServerResponse
            -1008,  // resourceUnavailable
            -1019:  // callIsActive
            category = .transient
        case -1000,  // badURL
            -1002:  // unsupportedURL
            category = .bug
        default:
            category = .unrecoverable
        }
        return Classification(
            category: category, code: ErrorCode("N", abs(code)), userMessage: message,
            technicalMessage: "URLError \(code): \(description)", typeName: urlErrorTypeName)
    }

    private static func posix(_ code: POSIXErrorCode, description: String) -> Classification {
        let category: ErrorCategory
        var message: String?
        switch code {
        case .ENETDOWN, .ENETUNREACH:
            category = .userActionable
            message = "You are offline. Check your connection and try again."
        case .ECONNREFUSED, .ECONNRESET, .ECONNABORTED, .ETIMEDOUT, .EHOSTUNREACH, .EHOSTDOWN, .EAGAIN, .EPIPE:
            category = .transient
        case .ECANCELED:
            category = .expected
            message = ""
        default:
            category = .unrecoverable
        }
        return Classification(
            category: category, code: ErrorCode("P", Int(code.rawValue)), userMessage: message,
            technicalMessage: "POSIXError \(code.rawValue): \(description)",
            typeName: TypeNameCache.name(of: POSIXError.self))
    }

    private static func describe(decoding error: DecodingError) -> String {
        let (kind, context): (String, DecodingError.Context)
        switch error {
        case .typeMismatch(let type, let c): (kind, context) = ("type mismatch for \(type)", c)
        case .valueNotFound(let type, let c): (kind, context) = ("value of \(type) not found", c)
        case .keyNotFound(let key, let c): (kind, context) = ("key '\(key.stringValue)' not found", c)
        case .dataCorrupted(let c): (kind, context) = ("data corrupted", c)
        @unknown default: return String(describing: error)
        }
        let path = context.codingPath.map(\.stringValue).joined(separator: ".")
        return "\(kind) at '\(path)': \(context.debugDescription)"
    }
}
