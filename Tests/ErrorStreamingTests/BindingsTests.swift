import ErrorStreaming
import Testing

struct SignInCredentials: Sendable {
    var user: String
    var password: String
}

/// A login that fails for a wrong password, like the demo app's AuthService.
@Sendable func signIn(_ credentials: SignInCredentials) async throws -> String {
    guard credentials.password == "secret" else { throw SignInError.wrongPassword }
    return "welcome \(credentials.user)"
}

let fourSignInTaps = [
    SignInCredentials(user: "ann", password: "oops"),
    SignInCredentials(user: "ann", password: "secret"),
    SignInCredentials(user: "bob", password: "typo"),
    SignInCredentials(user: "bob", password: "secret"),
]

/// Renders outcomes as text, so tests compare them with `==`.
func describeOutcome(_ result: Result<String, any Error>) -> String {
    switch result {
    case .success(let value): "success(\(value))"
    case .failure(let error): "failure(\(error))"
    }
}

/// A throwing sequence: yields 1, 2, then fails.
func oneTwoFail() -> AsyncThrowingStream<Int, any Error> {
    AsyncThrowingStream { continuation in
        continuation.yield(1)
        continuation.yield(2)
        continuation.finish(throwing: SignInError.offline)
    }
}

struct BindingsTests {
    @Test func materializedTurnsTheFailureIntoALastElement() async {
        var seen: [String] = []
        for await result in oneTwoFail().materialized() {
            switch result {
            case .success(let value): seen.append("\(value)")
            case .failure(let error): seen.append("failure(\(error))")
            }
        }
        #expect(seen == ["1", "2", "failure(offline)"])
    }

    @Test func valuesAndFailuresSplitResults() async {
        var values: [Int] = []
        for await value in oneTwoFail().materialized().values() { values.append(value) }
        var failures: [String] = []
        for await error in oneTwoFail().materialized().failures() { failures.append("\(error)") }
        #expect(values == [1, 2])
        #expect(failures == ["offline"])
    }

    @Test func loginBindingSurvivesFailuresOnOneSubscription() async {
        let (taps, tapper) = AsyncStream.makeStream(of: SignInCredentials.self)
        let outcomes = taps.performEach { try await signIn($0) }
        var iterator = outcomes.makeAsyncIterator()
        var seen: [String] = []
        for credentials in fourSignInTaps {
            tapper.yield(credentials)
            if let outcome = await iterator.next() { seen.append(describeOutcome(outcome)) }
        }
        tapper.finish()
        #expect(await iterator.next() == nil)
        #expect(
            seen == [
                "failure(wrongPassword)", "success(welcome ann)", "failure(wrongPassword)", "success(welcome bob)",
            ])
    }

    @Test func catchingOutsideTheOperationEndsTheBindingAfterTheFirstFailure() async {
        let (taps, tapper) = AsyncStream.makeStream(of: SignInCredentials.self)
        for credentials in fourSignInTaps { tapper.yield(credentials) }
        tapper.finish()
        var seen: [String] = []
        do {
            for try await greeting in taps.map({ try await signIn($0) }) { seen.append("success(\(greeting))") }
        } catch {
            seen.append("failure(\(error))")
        }
        // The first wrong password ended the loop: the three taps after it were never processed.
        #expect(seen == ["failure(wrongPassword)"])
    }

    @Test func reportingFailuresAddsThemToTheStreamAndPassesEverythingOn() async {
        let stream = ErrorStream()
        let events = stream.events(bufferingPolicy: .unbounded)
        let taps = AsyncStream { continuation in
            for credentials in fourSignInTaps { continuation.yield(credentials) }
            continuation.finish()
        }
        var count = 0
        let reported = taps.performEach { try await signIn($0) }
            .reportingFailures(to: stream, context: ErrorContext(source: "auth.login"))
        for await _ in reported { count += 1 }
        stream.finish()
        var sources: [String] = []
        for await event in events { sources.append("\(event.source):\(event.error)") }
        #expect(count == 4)
        #expect(sources == ["auth.login:wrongPassword", "auth.login:wrongPassword"])
    }

    @Test func upstreamErrorsStillEndPerformEach() async {
        var seen: [String] = []
        do {
            for try await outcome in oneTwoFail().performEach({ $0 * 10 }) {
                seen.append("\(try outcome.get())")
            }
        } catch {
            seen.append("upstream \(error)")
        }
        #expect(seen == ["10", "20", "upstream offline"])
    }
}
