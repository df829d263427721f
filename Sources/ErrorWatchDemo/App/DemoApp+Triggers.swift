import ErrorStreaming
import Logging

extension DemoApp {
    /// Performs a failure or a repair the user asked for by keypress.
    public func perform(_ action: DemoAction) {
        switch action {
        case .logInNow:
            appLog.info("user tapped log in")
            loginTaps.yield(.demo)
        case .invalidCredentials:
            appLog.info("user tapped log in with a wrong password")
            faults.update { $0.rejectNextLogin = true }
            loginTaps.yield(Credentials(email: Credentials.demo.email, password: "hunter2"))
        case .toggleOffline:
            let offline = faults.update { f in
                f.offline.toggle()
                return f.offline
            }
            appLog.notice(offline ? "network went offline" : "network is back")
        case .toggleSlowNetwork:
            let slow = faults.update { f in
                f.slowNetwork.toggle()
                return f.slowNetwork
            }
            appLog.notice(slow ? "network is slow, requests over 2 s time out" : "network speed is normal")
        case .sessionExpired:
            appLog.notice("server revoked the session token")
            faults.update { $0.sessionRevoked = true }
            requestRefresh()
        case .serverErrorBurst:
            appLog.notice("server starts answering 503")
            faults.update { $0.serverErrorsRemaining += configuration.burstSize }
            spawn { await self.runFeedBurst() }
        case .softwareBug:
            appLog.notice("server sends a profile with a plan the client does not know")
            faults.update { $0.unknownPlanNext = true }
            requestRefresh()
        case .errorStorm:
            spawn { await self.runStorm() }
        case .toggleAutoLogin:
            let on = session.toggleAutoLogin()
            appLog.notice(on ? "auto-login on" : "auto-login off")
        case .recoverAll:
            faults.recoverAll()
            appLog.notice("all faults cleared")
            if session.current == nil, session.autoLogin { loginTaps.yield(.demo) }
        }
    }

    /// The feed screen loads its sections in quick succession; while the server answers 503, each fails
    /// and the coalescer folds them into one alert with a count.
    func runFeedBurst() async {
        for section in 0..<configuration.burstSize {
            do {
                _ = try await auth.fetchFeed(section: section)
            } catch is CancellationError {
                return
            } catch {
                stream.add(
                    error,
                    context: ErrorContext(
                        source: "feed", severity: .error, origin: .user, metadata: ["section": "\(section)"]))
            }
        }
    }

    /// Floods the stream with `stormRate` errors a second for `stormDuration`, in 10 ms batches, and stops when the
    /// duration is over even if it could not add that many: a rate the machine cannot reach must not stretch the
    /// storm (10 M/s for 5 s once went on adding for more than 45 s, batch after late batch).
    func runStorm() async {
        guard startStorm() else { return }
        defer { endStorm() }
        appLog.warning("error storm: \(configuration.stormRate) errors/s for \(configuration.stormDuration)")
        let step = Duration.milliseconds(10)
        let perBatch = max(1, configuration.stormRate / 100)
        let kinds = StormError.allCases
        let start = clock.now
        let end = start.advanced(by: configuration.stormDuration)
        var added = 0
        var batch = 0
        storm: while clock.now < end {
            for i in 0..<perBatch {
                // A batch of 100,000 (10 M/s) takes longer than the storm has left on a slow machine: the clock
                // is read every ``stormClockCheckInterval`` errors, which costs little beside adding them.
                if i > 0, i % Self.stormClockCheckInterval == 0, clock.now >= end { break storm }
                let kind = kinds[(batch + i) % kinds.count]
                stream.add(kind, context: ErrorContext(source: "feed.images", severity: .warning, origin: .user))
                added += 1
            }
            batch += 1
            // Paced by deadlines, not by sleeping a step after each batch, so the rate holds however long a
            // batch takes to add; a batch that ran late is not made up for after the end.
            let deadline = min(start.advanced(by: step * batch), end)
            do { try await clock.sleep(until: deadline) } catch { break }
        }
        appLog.notice("error storm over: \(added) errors added")
    }

    /// How many errors a storm adds between two looks at the clock.
    static let stormClockCheckInterval = 1_000
}
