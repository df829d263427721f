import Foundation

/// The default classification of errors from the standard library and Foundation.
extension Classification {
    static func knownClassification(of error: any Error) -> Classification? {
        switch error {
        case is CancellationError:
            return Classification(
                category: .expected, code: ErrorCode("C", 0), userMessage: "",
                technicalMessage: "CancellationError: the task was cancelled", typeName: typeName(of: error))
        case let error as URLError:
            return url(error.code, description: String(describing: error))
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
            let ns = error as NSError
            // `URLError.Code(rawValue:)` is failable in corelibs Foundation and not on Darwin; `as` fits both.
            if ns.domain == NSURLErrorDomain, let code = URLError.Code(rawValue: ns.code) as URLError.Code? {
                return url(code, description: ns.description)
            }
            if ns.domain == NSPOSIXErrorDomain, let code = POSIXErrorCode(rawValue: Int32(truncatingIfNeeded: ns.code))
            {
                return posix(code, description: ns.description)
            }
            return nil
        }
    }

    private static func url(_ code: URLError.Code, description: String) -> Classification {
        let category: ErrorCategory
        var message: String?
        switch code {
        case .cancelled, .userCancelledAuthentication:
            category = .expected
            message = ""
        case .notConnectedToInternet, .dataNotAllowed, .internationalRoamingOff:
            category = .userActionable
            message = "You are offline. Check your connection and try again."
        case .userAuthenticationRequired, .clientCertificateRequired:
            category = .userActionable
            message = "Please sign in again."
        case .timedOut, .networkConnectionLost, .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed,
            .badServerResponse, .resourceUnavailable, .callIsActive:
            category = .transient
            message = code == .timedOut ? "The server took too long to respond. Please try again." : nil
        case .badURL, .unsupportedURL:
            category = .bug
        default:
            category = .unrecoverable
        }
        return Classification(
            category: category, code: ErrorCode("N", abs(code.rawValue)), userMessage: message,
            technicalMessage: "URLError \(code.rawValue): \(description)", typeName: String(reflecting: URLError.self))
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
            typeName: String(reflecting: POSIXError.self))
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
