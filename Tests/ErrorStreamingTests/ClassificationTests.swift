import ErrorStreaming
import Foundation
import Testing

/// An app error that classifies itself, relying on the defaults for everything but category and code.
enum PaymentError: ClassifiedError {
    case cardDeclined
    case serverUnavailable

    var category: ErrorCategory {
        switch self {
        case .cardDeclined: .userActionable
        case .serverUnavailable: .transient
        }
    }

    var code: ErrorCode {
        switch self {
        case .cardDeclined: "P-402"
        case .serverUnavailable: "N-503"
        }
    }
}

struct SomethingOdd: Error {}

struct ClassificationTests {
    @Test func classifiedErrorDescribesItselfWithDefaults() {
        let c = Classification(of: PaymentError.cardDeclined)
        #expect(c.category == .userActionable)
        #expect(c.code == "P-402")
        #expect(c.severity == .warning)
        #expect(c.userMessage == ErrorCategory.userActionable.defaultUserMessage)
        #expect(c.typeName.hasSuffix("PaymentError"))
        #expect(c.technicalMessage.hasSuffix("PaymentError: cardDeclined"))
        #expect(c.fingerprint == "\(c.typeName)#P-402")
    }

    @Test func cancellationIsExpected() {
        let c = Classification(of: CancellationError())
        #expect(c.category == .expected)
        #expect(c.code == "C-0")
        #expect(c.severity == .debug)
    }

    @Test(arguments: [
        (URLError.Code.notConnectedToInternet, ErrorCategory.userActionable, ErrorCode("N-1009")),
        (.timedOut, .transient, "N-1001"),
        (.networkConnectionLost, .transient, "N-1005"),
        (.cancelled, .expected, "N-999"),
        (.badURL, .bug, "N-1000"),
    ])
    func urlErrorsMapByCode(code: URLError.Code, category: ErrorCategory, errorCode: ErrorCode) {
        let c = Classification(of: URLError(code))
        #expect(c.category == category)
        #expect(c.code == errorCode)
    }

    @Test func urlDomainNSErrorIsClassifiedLikeAURLError() {
        let error = NSError(domain: NSURLErrorDomain, code: URLError.Code.timedOut.rawValue)
        #expect(Classification(of: error).category == .transient)
        #expect(Classification(of: error).code == "N-1001")
    }

    @Test(arguments: [
        (POSIXErrorCode.ENETUNREACH, ErrorCategory.userActionable),
        (.ECONNREFUSED, .transient),
        (.ETIMEDOUT, .transient),
        (.ECANCELED, .expected),
        (.EACCES, .unrecoverable),
    ])
    func posixErrorsMapByErrno(code: POSIXErrorCode, category: ErrorCategory) {
        #expect(Classification(of: POSIXError(code)).category == category)
        #expect(Classification(of: POSIXError(code)).code == ErrorCode("P", Int(code.rawValue)))
        let bridged = NSError(domain: NSPOSIXErrorDomain, code: Int(code.rawValue))
        #expect(Classification(of: bridged).category == category)
    }

    @Test func decodingAndEncodingErrorsAreBugs() throws {
        struct Model: Codable { var id: Int }
        let decoding = #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Model.self, from: Data(#"{"id":"seven"}"#.utf8))
        }
        let c = Classification(of: try #require(decoding))
        #expect(c.category == .bug)
        #expect(c.code == "B-1")
        #expect(c.technicalMessage.contains("type mismatch"))
        #expect(c.technicalMessage.contains("'id'"))
        let encoding = EncodingError.invalidValue(Double.nan, .init(codingPath: [], debugDescription: "NaN"))
        #expect(Classification(of: encoding).category == .bug)
        #expect(Classification(of: encoding).code == "B-2")
    }

    @Test func anythingElseIsUnrecoverableWithItsTypeName() {
        let c = Classification(of: SomethingOdd())
        #expect(c.category == .unrecoverable)
        #expect(c.code == "X-0")
        #expect(c.technicalMessage.contains("SomethingOdd"))
        #expect(c.severity == .error)
    }

    @Test func reportCarriesTheContext() {
        let context = ErrorContext(source: "sync", origin: .background, attempt: 2)
        let report = ErrorReport(
            PaymentError.serverUnavailable, context: context, timestamp: Date(timeIntervalSince1970: 5))
        #expect(report.origin == .background)
        #expect(report.source == "sync")
        #expect(report.attempt == 2)
        #expect(report.classification.code == "N-503")
        let event = ErrorEvent(
            error: SomethingOdd(), sequence: 1, timestamp: Date(timeIntervalSince1970: 9), context: context)
        #expect(ErrorReport(event).timestamp == Date(timeIntervalSince1970: 9))
        #expect(ErrorReport(event).context == context)
        #expect(report.description.hasPrefix("N-503 transient sync attempt 2 (background): "))
        #expect(report.description.hasSuffix("PaymentError: serverUnavailable"))
    }

    @Test func reportBugAddsABugWithFileAndLineToTheStream() async throws {
        let stream = ErrorStream()
        let events = stream.events(bufferingPolicy: .unbounded)
        let line: UInt = #line + 1
        let bug = reportBug("cart without a user", to: stream, source: "checkout")
        stream.finish()
        var received: [ErrorEvent] = []
        for await event in events { received.append(event) }
        let event = try #require(received.first)
        let reported = try #require(event.error as? BugReport)
        #expect(reported == bug)
        #expect(reported.line == line)
        #expect(reported.file.hasSuffix("ClassificationTests.swift"))
        #expect(event.severity == .critical)
        #expect(event.source == "checkout")
        #expect(event.metadata["line"] == String(line))
        let c = Classification(of: event.error)
        #expect(c.category == .bug)
        #expect(c.fingerprint == "bug@\(reported.file):\(line)")
    }
}

struct ReactionPolicyTests {
    @Test func standardPolicyReactsByCategory() {
        let policy = ReactionPolicy.standard
        #expect(policy.reaction(to: PaymentError.cardDeclined) == .alert)
        #expect(policy.reaction(to: CancellationError()) == .ignore)
        #expect(policy.reaction(to: SomethingOdd()) == .alert)
        guard case .retry(let attempts, _) = policy.reaction(to: PaymentError.serverUnavailable) else {
            Issue.record("a transient error should be retried")
            return
        }
        #expect(attempts == 3)
    }

    @Test func backgroundErrorsNeverAlert() {
        let alertEverything = ReactionPolicy { _, _ in .alert }
        #expect(alertEverything.reaction(to: PaymentError.cardDeclined, origin: .user) == .alert)
        #expect(alertEverything.reaction(to: PaymentError.cardDeclined, origin: .background) == .ignore)
        let overridden = alertEverything.overriding("P-402", with: .alert)
        #expect(overridden.reaction(to: PaymentError.cardDeclined, origin: .background) == .ignore)
    }

    @Test func overridesWinOverTheRule() {
        let policy = ReactionPolicy.standard
            .overriding("P-402", with: .startOver)
            .overriding("N-503", with: .fallBackToCache)
        #expect(policy.reaction(to: PaymentError.cardDeclined) == .startOver)
        #expect(policy.reaction(for: ErrorReport(PaymentError.serverUnavailable)) == .fallBackToCache)
        #expect(policy.reaction(to: SomethingOdd()) == .alert)
    }
}
