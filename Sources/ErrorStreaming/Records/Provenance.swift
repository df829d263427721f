#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Where an event read from outside the process came from, and when, as its producer said and as the dashboard
/// read it: the one value every consumer reads (the Logs pane, the detail view, the issues, the store), set once by
/// the receiver that read the event. What the producer did not send stays `nil`.
///
/// ```swift
/// let provenance = Provenance(time: sent, service: "checkout", receivedFrom: "file app.log", receivedAt: now,
///                             channel: .file)
/// ```
public struct Provenance: Sendable, Hashable {
    /// When it happened, as the producer says (the line's own time; when it carried none, the previous line's, or
    /// when it was read).
    public var time: Date
    /// The producing service (`service.name`).
    public var service: String?
    /// Its version (`service.version`), as written (`2.4.1`, `a1b2c3d`).
    public var serviceVersion: String?
    /// Where it runs (`deployment.environment.name`).
    public var environment: String?
    /// The producing host (`host.name`) and process (`process.pid`).
    public var host: String?
    public var pid: Int?
    /// The trace and span it happened in (32 and 16 lower-case hex digits), when the producer said it traced.
    public var traceID: String?
    public var spanID: String?
    /// Where the dashboard read it (`socket #3 on unix:/tmp/ew.sock`, `file app.log`), and when.
    public var receivedFrom: String?
    public var receivedAt: Date?
    /// The kind of way in that read it.
    public var channel: EventChannel?
    /// Whether the producer said whether a user caused it (`origin`): when it did not, the dashboard treats an
    /// error as a user's (it alerts) but never shows an origin nobody sent.
    public var originSent: Bool
    /// Whether an earlier reading of the same file or recording counted it in the store: shown again, never counted
    /// twice.
    public var countedBefore: Bool

    /// A provenance; everything but the time is optional.
    public init(
        time: Date, service: String? = nil, serviceVersion: String? = nil, environment: String? = nil,
        host: String? = nil, pid: Int? = nil, traceID: String? = nil, spanID: String? = nil,
        receivedFrom: String? = nil, receivedAt: Date? = nil, channel: EventChannel? = nil, originSent: Bool = true,
        countedBefore: Bool = false
    ) {
        self.time = time
        self.service = service
        self.serviceVersion = serviceVersion
        self.environment = environment
        self.host = host
        self.pid = pid
        self.traceID = traceID
        self.spanID = spanID
        self.receivedFrom = receivedFrom
        self.receivedAt = receivedAt
        self.channel = channel
        self.originSent = originSent
        self.countedBefore = countedBefore
    }

    /// How far its own time is from when it was read, when that is more than a day and it came by a live way in (a
    /// connection, an exporter): a clock or a time zone that is off. A file, a pipe or a recording may hold old
    /// lines, so theirs are never judged.
    public var skew: TimeInterval? {
        guard let receivedAt, channel?.isLive == true else { return nil }
        let difference = time.timeIntervalSince(receivedAt)
        return abs(difference) > 86_400 ? difference : nil
    }
}
