import ErrorStreaming
import Foundation
import Testing

@testable import ErrorWatchWire

/// `docs/wire-format.md`'s members table is kept true by the code that reads the format: every key the decoders
/// know has a row, every closed set of values is listed, and each kind's required members are the ones marked.
struct WireFormatDocsTests {
    struct Row {
        var key: String
        var type: String
        var required: String
        var meaning: String
    }

    /// The rows of the table under `## Members`, by key.
    static func memberRows() throws -> [String: Row] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/wire-format.md")
        let text = try String(contentsOf: url, encoding: .utf8)
        let start = try #require(text.range(of: "## Members"))
        let end = try #require(text.range(of: "\n## ", range: start.upperBound..<text.endIndex))
        var rows: [String: Row] = [:]
        for line in text[start.upperBound..<end.lowerBound].split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            let key = cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            rows[key] = Row(key: key, type: cells[2], required: cells[3], meaning: cells[4])
        }
        return rows
    }

    @Test func everyKeyTheDecodersKnowHasARow() throws {
        let rows = try Self.memberRows()
        // `log.message` is an alias read only when `body` is absent; the text under the table says so.
        let documented = Set(rows.keys).union([WireMember.logMessage.name])
        #expect(documented == Set(WireMember.allCases.map(\.name)))
    }

    @Test func closedValueSetsAreListedInFull() throws {
        let rows = try Self.memberRows()
        let sets: [(String, [String])] = [
            (WireMember.kind.name, WireEvent.Kind.allCases.map(\.rawValue)),
            (WireMember.metricKind.name, WireMetricKind.allCases.map(\.rawValue)),
            (WireMember.statusHealth.name, StatusHealth.allCases.map(\.rawValue)),
        ]
        for (key, values) in sets {
            let meaning = try #require(rows[key]?.meaning, "no row for \(key)")
            for value in values { #expect(meaning.contains("`\(value)`"), "\(key) does not list \(value)") }
        }
    }

    /// For each kind, a line of only the members marked required for it (and `v`, `kind`, `time`) decodes, and
    /// leaving out any one of them is reported as that member missing.
    @Test(arguments: WireEvent.Kind.allCases)
    func requiredMarksMatchTheDecoders(kind: WireEvent.Kind) throws {
        let rows = try Self.memberRows()
        let required = rows.values.filter { $0.required == "**\(kind.rawValue)**" }
        #expect(!required.isEmpty)
        func line(without missing: String?) -> [UInt8] {
            var members = [#""v":1"#, #""kind":"\#(kind.rawValue)""#, #""time":"2026-11-22T00:40:00Z""#]
            for row in required where row.key != missing {
                members.append(#""\#(row.key)":\#(row.type == "string" ? #""x""# : "1")"#)
            }
            return Array("{\(members.joined(separator: ","))}".utf8)
        }
        #expect(try WireDecoder().decode(line(without: nil)).kind == kind)
        for row in required {
            #expect(throws: WireError.missingField(row.key)) { try WireDecoder().decode(line(without: row.key)) }
        }
    }
}
