import ErrorStreaming
import ErrorStreamingTesting
import Foundation
import Synchronization
import Testing

// The code samples of docs/handling.md, compiled and run. Each region between `// sample: NAME` and
// `// end sample` must equal the code block after `<!-- sample: NAME -->` in the document, which
// `documentSamplesMatchThisFile` checks, so the two cannot drift apart.

// sample: classified-error
enum CheckoutError: ClassifiedError {
    case cardDeclined
    case serverUnavailable

    var category: ErrorCategory { self == .cardDeclined ? .userActionable : .transient }
    var code: ErrorCode { self == .cardDeclined ? "P-402" : "N-503" }
    var userMessage: String { self == .cardDeclined ? "Your card was declined." : "Server unavailable" }
}
// end sample

// sample: handler-owner
@MainActor final class CheckoutModel {
    var banner = ""
    let parent: ErrorHandler

    // The node holds its action strongly; the action holds the model weakly, so the model can deinitialise.
    lazy var errors: ErrorHandler = parent.catch(CheckoutError.self) { [weak self] (error: CheckoutError) in
        await self?.show(error)
    }

    init(parent: ErrorHandler) { self.parent = parent }

    func show(_ error: CheckoutError) { banner = error.userMessage }
}
// end sample

struct ReadmeSampleTests {
    @Test func streamBasics() async {
        // sample: stream-basics
        let stream = ErrorStream()
        // Subscribed when created: nothing added from here on is missed, even before the first `next()`.
        let checkout = stream.updates(of: CheckoutError.self)
        let everything = stream.events(bufferingPolicy: .bufferingNewest(1024))

        stream.add(CheckoutError.cardDeclined, context: ErrorContext(source: "checkout", origin: .user))
        stream.add(URLError(.timedOut))  // from any thread or actor; never waits for a listener
        stream.finish()  // ends every listener's loop once it has read what was added

        var declined: [CheckoutError] = []
        for await error in checkout { declined.append(error) }  // [.cardDeclined]
        var lines: [String] = []
        for await event in everything { lines.append("#\(event.sequence) \(event.source)") }  // #1 checkout, #2 app
        // end sample
        #expect(declined == [.cardDeclined])
        #expect(lines == ["#1 checkout", "#2 app"])
    }

    @Test func handlerTree() async {
        // sample: handler-tree
        let stream = ErrorStream()
        let log = Mutex<[String]>([])

        let root = ErrorHandler(forwardingTo: stream)  // every error reaches the stream first
        let session = root.catch(SignInError.sessionExpired) {  // the app restarts the login flow
            log.withLock { $0.append("restart login") }
        }
        let screen = session.catch(SignInError.self) { (error: SignInError) in  // the screen shows the rest
            log.withLock { $0.append("banner: \(error)") }
        }

        screen.throw(SignInError.sessionExpired)
        screen.throw(SignInError.wrongPassword) { handled in  // `finally`: did some node consume it?
            log.withLock { $0.append("handled: \(handled)") }
        }
        // log: ["restart login", "banner: wrongPassword", "handled: true"]
        // end sample
        #expect(log.withLock { $0 } == ["restart login", "banner: wrongPassword", "handled: true"])
        #expect(stream.statistics.added == 2)
    }

    @Test func handlingReport() async {
        // sample: handling-report
        let stream = ErrorStream()
        let reports = stream.handlingReports()  // subscribed when created, like `events`

        let root = ErrorHandler(forwardingTo: stream)
        let app = root.catch(name: "app") { error in  // sees every error first
            if case SignInError.offline = error { throw CancellationError() }  // rewrites one
            throw error  // and lets the others through
        }
        let session = app.catch(SignInError.sessionExpired) {}  // named "SignInError.sessionExpired"

        session.throw(SignInError.sessionExpired)  // the session node consumes it
        session.throw(SignInError.wrongPassword)  // "app" looks and lets it through
        session.throw(SignInError.offline)  // "app" rewrites it; nothing below takes a CancellationError
        root.throw(SignInError.wrongPassword)  // thrown at the root: no action on its way
        stream.finish()

        var lines: [String] = []
        for await report in reports {  // join them to `stream.events` by sequence
            let path = report.path.joined(separator: ", ")
            lines.append("#\(report.sequence) [\(path)] \(report.outcome) \(report.handled)")
        }
        // #1 [app, SignInError.sessionExpired] consumed by SignInError.sessionExpired true
        // #2 [app] passed false
        // #3 [app] rewritten by app to CancellationError false
        // #4 [] unhandled false
        // end sample
        #expect(
            lines == [
                "#1 [app, SignInError.sessionExpired] consumed by SignInError.sessionExpired true",
                "#2 [app] passed false",
                "#3 [app] rewritten by app to CancellationError false",
                "#4 [] unhandled false",
            ])
    }

    @MainActor @Test func handlerOwner() async {
        weak var released: CheckoutModel?
        do {
            let model = CheckoutModel(parent: ErrorHandler())
            released = model
            await model.errors.handle(CheckoutError.cardDeclined)
            #expect(model.banner == "Your card was declined.")
        }
        #expect(released == nil)
    }

    @Test func classification() {
        // sample: classification
        let declined = Classification(of: CheckoutError.cardDeclined)
        // declined.category == .userActionable, declined.code.description == "P-402"
        let timeout = Classification(of: URLError(.timedOut))
        // timeout.category == .transient, timeout.code == "N-1001"
        let unknown = Classification(of: CocoaError(.fileNoSuchFile))
        // unknown.category == .unrecoverable, and unknown.technicalMessage names the type
        // end sample
        #expect(declined.category == .userActionable && declined.code.description == "P-402")
        #expect(timeout.category == .transient && timeout.code == "N-1001")
        #expect(unknown.category == .unrecoverable && unknown.technicalMessage.contains("CocoaError"))
    }

    @Test func reactionsAndReportBug() {
        // sample: reactions
        let stream = ErrorStream()
        let policy = ReactionPolicy.standard
            .overriding("A-401", with: .startOver)
            .overriding("N-503", with: .fallBackToCache)

        let onTap = policy.reaction(to: CheckoutError.cardDeclined)  // .alert
        let inSync = policy.reaction(to: CheckoutError.cardDeclined, origin: .background)  // .ignore
        let cached = policy.reaction(to: CheckoutError.serverUnavailable)  // .fallBackToCache
        let again = policy.reaction(to: URLError(.timedOut))  // .retry(maxAttempts: 3, backoff: …)

        func total(of cart: [Int]?) -> Int {
            guard let cart else {
                reportBug("checkout without a cart", to: stream)  // a .bug, with this file and line
                return 0
            }
            return cart.reduce(0, +)
        }
        // end sample
        #expect(onTap == .alert && inSync == .ignore && cached == .fallBackToCache)
        #expect(again == .retry(maxAttempts: 3, backoff: .exponential()))
        #expect(total(of: nil) == 0)
        #expect(stream.statistics.added == 1)
    }

    @Test func coalescing() {
        // sample: coalescing
        let clock = ManualClock()
        var alerts = AlertCoalescer(clock: clock, configuration: .standard)  // 1 alert a minute, 30 s quiet
        let report = ErrorReport(CheckoutError.serverUnavailable)

        let first = alerts.receive(report)  // .alert: show "Server unavailable"
        for _ in 1...9 {
            clock.advance(by: .seconds(1))
            alerts.receive(report)  // .coalesced: update the badge
        }
        let title = alerts.activeAlerts.first?.title  // "Server unavailable ×10"
        // end sample
        guard case .alert = first else {
            Issue.record("the first report should alert")
            return
        }
        #expect(title == "Server unavailable ×10")
    }

    @Test func retrying() async throws {
        // sample: retry
        let stream = ErrorStream()
        let clock = ManualClock()  // in the app: ContinuousClock()
        let attempts = Mutex(0)

        let sync = Task {
            try await retry(
                maxAttempts: 3, backoff: .exponential(initial: .milliseconds(200), jitter: 0),
                clock: clock, reportingTo: stream, context: ErrorContext(source: "sync")
            ) {
                let attempt = attempts.withLock { count in
                    count += 1
                    return count
                }
                if attempt < 3 { throw URLError(.timedOut) }  // reported with context.attempt 1, then 2
                return "synced"
            }
        }
        await clock.waitForSleepers()
        clock.advance(by: .milliseconds(200))  // the first wait
        await clock.waitForSleepers()
        clock.advance(by: .milliseconds(400))  // the second, twice as long
        let result = try await sync.value  // "synced"
        // end sample
        #expect(result == "synced")
        #expect(stream.statistics.added == 2)
    }

    @Test func bindings() async {
        // sample: bindings
        let stream = ErrorStream()
        let banner = StateRelay("")
        let (taps, tap) = AsyncStream.makeStream(of: SignInCredentials.self)

        let binding = Task {
            let outcomes = taps.performEach { try await signIn($0) }  // caught per tap: the binding survives
                .reportingFailures(to: stream, context: ErrorContext(source: "auth.login"))
            for await outcome in outcomes {
                switch outcome {
                case .success(let greeting): banner.accept(greeting)
                case .failure(let error): banner.accept("Login failed: \(error)")
                }
            }
        }
        tap.yield(SignInCredentials(user: "ann", password: "oops"))  // fails, reported to the stream
        tap.yield(SignInCredentials(user: "ann", password: "secret"))  // still logs in
        tap.finish()
        await binding.value
        // banner.value == "welcome ann"
        // end sample
        #expect(banner.value == "welcome ann")
        #expect(stream.statistics.added == 1)
    }

    /// The README carries the same samples, plus the stream's own, under the same markers.
    @Test func readmeSamplesMatchThisFile() throws {
        let here = URL(fileURLWithPath: #filePath)
        let root = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appending(path: "README.md"), encoding: .utf8)
        let source = try String(contentsOf: here, encoding: .utf8)
        let documented = DocSampleExtractor.documentSamples(readme)
        let compiled = DocSampleExtractor.sourceSamples(source)
        #expect(Set(documented.map(\.name)) == Set(compiled.keys).subtracting(["handling-report"]))
        for sample in documented {
            #expect(sample.code == compiled[sample.name], "README.md sample '\(sample.name)' differs")
        }
    }

    @Test func documentSamplesMatchThisFile() throws {
        let here = URL(fileURLWithPath: #filePath)
        let root = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let document = try String(contentsOf: root.appending(path: "docs/handling.md"), encoding: .utf8)
        let source = try String(contentsOf: here, encoding: .utf8)
        let documented = DocSampleExtractor.documentSamples(document)
        let compiled = DocSampleExtractor.sourceSamples(source)
        #expect(
            documented.map(\.name) == [
                "handler-tree", "handler-owner", "handling-report", "classified-error", "classification",
                "reactions", "coalescing", "retry", "bindings",
            ])
        #expect(Set(documented.map(\.name)) == Set(compiled.keys).subtracting(["stream-basics"]))
        for sample in documented {
            #expect(sample.code == compiled[sample.name], "docs/handling.md sample '\(sample.name)' differs")
        }
    }
}

/// Pulls the named samples out of the document and out of this file.
enum DocSampleExtractor {
    static func documentSamples(_ text: String) -> [(name: String, code: String)] {
        var samples: [(name: String, code: String)] = []
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)[...]
        while let line = lines.popFirst() {
            guard line.hasPrefix("<!-- sample: "), line.hasSuffix(" -->") else { continue }
            let name = String(line.dropFirst("<!-- sample: ".count).dropLast(" -->".count))
            guard lines.popFirst() == "```swift" else { continue }
            var code: [Substring] = []
            while let next = lines.popFirst(), next != "```" { code.append(next) }
            samples.append((name, code.joined(separator: "\n")))
        }
        return samples
    }

    static func sourceSamples(_ text: String) -> [String: String] {
        var samples: [String: String] = [:]
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)[...]
        while let line = lines.popFirst() {
            let trimmed = line.drop { $0 == " " }
            guard trimmed.hasPrefix("// sample: ") else { continue }
            let name = String(trimmed.dropFirst("// sample: ".count))
            var code: [Substring] = []
            while let next = lines.popFirst(), next.drop(while: { $0 == " " }) != "// end sample" { code.append(next) }
            let indent = code.filter { !$0.isEmpty }.map { $0.prefix { $0 == " " }.count }.min() ?? 0
            samples[name] = code.map { $0.dropFirst(min(indent, $0.count)) }.joined(separator: "\n")
        }
        return samples
    }
}
