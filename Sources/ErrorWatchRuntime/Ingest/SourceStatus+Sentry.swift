import ErrorStreaming
import ErrorWatchIngest
import ErrorWatchUI

extension SourceStatus {
    /// The id of the row of the Sentry client `key` on `receiver`.
    static func sentryID(key: String, receiver: SentryEndpoint) -> String { "sentry:\(key)@\(receiver)" }

    /// The `Sources` pane's view of a Sentry SDK client on `receiver`: one row per client and release, or per
    /// client address for requests that never decoded.
    init(_ client: SentrySourceStatus, receiver: SentryEndpoint) {
        var state = client.envelopes == 1 ? "1 envelope" : "\(client.envelopes) envelopes"
        if client.attachments > 0 { state += " · \(client.attachments) attachments (not kept)" }
        if client.skippedItems > 0 { state += " · \(client.skippedItems) items skipped" }
        if client.rateLimited > 0 { state += " · \(client.rateLimited) refused (429)" }
        let problems = Int(clamping: client.badRequests)
        let health: StatusHealth =
            problems > 0 || client.rateLimited > 0 ? .degraded : (client.lastProblem == nil ? .ok : .degraded)
        self.init(
            id: Self.sentryID(key: client.key, receiver: receiver), kind: .sentry, name: client.displayName,
            detail: client.peer, state: state, health: health, events: client.events, badLines: problems,
            lastProblem: client.lastProblem, lastEventAt: client.lastEventAt)
    }
}
