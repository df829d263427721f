import Foundation
import Testing

@testable import ErrorWatchIngest
@testable import ErrorWatchWire
import IngestTestSupport

/// `docs/formats.md` stays true: every shape is in its table with the fields its code reads, and every example
/// line is read as the shape it is listed under.
struct FormatsDocsTests {
    static let document: String = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/formats.md")
        return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }()

    @Test func everyShapeIsInTheTableWithTheFieldsItReads() throws {
        let rows = Self.document.split(separator: "\n").filter { $0.hasPrefix("| `") }
        for format in LogFormat.allCases where format != .auto && format != .wire {
            let row = try #require(rows.first { $0.hasPrefix("| `\(format.rawValue)` |") }, "no row for \(format)")
            for field in JSONLogShapes.fieldsRead(by: format) {
                #expect(row.contains("`\(field)`"), "\(format): \(field) is read but not documented")
            }
        }
    }

    @Test func everyExampleIsReadAsItsShape() throws {
        let sections = Self.document.components(separatedBy: "\n### ").dropFirst()
        var checked = 0
        for section in sections {
            let name = String(section.prefix { $0 != "\n" })
            guard let format = LogFormat(rawValue: name), let start = section.range(of: "```\n"),
                let end = section.range(of: "\n```", range: start.upperBound..<section.endIndex)
            else { continue }
            let lines = section[start.upperBound..<end.lowerBound].split(separator: "\n").map(String.init)
            let read = events(lines)
            #expect(!read.isEmpty, "\(name): nothing read")
            #expect(read.allSatisfy { $0.attributes["log.format"] == format.rawValue }, "\(name)")
            checked += 1
        }
        #expect(checked == LogFormat.allCases.count - 2)
    }
}
