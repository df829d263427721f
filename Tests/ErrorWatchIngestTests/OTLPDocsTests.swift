import Foundation
import Testing

@testable import ErrorWatchIngest
@testable import ErrorWatchWire
import IngestTestSupport

/// `docs/otlp.md`'s mapping table is kept true by the mapper: each row's OpenTelemetry field is fed through the
/// code and the wire member the row names must hold it (as written by the NDJSON encoder), and every field the
/// code reads has a row.
struct OTLPDocsTests {
    struct Row: Sendable, CustomTestStringConvertible {
        var otlp: String
        var wire: String
        var testDescription: String { otlp }
    }

    static func rows() throws -> [Row] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/otlp.md")
        let text = try String(contentsOf: url, encoding: .utf8)
        let start = try #require(text.range(of: "## Mapping"))
        let end = text.range(of: "\n## ", range: start.upperBound..<text.endIndex)?.lowerBound ?? text.endIndex
        return text[start.upperBound..<end].split(separator: "\n").filter {
            $0.hasPrefix("| ") && !$0.hasPrefix("| OTLP") && !$0.hasPrefix("| ---")
        }
        .map { line in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            return Row(otlp: cells[1], wire: cells[2])
        }
    }

    /// The first backticked name in `text`.
    static func name(_ text: String) -> String? {
        let parts = text.split(separator: "`", omittingEmptySubsequences: false)
        return parts.count >= 3 ? String(parts[1]) : nil
    }

    /// The event the mapper makes of one record, as the NDJSON encoder writes it.
    static func written(_ record: OTLPProtoLogRecord, resource: OTLPProtoResource = OTLPProtoResource()) throws
        -> [String: Any]
    {
        let batch = OTLPLogMapper.map(OTLPFixtures.logs([record], resource: resource), receivedAt: Date())
        let event = try #require(batch.events.first)
        let line = try WireEncoder().encode(event)
        return try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
    }

    /// The value at a wire member: `attributes.K` is key K of `attributes`.
    static func value(_ json: [String: Any], _ member: String) -> Any? {
        if member.hasPrefix("attributes.") {
            return (json["attributes"] as? [String: Any])?[String(member.dropFirst("attributes.".count))]
        }
        return json[member]
    }

    @Test func everyAttributeTheMapperReadsHasARow() throws {
        let documented = try Self.rows().filter { $0.otlp.hasPrefix("log attribute `") }
        #expect(Set(documented.compactMap { Self.name($0.otlp) }) == Set(OTLPLogMapper.attributeMembers.keys))
        for row in documented {
            let key = try #require(Self.name(row.otlp))
            #expect(OTLPLogMapper.attributeMembers[key]?.name == Self.name(row.wire), "\(key)")
        }
    }

    @Test(arguments: try rows())
    func eachRowHoldsForTheCode(row: Row) throws {
        let field = Self.name(row.otlp)
        let member = Self.name(row.wire)
        var record = OTLPFixtures.record(body: "probe body")
        record.attributes = []
        switch row.otlp.split(separator: " ").first {
        case "resource":
            let key = try #require(field)
            var resource = OTLPProtoResource()
            resource.attributes = [
                key == "process.pid" ? OTLPFixtures.int(key, 4242) : OTLPFixtures.string(key, "probe")
            ]
            let json = try Self.written(record, resource: resource)
            let expected: Any = key == "process.pid" ? 4242 : "probe"
            #expect("\(Self.value(json, try #require(member)) ?? "none")" == "\(expected)", "\(row.otlp)")
        case "scope":
            let batch = OTLPLogMapper.map(OTLPFixtures.logs([record], scope: "probe.scope"), receivedAt: Date())
            let json = try #require(
                try JSONSerialization.jsonObject(with: Data(WireEncoder().encode(batch.events[0]))) as? [String: Any])
            #expect(json[try #require(member)] as? String == "probe.scope")
        case "log" where row.otlp.hasPrefix("log attribute (any other)"):
            record.attributes = [OTLPFixtures.string("custom.key", "probe")]
            #expect(Self.value(try Self.written(record), "attributes.custom.key") as? String == "probe")
        case "log" where row.otlp.hasPrefix("log attribute"):
            let key = try #require(field)
            let isLine = key.hasPrefix("code.line")
            record.attributes = [OTLPFixtures.string(key, isLine ? "12" : "probe")]
            let json = try Self.written(record)
            let value = Self.value(json, try #require(member))
            #expect("\(value ?? "none")" == (isLine ? "12" : "probe"), "\(key)")
            if key == "exception.type" || key == "exception.message" { #expect(json["kind"] as? String == "error") }
        case "log":
            try checkRecordField(try #require(field), member: try #require(member), record)
        case "metric":
            try checkMetric(row)
        default:
            Issue.record("no check for the row \(row.otlp)")
        }
    }

    private func checkRecordField(_ field: String, member: String, _ base: OTLPProtoLogRecord) throws {
        var record = base
        switch field {
        case "body":
            #expect(try Self.written(record)[member] as? String == "probe body")
        case "severity_number":
            record.severityNumber = .warn
            record.severityText = ""
            #expect(try Self.written(record)[member] as? String == "warning")
        case "severity_text":
            record.severityNumber = .unspecified
            record.severityText = "FATAL"
            #expect(try Self.written(record)[member] as? String == "critical")
        case "time_unix_nano":
            record.timeUnixNano = 1_000_000_000_000_000_000
            #expect((try Self.written(record)[member] as? String)?.hasPrefix("2001-09-09T01:46:40") == true)
        case "trace_id":
            #expect(Self.value(try Self.written(record), member) as? String == "000102030405060708090a0b0c0d0e0f")
        case "span_id":
            #expect(Self.value(try Self.written(record), member) as? String == "a0a1a2a3a4a5a6a7")
        default:
            Issue.record("no check for the log field \(field)")
        }
    }

    private func checkMetric(_ row: Row) throws {
        let mapper = OTLPMetricMapper(streams: OTLPMetricStreams(), receivedAt: Date())
        func kinds(_ metric: OTLPProtoMetric) -> (Set<String>, Int) {
            let batch = mapper.map(OTLPFixtures.metrics([metric]))
            return (Set(batch.events.compactMap { $0.metricKind?.rawValue }), batch.rejected)
        }
        let field = try #require(Self.name(row.otlp))
        let documentedKind =
            row.wire == "rejected"
            ? nil : row.wire.split(separator: "`", omittingEmptySubsequences: false).dropFirst(3).first.map(String.init)
        switch field {
        case "name", "unit":
            let event = try #require(
                mapper.map(OTLPFixtures.metrics([OTLPFixtures.gauge("probe.metric", 1)])).events.first)
            let json = try #require(
                try JSONSerialization.jsonObject(with: Data(WireEncoder().encode(event))) as? [String: Any])
            #expect(json[try #require(Self.name(row.wire))] as? String == (field == "name" ? "probe.metric" : "By"))
        case "gauge":
            #expect(kinds(OTLPFixtures.gauge("g", 1)).0 == [try #require(documentedKind)])
        case "sum":
            let monotonic = !row.otlp.contains("non-monotonic")
            #expect(
                kinds(OTLPFixtures.sum("s\(monotonic)", 2, monotonic: monotonic)).0 == [try #require(documentedKind)])
        case "histogram":
            #expect(
                kinds(OTLPFixtures.histogram("h", counts: [1, 1], bounds: [5])).0 == [try #require(documentedKind)])
        case "exponential_histogram":
            var metric = OTLPProtoMetric()
            metric.name = "e"
            var point = OTLPProtoExponentialHistogramDataPoint()
            point.positive.bucketCounts = [1]
            metric.exponentialHistogram.dataPoints = [point]
            #expect(kinds(metric).0 == [try #require(documentedKind)])
        case "summary":
            var metric = OTLPProtoMetric()
            metric.name = "q"
            metric.summary.dataPoints = [OTLPProtoSummaryDataPoint()]
            #expect(row.wire == "rejected")
            #expect(kinds(metric) == ([], 1))
        default:
            Issue.record("no check for the metric row \(row.otlp)")
        }
    }
}
