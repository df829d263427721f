import ErrorStreaming
import Foundation

/// A coalesced, user-facing alert for the Errors pane, produced upstream by an alert coalescer.
///
/// The reducer upserts by ``fingerprint``: a record with a known fingerprint replaces the previous one (its count,
/// `lastSeen`, title…). Records of `.background` origin are ignored: background errors never alert.
public struct AlertRecord: Sendable, Hashable {
    /// Identity of the alert, for example `"N-503|sync"`.
    public var fingerprint: String
    /// The user message: `Server unavailable`.
    public var title: String
    /// The stable code users read out to support.
    public var code: ErrorCode?
    /// The code as its producer wrote it (`L-042`, `40001`, `ERR_CONN_RESET`), shown instead of ``code``; empty
    /// when a producer gave none, `nil` for this process's own errors (which show ``code``).
    public var codeText: String?
    /// Colours the marker and the code.
    public var severity: ErrorSeverity
    /// Shown on wide panes, in the category colour; `nil` when nobody classified the error (shown as `—`).
    public var category: ErrorCategory?
    /// How many errors were coalesced into this alert; shown as `×12` when above 1.
    public var count: Int
    /// When the first coalesced error happened (its producer's time).
    public var firstSeen: Date
    /// When the latest happened (its producer's time).
    public var lastSeen: Date
    /// When the dashboard read the first and the latest of them: an alert is what this dashboard raised while it
    /// ran, so its age, fading and expiry run from these (an old log opened now still shows what failed). Equal to
    /// ``firstSeen`` and ``lastSeen`` for this process's own errors.
    public var firstReceived: Date
    public var lastReceived: Date
    /// The services whose errors it coalesced (the first few), for `service:` queries.
    public var services: [String] = []
    /// The component that raised it.
    public var source: String
    /// The error type, so the per-type filter also applies to alerts; empty when unknown.
    public var typeName: String
    /// `.background` alerts are dropped by the reducer.
    public var origin: ErrorOrigin

    /// Creates an alert record.
    public init(
        fingerprint: String, title: String, code: ErrorCode? = nil, severity: ErrorSeverity,
        category: ErrorCategory?, count: Int = 1, firstSeen: Date, lastSeen: Date, source: String,
        typeName: String = "", origin: ErrorOrigin = .user, codeText: String? = nil, firstReceived: Date? = nil,
        lastReceived: Date? = nil, services: [String] = []
    ) {
        self.firstReceived = firstReceived ?? firstSeen
        self.lastReceived = lastReceived ?? lastSeen
        self.services = services
        self.codeText = codeText
        self.fingerprint = fingerprint
        self.title = title
        self.code = code
        self.severity = severity
        self.category = category
        self.count = count
        self.firstSeen = firstSeen
        self.lastSeen = lastSeen
        self.source = source
        self.typeName = typeName
        self.origin = origin
    }

    /// The code as shown: the producer's own text, else the stable code, else nothing.
    public var shownCode: String { codeText ?? code?.description ?? "" }
}
