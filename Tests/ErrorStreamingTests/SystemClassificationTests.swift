import ErrorStreaming
import Foundation
import Testing

/// Pins the classification of Foundation's own errors, thrown as a client that imports Foundation throws them.
///
/// ErrorStreaming itself does not import Foundation: it recognises `URLError` and URL-domain `NSError`s by
/// their bridged domain and code, so these tests hold the whole result, type name included, to what it was.
struct SystemClassificationTests {
    @Test func offlineURLErrorIsUserActionable() {
        let error = URLError(.notConnectedToInternet)
        let c = Classification(of: error)
        #expect(c.category == .userActionable)
        #expect(c.code == "N-1009")
        #expect(c.severity == .warning)
        #expect(c.userMessage == "You are offline. Check your connection and try again.")
        #expect(c.technicalMessage == "URLError -1009: \(String(describing: error))")
        #expect(c.typeName == String(reflecting: URLError.self))
        #expect(c.fingerprint == "\(String(reflecting: URLError.self))#N-1009")
    }

    @Test func refusedConnectionIsTransient() {
        let error = POSIXError(.ECONNREFUSED)
        let errno = Int(POSIXErrorCode.ECONNREFUSED.rawValue)
        let c = Classification(of: error)
        #expect(c.category == .transient)
        #expect(c.code == ErrorCode("P", errno))
        #expect(c.severity == .warning)
        #expect(c.userMessage == ErrorCategory.transient.defaultUserMessage)
        #expect(c.technicalMessage == "POSIXError \(errno): \(String(describing: error))")
        #expect(c.typeName == String(reflecting: POSIXError.self))
        #expect(c.fingerprint == "\(String(reflecting: POSIXError.self))#P-\(errno)")
    }

    /// Every code of the URL table, and one outside it: a URLError and an NSError in its domain agree.
    @Test(arguments: [
        (URLError.Code.cancelled, ErrorCategory.expected, ""),
        (.userCancelledAuthentication, .expected, ""),
        (.notConnectedToInternet, .userActionable, "You are offline. Check your connection and try again."),
        (.dataNotAllowed, .userActionable, "You are offline. Check your connection and try again."),
        (.internationalRoamingOff, .userActionable, "You are offline. Check your connection and try again."),
        (.userAuthenticationRequired, .userActionable, "Please sign in again."),
        (.clientCertificateRequired, .userActionable, "Please sign in again."),
        (.timedOut, .transient, "The server took too long to respond. Please try again."),
        (.networkConnectionLost, .transient, ErrorCategory.transient.defaultUserMessage),
        (.cannotConnectToHost, .transient, ErrorCategory.transient.defaultUserMessage),
        (.cannotFindHost, .transient, ErrorCategory.transient.defaultUserMessage),
        (.dnsLookupFailed, .transient, ErrorCategory.transient.defaultUserMessage),
        (.badServerResponse, .transient, ErrorCategory.transient.defaultUserMessage),
        (.resourceUnavailable, .transient, ErrorCategory.transient.defaultUserMessage),
        (.callIsActive, .transient, ErrorCategory.transient.defaultUserMessage),
        (.badURL, .bug, ErrorCategory.bug.defaultUserMessage),
        (.unsupportedURL, .bug, ErrorCategory.bug.defaultUserMessage),
        (.fileDoesNotExist, .unrecoverable, ErrorCategory.unrecoverable.defaultUserMessage),
    ])
    func urlCodeTable(code: URLError.Code, category: ErrorCategory, userMessage: String) {
        let errorCode = ErrorCode("N", abs(code.rawValue))
        for error: any Error in [URLError(code), NSError(domain: NSURLErrorDomain, code: code.rawValue)] {
            let c = Classification(of: error)
            #expect(c.category == category)
            #expect(c.code == errorCode)
            #expect(c.userMessage == userMessage)
            #expect(c.technicalMessage == "URLError \(code.rawValue): \(String(describing: error))")
            #expect(c.typeName == String(reflecting: URLError.self))
        }
    }

    @Test func posixDomainNSErrorIsClassifiedLikeAPOSIXError() {
        let error = NSError(domain: NSPOSIXErrorDomain, code: Int(POSIXErrorCode.ENETDOWN.rawValue))
        let c = Classification(of: error)
        #expect(c.category == .userActionable)
        #expect(c.code == ErrorCode("P", Int(POSIXErrorCode.ENETDOWN.rawValue)))
        #expect(c.userMessage == "You are offline. Check your connection and try again.")
        #expect(c.technicalMessage == "POSIXError \(POSIXErrorCode.ENETDOWN.rawValue): \(String(describing: error))")
        #expect(c.typeName == String(reflecting: POSIXError.self))
    }

    @Test func otherNSErrorDomainsAreUnrecoverable() {
        let error = NSError(domain: NSCocoaErrorDomain, code: CocoaError.fileNoSuchFile.rawValue)
        let c = Classification(of: error)
        #expect(c.category == .unrecoverable)
        #expect(c.code == "X-0")
    }
}
