import Foundation
import Testing

@testable import ErrorWatchIngest
@testable import ErrorWatchWire

/// `docs/otlp.md`'s traces table ("## Traces": what of a span makes an error event, and where each field goes) is
/// kept true by the mapper: each row's span field is fed through `OTLPTraceMapper` and the wire member the row
/// names must hold it, as the NDJSON encoder writes the event. A row this test does not know fails, so a row added
/// to the table needs a check here.
struct OTLPTraceDocsTests {
    struct Row: Sendable, CustomTestStringConvertible {
        var span: String
        var wire: String
        var testDescription: String { span }
    }

    static func rows() throws -> [Row] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/otlp.md")
        let text = try String(contentsOf: url, encoding: .utf8)
        let section = try #require(text.range(of: "\n## Traces\n"))
        let table = try #require(text.range(of: "| span | error event | how |", range: section.upperBound..<text.endIndex))
        let end = text.range(of: "\n\n", range: table.upperBound..<text.endIndex)?.lowerBound ?? text.endIndex
        return text[table.upperBound..<end].split(separator: "\n").filter {
            $0.hasPrefix("| ") && !$0.hasPrefix("| ---")
        }
        .map { line in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            return Row(span: cells[1], wire: cells[2])
        }
    }

    /// The backticked names in `text`, in order.
    static func names(_ text: String) -> [String] {
        text.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }
            .map { String($0.element) }
    }

    /// The events the mapper makes of `span` (under `resource`, in scope `checkout-tracer`), each with its NDJSON
    /// form.
    static func mapped(_ span: OTLPProtoTraceSpan, resource: OTLPProtoResource = OTLPFixtures.traceResource())
        throws -> [(event: WireEvent, json: [String: Any])]
    {
        let batch = OTLPTraceMapper.map(
            OTLPFixtures.traces([span], resource: resource), memory: OTLPTraceMemory(), receivedAt: Date())
        return try batch.events.map { event in
            let line = try WireEncoder().encode(event)
            return (event, try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any]))
        }
    }

    /// The value at a wire member: `attributes.K` is key K of `attributes`.
    static func value(_ json: [String: Any], _ member: String) -> String? {
        let found: Any?
        if member.hasPrefix("attributes.") {
            found = (json["attributes"] as? [String: Any])?[String(member.dropFirst("attributes.".count))]
        } else {
            found = json[member]
        }
        return found.map { "\($0)" }
    }

    /// A failing span (one `exception` event) whose event carries `attributes` besides its type and message.
    static func failing(eventAttributes: [OTLPProtoKeyValue] = []) -> OTLPProtoTraceSpan {
        var span = OTLPFixtures.span(
            "POST /checkout", id: 1, kind: .server, exceptions: [(type: "CardDeclined", message: "card declined")])
        span.events[0].attributes += eventAttributes
        return span
    }

    @Test func theTableHasItsRows() throws {
        #expect(try Self.rows().count >= 10)
    }

    @Test(arguments: try rows())
    func eachRowHoldsForTheCode(row: Row) throws {
        let fields = Self.names(row.span)
        let members = Self.names(row.wire)
        switch row.span {
        case let text where text.hasPrefix("event named `exception`"):
            let events = try Self.mapped(Self.failing())
            #expect(events.count == 1 && events.first?.event.kind == .error, "one error event")
        case let text where text.hasPrefix("event attribute"):
            let key = try #require(fields.first)
            var span = Self.failing()
            span.events[0].attributes.removeAll { $0.key == key }
            span.events[0].attributes.append(OTLPFixtures.string(key, "probe \(key)"))
            let json = try #require(try Self.mapped(span).first).json
            #expect(Self.value(json, try #require(members.first)) == "probe \(key)", "\(key)")
        case let text where text.hasPrefix("other event attributes"):
            let key = try #require(fields.first)
            let span = Self.failing(eventAttributes: [OTLPFixtures.string("probe.key", "probe")])
            let json = try #require(try Self.mapped(span).first).json
            #expect(Self.value(json, "attributes.probe.key") == "probe")
            #expect(Self.value(json, "attributes.\(key)") != nil, "\(key) is kept among the attributes")
        case let text where text.hasPrefix("status `STATUS_CODE_ERROR`"):
            var span = OTLPFixtures.span(
                "SELECT orders", id: 2, status: .error, statusMessage: "deadlock detected",
                attributes: [OTLPFixtures.string("error.type", "DeadlockError")])
            var json = try #require(try Self.mapped(span).first).json
            #expect(Self.value(json, "exception.type") == "DeadlockError")
            #expect(Self.value(json, "exception.message") == "deadlock detected")
            span.attributes = []
            json = try #require(try Self.mapped(span).first).json
            #expect(Self.value(json, "exception.type") == "SELECT orders", "else the span's name")
        case let text where text.hasPrefix("span `name`"):
            let json = try #require(try Self.mapped(Self.failing()).first).json
            #expect(Self.value(json, "attributes.span.name") == "POST /checkout")
            #expect(Self.value(json, "attributes.span.kind") == "server")
            #expect(Array(members.prefix(2)) == ["attributes.span.name", "attributes.span.kind"])
        case let text where text.hasPrefix("span attributes"):
            for key in fields {
                var span = Self.failing()
                span.attributes = [OTLPFixtures.string(key, "probe")]
                let json = try #require(try Self.mapped(span).first).json
                #expect(Self.value(json, "attributes.\(key)") == "probe", "\(key)")
            }
        case let text where text.hasPrefix("`trace_id`"):
            let json = try #require(try Self.mapped(Self.failing()).first).json
            #expect(Self.value(json, "trace_id") == OTLPFixtures.traceHex)
            #expect(Self.value(json, "span_id") == "000000000000ab01")
            #expect(members == ["trace_id", "span_id"])
        case let text where text.hasPrefix("event `time_unix_nano`"):
            var span = Self.failing()
            span.events[0].timeUnixNano = 1_800_000_000_250_000_000
            #expect(try Self.mapped(span).first?.event.time == Date(timeIntervalSince1970: 1_800_000_000.25))
            span.events[0].timeUnixNano = 0
            let end = Date(timeIntervalSince1970: Double(span.endTimeUnixNano) / 1e9)
            #expect(try Self.mapped(span).first?.event.time == end, "else the span's end")
        case let text where text.hasPrefix("resource"):
            for key in fields {
                var resource = OTLPFixtures.traceResource()
                resource.attributes.removeAll { $0.key == key }
                resource.attributes.append(
                    key == "process.pid" ? OTLPFixtures.int(key, 4343) : OTLPFixtures.string(key, "probe"))
                let json = try #require(try Self.mapped(Self.failing(), resource: resource).first).json
                #expect(Self.value(json, key) == (key == "process.pid" ? "4343" : "probe"), "\(key)")
            }
        case let text where text.hasPrefix("scope `name`"):
            let json = try #require(try Self.mapped(Self.failing()).first).json
            #expect(Self.value(json, try #require(members.first)) == "checkout-tracer")
        default:
            Issue.record("docs/otlp.md's traces table has a row this test does not check: \(row.span)")
        }
    }
}
