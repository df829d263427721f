import ErrorWatchStore
import ErrorWatchUI
import ErrorWatchWire
import Foundation

/// One issue as `errorwatch issues --json` prints it. Member names are part of the interface (README).
struct IssueJSON: Encodable {
    struct Version: Encodable {
        var version: String
        var first_seen: String
        var count: Int
    }

    struct Occurrence: Encodable {
        var timestamp: String
        var received_at: String?
        var message: String
        var log_message: String?
        var user_message: String?
        var service: String?
        var version: String?
        var environment: String?
        var host: String?
        var pid: Int?
        var source: String?
        var trace_id: String?
        var span_id: String?
        var stack: String?
        var handling: String?
        var attributes: [String: String]?
    }

    struct HistoryLine: Encodable {
        var at: String
        var action: String
        var actor: String
    }

    var id: Int64
    var fingerprint: String
    var title: String
    var type: String
    var code: String
    /// `null` when nobody classified the issue.
    var category: String?
    var status: String
    /// The status as the dashboard's detail view says it (`regressed`, `unresolved, new`, `resolved in the release
    /// after 1.4.0`).
    var status_text: String
    var new: Bool
    var count: Int
    var first_seen: String
    var last_seen: String
    var versions: [Version]
    var environments: [String]
    var services: [String]
    var resolved_through: String?
    var ignored_until: String?
    var ignored_until_count: Int?
    var latest_occurrence: Occurrence?
    var history: [HistoryLine]?

    init(_ issue: StoredIssue, at now: Date, full: Bool = false) {
        let record = issue.record
        id = issue.id
        fingerprint = record.fingerprint
        title = issue.title
        type = record.qualifiedTypeName
        code = record.shownCode
        category = record.category?.rawValue
        status = record.triage.status.rawValue
        new = record.triage.isNew(firstSeen: record.firstSeen, at: now)
        status_text = record.triage.description(firstSeen: record.firstSeen, at: now)
        count = record.count
        first_seen = Self.time(record.firstSeen)
        last_seen = Self.time(record.lastSeen)
        versions = record.versions.map {
            Version(version: $0.version, first_seen: Self.time($0.firstSeen), count: $0.count)
        }
        environments = record.environments
        services = record.services
        resolved_through = record.triage.resolvedThrough
        ignored_until = record.triage.ignoredUntil.map(Self.time)
        ignored_until_count = record.triage.ignoredUntilCount
        guard full else { return }
        latest_occurrence = issue.occurrences.first.map { o in
            Occurrence(
                timestamp: Self.time(o.timestamp), received_at: o.receivedAt.map(Self.time), message: o.message,
                log_message: o.logMessage,
                user_message: o.userMessage, service: o.service, version: o.version, environment: o.environment,
                host: o.host, pid: o.pid, source: o.source, trace_id: o.traceID, span_id: o.spanID, stack: o.stack,
                handling: o.handling, attributes: o.attributes.isEmpty ? nil : o.attributes)
        }
        history = issue.history.map { HistoryLine(at: Self.time($0.at), action: $0.action, actor: $0.actor) }
    }

    /// RFC 3339 in UTC with microseconds, as the wire format writes times.
    static func time(_ date: Date) -> String { RFC3339.format(date) }

    static func json<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// The human list: id, status, count, last seen, versions, title. Every value a producer chose is shown as the
    /// dashboard shows it: escapes and controls made visible (``Sanitizer``), never passed to the terminal.
    static func table(_ issues: [StoredIssue], at now: Date) -> String {
        var lines = ["ID     STATUS      COUNT      LAST SEEN             VERSIONS        TITLE"]
        for issue in issues {
            let r = issue.record
            let status = r.triage.word(firstSeen: r.firstSeen, at: now)
            let versions = safe(r.versions.map(\.version).suffix(2).joined(separator: ","), limit: 40)
            lines.append(
                pad(String(issue.id), 6) + " " + pad(status, 11) + " " + pad(String(r.count), 10) + " "
                    + pad(String(time(r.lastSeen).prefix(19)), 21) + " " + pad(versions.isEmpty ? "—" : versions, 15)
                    + " " + safe(issue.title, limit: 120))
        }
        return lines.joined(separator: "\n")
    }

    /// One line for stderr naming an issue that failed a `--fail-on` gate: id, status, newest version, title.
    static func gateLine(_ issue: StoredIssue, at now: Date) -> String {
        let r = issue.record
        let version = IssueVersion.newest(in: r.versions).map { " in " + safe($0.version, limit: 40) } ?? ""
        return "errorwatch: issue \(issue.id) is \(r.triage.word(firstSeen: r.firstSeen, at: now))\(version): "
            + safe(issue.title, limit: 200)
    }

    /// `show`: the issue, its versions and history, and its latest occurrence in full, every value made safe.
    static func details(_ issue: StoredIssue, at now: Date) -> String {
        let r = issue.record
        let code = r.shownCode.isEmpty ? "—" : safe(r.shownCode, limit: 64)
        let category = r.category?.rawValue ?? "—"
        var lines: [String] = [
            "issue \(issue.id): \(safe(issue.title, limit: 300))",
            "  fingerprint  \(safe(r.fingerprint, limit: 300))",
            "  type         \(safe(r.qualifiedTypeName, limit: 200))  code \(code)  category \(category)",
            "  status       \(safe(r.triage.description(firstSeen: r.firstSeen, at: now), limit: 200))",
            "  count        \(r.count)",
            "  first seen   \(time(r.firstSeen))",
            "  last seen    \(time(r.lastSeen))",
            "  services     \(r.services.isEmpty ? "—" : safe(r.services.joined(separator: ", "), limit: 300))",
            "  environments \(r.environments.isEmpty ? "—" : safe(r.environments.joined(separator: ", "), limit: 300))",
        ]
        if !r.versions.isEmpty {
            lines.append("  versions")
            for v in r.versions {
                lines.append(
                    "    \(pad(safe(v.version, limit: 60), 16)) \(pad(String(v.count), 10)) first seen \(time(v.firstSeen))")
            }
        }
        if !issue.history.isEmpty {
            lines.append("  history")
            for h in issue.history {
                lines.append("    \(time(h.at))  \(safe(h.action, limit: 200))  (\(safe(h.actor, limit: 100)))")
            }
        }
        if let o = issue.occurrences.first {
            lines.append("  latest occurrence")
            lines.append(
                "    time         \(time(o.timestamp))" + (o.receivedAt.map { "  (received \(time($0)))" } ?? ""))
            let fields: [(String, String?)] = [
                ("log message", o.logMessage), ("message", o.message), ("user message", o.userMessage),
                ("service", o.service), ("version", o.version), ("environment", o.environment), ("host", o.host),
                ("pid", o.pid.map(String.init)), ("source", o.source), ("trace id", o.traceID), ("span id", o.spanID),
                ("handling", o.handling),
            ]
            for case (let name, let value?) in fields { lines.append("    \(pad(name, 12)) \(safe(value))") }
            for (key, value) in o.attributes.sorted(by: { $0.key < $1.key }) {
                lines.append("    \(pad(safe(key, limit: 60), 12)) \(safe(value))")
            }
            if let stack = o.stack {
                lines.append("    stack")
                // Line by line, so the stack keeps its lines; tabs indent as spaces, as in the detail view.
                lines += stack.split(separator: "\n", omittingEmptySubsequences: false).prefix(500).map {
                    "      " + safe(String($0).replacingOccurrences(of: "\t", with: "    "), limit: 400)
                }
            }
        }
        return lines.joined(separator: "\n")
    }

    /// `text` as the dashboard draws it: every control and escape shown as a visible glyph (`␛[2J`), never passed
    /// to the terminal; at most `limit` characters.
    static func safe(_ text: String, limit: Int = 8_192) -> String { Sanitizer.sanitize(text, limit: limit) }

    private static func pad(_ text: String, _ width: Int) -> String {
        let shown = DisplayWidth.of(text)
        return shown >= width ? text : text + String(repeating: " ", count: width - shown)
    }
}
