import ErrorStreaming
import Foundation

/// A failure the user can inject into the demo app, or a repair: what its keys do.
public enum DemoAction: String, Sendable, Hashable, CaseIterable {
    case invalidCredentials
    case toggleOffline
    case toggleSlowNetwork
    case sessionExpired
    case serverErrorBurst
    case softwareBug
    case errorStorm
    case logInNow
    case toggleAutoLogin
    case recoverAll
}

extension DemoApp {
    /// The heading of the demo's keys in help and docs.
    public static let title = "Demo app: break it and heal it"

    /// The demo's keys, in the order help and docs list them.
    public static let keys: [DemoKey] = [
        DemoKey(key: "i", action: .invalidCredentials, summary: "Log in with invalid credentials", hint: "bad login"),
        DemoKey(key: "o", action: .toggleOffline, summary: "Network offline on/off", hint: "offline"),
        DemoKey(key: "w", action: .toggleSlowNetwork, summary: "Slow network and timeouts on/off", hint: "slow"),
        DemoKey(key: "x", action: .sessionExpired, summary: "Expire the session (401)", hint: "expire"),
        DemoKey(key: "s", action: .serverErrorBurst, summary: "Server-error burst (5xx)", hint: "5xx"),
        DemoKey(key: "b", action: .softwareBug, summary: "Hit a software bug", hint: "bug"),
        DemoKey(key: "S", action: .errorStorm, summary: "Error storm", hint: "storm"),
        DemoKey(key: "l", action: .logInNow, summary: "Log in now", hint: "login"),
        DemoKey(key: "a", action: .toggleAutoLogin, summary: "Auto-login on/off"),
        DemoKey(key: "r", action: .recoverAll, summary: "Recover everything", hint: "recover"),
    ]

    /// The action of `key`, if it is one of the demo's.
    public static func action(for key: Character) -> DemoAction? { keys.first { $0.key == key }?.action }
}
