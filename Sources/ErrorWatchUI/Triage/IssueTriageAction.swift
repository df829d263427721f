import Foundation

/// A triage decision on one issue, from a key in the Issues view or from `errorwatch issues`.
public enum IssueTriageAction: Sendable, Hashable {
    /// Fixed: any further occurrence is a regression.
    case resolve
    /// Fixed in the next release: occurrences in every version up to the newest seen so far are expected; one in a
    /// newer version is a regression.
    case resolveInNextRelease
    /// Noise: hidden until the condition ends, then unresolved again.
    case ignore(IgnoreCondition)
    /// Open again.
    case reopen
    /// The user opened it: it is no longer marked new.
    case markOpened

    /// How long an ignore lasts.
    public enum IgnoreCondition: Sendable, Hashable {
        /// Until reopened.
        case forever
        /// For this many seconds.
        case duration(TimeInterval)
        /// Until this many more occurrences have been counted.
        case occurrences(Int)
    }

    /// What the action is called in the status line, history and `errorwatch issues`.
    public var summary: String {
        switch self {
        case .resolve: "resolved"
        case .resolveInNextRelease: "resolved in next release"
        case .ignore(.forever): "ignored"
        case .ignore(.duration(let seconds)): "ignored for \(IssueTriageAction.durationText(seconds))"
        case .ignore(.occurrences(let count)): "ignored until \(count) more"
        case .reopen: "reopened"
        case .markOpened: "opened"
        }
    }

    /// `3600` → `1h`, `90` → `90s`, `86400` → `1d`: the largest whole unit.
    public static func durationText(_ seconds: TimeInterval) -> String {
        let whole = Int(seconds.rounded())
        for (unit, size) in [("d", 86_400), ("h", 3_600), ("m", 60)] where whole >= size && whole % size == 0 {
            return "\(whole / size)\(unit)"
        }
        return "\(whole)s"
    }

    /// Parses `30s`, `15m`, `1h`, `1d`, `2w` into seconds; `nil` for anything else (no unit, zero, negative).
    public static func parseDuration(_ text: String) -> TimeInterval? {
        guard let unit = text.last, let amount = Int(text.dropLast()), amount > 0 else { return nil }
        let size: Int
        switch unit {
        case "s": size = 1
        case "m": size = 60
        case "h": size = 3_600
        case "d": size = 86_400
        case "w": size = 604_800
        default: return nil
        }
        let (product, overflow) = amount.multipliedReportingOverflow(by: size)
        return overflow ? nil : TimeInterval(product)
    }
}
