import ErrorStreaming
import Foundation
import Testing

@testable import ErrorWatchIngest
@testable import ErrorWatchWire

/// `docs/sentry.md`'s mapping table is kept true by the mapper: each row's Sentry field is read from a sample event,
/// the event is mapped (and written as NDJSON), and the value must be where the row says; every destination the
/// mapper fills has a row.
struct SentryDocsTests {
    struct Row: Sendable, CustomTestStringConvertible {
        var sentry: String
        var destination: String
        var testDescription: String { sentry }
    }

    static let sample = #"""
        {"event_id":"82db82e17ecd4b24911d62035e5731a6","timestamp":"2026-11-25T18:14:19.820000Z","level":"warning",
         "logger":"shop.stock","platform":"python","release":"shop@9.9","environment":"qa","server_name":"box-3",
         "fingerprint":["payments"],
         "exception":{"values":[
           {"type":"KeyError","value":"'sku'"},
           {"type":"InventoryError","value":"shelf is empty","mechanism":{"type":"threading","handled":false},
            "stacktrace":{"frames":[
              {"function":"run","filename":"threading.py","lineno":982,"in_app":false},
              {"function":"restock","module":"shop.stock","filename":"shop/stock.py","lineno":33,"colno":9,
               "in_app":true,"context_line":"    raise InventoryError(shelf)","vars":{"shelf":"'north'"}}]}}]},
         "tags":{"region":"eu-1"},"extra":{"order":"A-19"},
         "contexts":{"trace":{"trace_id":"40beb41695bc4d4fadba2d6f6b171953","span_id":"92d5ea3c50388607","op":"task"},
                     "runtime":{"name":"CPython"}},
         "user":{"email":"ada@example.com"},
         "request":{"method":"POST","url":"http://shop/pay"},
         "breadcrumbs":{"values":[{"message":"signed in","category":"auth"}]}}
        """#

    static let messageSample = #"{"logentry":{"message":"order %s failed","formatted":"order 7 failed"}}"#

    static func rows() throws -> [Row] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/sentry.md")
        let text = try String(contentsOf: url, encoding: .utf8)
        let start = try #require(text.range(of: "## Mapping"))
        let end = text.range(of: "\n## ", range: start.upperBound..<text.endIndex)?.lowerBound ?? text.endIndex
        return text[start.upperBound..<end].split(separator: "\n").filter {
            $0.hasPrefix("| `")
        }
        .map { line in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            return Row(sentry: name(cells[1]) ?? "", destination: name(cells[2]) ?? "")
        }
    }

    /// The first backticked name in `text`.
    static func name(_ text: String) -> String? {
        let parts = text.split(separator: "`", omittingEmptySubsequences: false)
        return parts.count >= 3 ? String(parts[1]) : nil
    }

    /// The value at a dotted path with `[index]` steps (`-1` is the last), as text.
    static func value(_ object: Any, at path: String) -> String? {
        var current: Any? = object
        for step in path.split(separator: ".") {
            var key = Substring(step)
            var index: Int?
            if let open = step.firstIndex(of: "[") {
                key = step[..<open]
                index = Int(step[step.index(after: open)...].dropLast())
            }
            current = (current as? [String: Any])?[String(key)]
            if let index, let list = current as? [Any] {
                current = index < 0 ? list[list.count + index] : list[index]
            }
        }
        if let list = current as? [Any] { return list.compactMap { SentryJSON.text($0) }.joined(separator: "|") }
        return SentryJSON.text(current)
    }

    /// The destinations the mapper fills, as the table names them.
    static let reportDestinations: Set<String> = [
        "report.exceptions", "report.exceptions[0].handled", "report.frames.contextLine", "report.frames.variables",
        "report.frames.inApp", "report.frames.column", "report.tags", "report.contexts", "report.user",
        "report.request", "report.breadcrumbs", "report.about",
    ]

    static func landed(_ destination: String, _ value: String, _ mapped: SentryMappedEvent) throws -> Bool {
        let report = try #require(mapped.report)
        let frames = report.exceptions.flatMap(\.frames)
        switch destination {
        case "report.exceptions": return report.exceptions.contains { $0.type == value }
        case "report.exceptions[0].handled": return report.exceptions.first?.handled.map(String.init) == value
        case "report.frames.contextLine": return frames.contains { $0.contextLine == value }
        case "report.frames.variables": return frames.contains { $0.variables.contains { $0.value == value } }
        case "report.frames.inApp": return frames.last?.inApp.map(String.init) == value
        case "report.frames.column": return frames.contains { $0.column.map(String.init) == value }
        case "report.tags": return report.tags.contains { $0.value == value }
        case "report.contexts": return report.contexts.contains { $0.fields.contains { $0.value == value } }
        case "report.user": return report.user.contains { $0.value == value }
        case "report.request": return report.request.contains { $0.value == value }
        case "report.breadcrumbs": return report.breadcrumbs.contains { $0.message == value }
        case "report.about": return report.about.contains { $0.value == value }
        default:
            let line = try WireEncoder().encode(mapped.event)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
            guard let written = SentryJSON.text(json[destination]) else { return false }
            return written == value || written.contains(value)
        }
    }

    @Test(arguments: try SentryDocsTests.rows())
    func eachRowHoldsTrue(_ row: Row) throws {
        let text = row.sentry.hasPrefix("logentry") ? Self.messageSample : Self.sample
        let payload = try #require(SentryJSON.object(Array(text.utf8)[...]))
        let value = try #require(Self.value(payload, at: row.sentry), "the sample has no \(row.sentry)")
        let mapped = try #require(
            SentryEventMapper.map(type: "event", payload: payload, receivedAt: Date()).first)
        #expect(try Self.landed(row.destination, value, mapped), "\(row.sentry) → \(row.destination): \(value)")
    }

    @Test func everyReportDestinationHasARow() throws {
        let rows = try Self.rows()
        #expect(rows.count >= 28)
        #expect(!rows.contains { $0.sentry.isEmpty || $0.destination.isEmpty })
        let documented = Set(rows.map(\.destination))
        #expect(Self.reportDestinations.subtracting(documented).isEmpty)
        for member in ["exception.type", "exception.message", "severity", "source", "host.name", "time",
            "service.version", "deployment.environment.name", "trace_id", "span_id", "fingerprint", "code.filepath",
            "code.lineno", "code.function"]
        {
            #expect(documented.contains(member), "\(member) has no row")
        }
    }
}
