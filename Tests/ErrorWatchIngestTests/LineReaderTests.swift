import ErrorStreaming
import Foundation
import Testing

@testable import ErrorWatchIngest
@testable import ErrorWatchWire
import IngestTestSupport

/// Reads `lines` through one reader and flushes it: every result, in order.
func readAll(_ lines: [String], format: LogFormat = .auto, at time: Date = LineReaderTests.received)
    -> [Result<WireEvent, WireError>]
{
    var reader = LineReader(format: format)
    var results: [Result<WireEvent, WireError>] = []
    for line in lines { results += reader.read(Array(line.utf8), receivedAt: time) }
    return results + reader.flush()
}

/// The events of `lines`; a test fails if any line was rejected.
func events(_ lines: [String], format: LogFormat = .auto) -> [WireEvent] {
    readAll(lines, format: format).compactMap { result in
        switch result {
        case .success(let event): return event
        case .failure(let error):
            Issue.record("rejected: \(error)")
            return nil
        }
    }
}

func utc(_ text: String) -> Date { RFC3339.parse(text)! }

struct LineReaderTests {
    static let received = Date(timeIntervalSince1970: 1_795_000_000)

    @Test func ourWireFormatComesFirstAndUnchanged() throws {
        let line = try WireEncoder().encode(
            WireEvent(kind: .error, time: utc("2026-11-23T10:00:00Z"), serviceName: "shop", exceptionType: "ShopError"))
        let read = events([String(decoding: line, as: UTF8.self)])
        #expect(read.count == 1)
        #expect(read.first?.exceptionType == "ShopError")
        #expect(read.first?.attributes["log.format"] == nil)
        // A malformed wire line is still a bad line, not a log line: its producer should hear about it.
        // (A time that cannot be read keeps the line, marked: UnreadableTimeTests. One of another type does not.)
        let bad = readAll([#"{"v":1,"kind":"error","time":true,"exception.type":"X"}"#])
        #expect(bad == [.failure(.invalidField("time"))])
    }

    @Test func pinoLinesByLevel() throws {
        let read = events([
            #"{"level":30,"time":1795000000123,"pid":4242,"hostname":"web-1","name":"checkout","msg":"order placed","orderId":"A-17"}"#,
            #"{"level":40,"time":1795000001000,"pid":4242,"hostname":"web-1","msg":"slow query \"orders\" 🐢"}"#,
            #"{"level":50,"time":1795000002000,"pid":4242,"hostname":"web-1","name":"checkout","msg":"payment failed","err":{"type":"CardDeclinedError","message":"card declined: insufficient funds","stack":"CardDeclinedError: card declined: insufficient funds\n    at charge (/app/pay.js:42:11)\n    at processTicksAndRejections (node:internal/process/task_queues:95:5)","code":"E_DECLINED"}}"#,
            #"{"level":60,"time":1795000003000,"pid":4242,"hostname":"web-1","msg":"cannot bind port"}"#,
        ])
        #expect(read.map(\.kind) == [.log, .log, .error, .error])
        #expect(read[0].body == "order placed")
        #expect(read[0].severity == .info)
        #expect(read[0].serviceName == "checkout")
        #expect(read[0].hostName == "web-1")
        #expect(read[0].pid == 4242)
        #expect(read[0].attributes["orderId"] == "A-17")
        #expect(read[0].attributes["log.format"] == "pino")
        #expect(read[0].time == Date(timeIntervalSince1970: 1_795_000_000.123))
        #expect(read[1].body == #"slow query "orders" 🐢"#)
        #expect(read[1].severity == .warning)
        #expect(read[2].exceptionType == "CardDeclinedError")
        #expect(read[2].exceptionMessage == "card declined: insufficient funds")
        #expect(read[2].exceptionStacktrace?.contains("at charge (/app/pay.js:42:11)") == true)
        #expect(read[2].body == "payment failed")
        #expect(read[2].codeText == "E_DECLINED")
        #expect(read[2].code == nil)
        #expect(read[2].category == nil)
        #expect(read[3].exceptionType == "Fatal")
        #expect(read[3].severity == .critical)
        #expect(read[3].exceptionMessage == "cannot bind port")
    }

    @Test func bunyanLines() {
        let read = events([
            #"{"name":"api","hostname":"web-2","pid":17,"level":30,"msg":"listening on :8080","time":"2026-11-23T10:00:00.250Z","v":0}"#,
            #"{"name":"api","hostname":"web-2","pid":17,"level":50,"err":{"message":"ECONNREFUSED 10.0.0.5:5432","name":"Error","stack":"Error: ECONNREFUSED 10.0.0.5:5432\n    at TCPConnectWrap.afterConnect (node:net:1555:16)"},"msg":"db down","time":"2026-11-23T10:00:01Z","v":0}"#,
        ])
        #expect(read.map(\.kind) == [.log, .error])
        #expect(read[0].attributes["log.format"] == "bunyan")
        #expect(read[0].time == utc("2026-11-23T10:00:00.250Z"))
        #expect(read[1].exceptionType == "Error")
        #expect(read[1].exceptionMessage == "ECONNREFUSED 10.0.0.5:5432")
        #expect(read[1].serviceName == "api")
    }

    @Test func zapProductionLines() {
        let read = events([
            #"{"level":"info","ts":1795000000.5,"caller":"server/main.go:42","msg":"started","port":8080}"#,
            #"{"level":"error","ts":1795000001.25,"logger":"payments","caller":"pay/charge.go:117","msg":"charge failed","error":"stripe: card_declined (status 402)","stacktrace":"main.charge\n\t/src/pay/charge.go:117\nmain.main\n\t/src/main.go:30"}"#,
            #"{"level":"warn","ts":1795000002,"msg":"retrying\ttab and \u00e9"}"#,
        ])
        #expect(read.map(\.kind) == [.log, .error, .log])
        #expect(read[0].attributes["port"] == "8080")
        #expect(read[0].attributes["code.filepath"] == "server/main.go:42")
        #expect(read[0].time == Date(timeIntervalSince1970: 1_795_000_000.5))
        #expect(read[1].exceptionType == "Error")
        #expect(read[1].exceptionMessage == "stripe: card_declined (status 402)")
        #expect(read[1].body == "charge failed")
        #expect(read[1].source == "payments")
        #expect(read[1].codeFilePath == "pay/charge.go")
        #expect(read[1].codeLineNumber == 117)
        #expect(read[1].exceptionStacktrace?.hasPrefix("main.charge\n\t/src/pay/charge.go:117") == true)
        #expect(read[1].attributes["log.format"] == "zap")
        #expect(read[2].body == "retrying\ttab and é")
        #expect(read[2].severity == .warning)
    }

    @Test func logrusJSONLines() {
        let read = events([
            #"{"level":"info","msg":"worker started","time":"2026-11-23T11:00:00+01:00","worker":3}"#,
            #"{"error":"dial tcp 10.0.0.9:6379: connect: connection refused","level":"error","msg":"cache unavailable","time":"2026-11-23T11:00:05+01:00"}"#,
            #"{"level":"fatal","msg":"config missing","time":"2026-11-23T11:00:06+01:00"}"#,
        ])
        #expect(read.map(\.kind) == [.log, .error, .error])
        #expect(read[0].attributes["log.format"] == "logrus")
        #expect(read[0].time == utc("2026-11-23T10:00:00Z"))
        #expect(read[1].exceptionMessage == "dial tcp 10.0.0.9:6379: connect: connection refused")
        #expect(read[1].body == "cache unavailable")
        #expect(read[2].exceptionType == "Fatal")
    }

    @Test func structlogLines() {
        let traceback =
            #"Traceback (most recent call last):\n  File \"/app/worker.py\", line 12, in handle\n    stock[sku]\nKeyError: 'sku-42'"#
        let read = events([
            #"{"event": "job picked", "level": "info", "timestamp": "2026-11-23T10:00:00.123456Z", "logger": "worker", "job_id": 7}"#,
            #"{"event": "job failed", "level": "error", "timestamp": "2026-11-23T10:00:01Z", "logger": "worker", "exception": ""#
                + traceback + #""}"#,
        ])
        #expect(read.map(\.kind) == [.log, .error])
        #expect(read[0].attributes["log.format"] == "structlog")
        #expect(read[0].source == "worker")
        #expect(read[0].attributes["job_id"] == "7")
        #expect(read[1].exceptionType == "KeyError")
        #expect(read[1].exceptionMessage == "'sku-42'")
        #expect(read[1].exceptionStacktrace?.contains("File \"/app/worker.py\", line 12") == true)
        #expect(read[1].body == "job failed")
    }

    @Test func serilogCompactLines() {
        let read = events([
            #"{"@t":"2026-11-23T10:00:00.1234567Z","@mt":"Order {OrderId} placed by {User} for {Total:C}","OrderId":1234,"User":"zoë","Total":12.5,"SourceContext":"Shop.Orders"}"#,
            #"{"@t":"2026-11-23T10:00:01Z","@mt":"Payment {PaymentId} failed","@l":"Error","@x":"System.InvalidOperationException: Card declined\n   at Shop.Payments.Charge() in /src/Payments.cs:line 42","PaymentId":"p-9","@i":"a1b2c3d4","Application":"shop"}"#,
            #"{"@t":"2026-11-23T10:00:02Z","@m":"Literal {{braces}} stay","@l":"Warning"}"#,
        ])
        #expect(read.map(\.kind) == [.log, .error, .log])
        #expect(read[0].body == #"Order 1234 placed by "zoë" for 12.5"#)
        #expect(read[0].source == "Shop.Orders")
        #expect(read[0].severity == .info)
        #expect(read[1].exceptionType == "System.InvalidOperationException")
        #expect(read[1].exceptionMessage == "Card declined")
        #expect(read[1].body == #"Payment "p-9" failed"#)
        #expect(read[1].attributes["event.id"] == "a1b2c3d4")
        #expect(read[1].serviceName == "shop")
        #expect(read[2].body == "Literal {{braces}} stay")
        #expect(read[2].severity == .warning)
        #expect(MessageTemplate.render("{{x}} {A} {B}", with: JSONFieldsFixture.fields(#"{"A":1}"#)) == "{x} 1 {B}")
    }

    @Test func gelfLines() {
        let read = events([
            #"{"version":"1.1","host":"db-1","short_message":"checkpoint complete","timestamp":1795000000.5,"level":6,"_facility":"postgres"}"#,
            #"{"version":"1.1","host":"api-1","short_message":"NullPointerException in checkout","full_message":"java.lang.NullPointerException: cart is null\n\tat shop.Checkout.run(Checkout.java:88)","timestamp":1795000001,"level":3,"_service":"api","_user_id":9001}"#,
            #"{"version":"1.1","host":"x","short_message":"no level means alert"}"#,
        ])
        #expect(read.map(\.kind) == [.log, .error, .error])
        #expect(read[0].hostName == "db-1")
        #expect(read[0].attributes["facility"] == "postgres")
        #expect(read[0].severity == .info)
        #expect(read[1].exceptionType == "java.lang.NullPointerException")
        #expect(read[1].exceptionMessage == "cart is null")
        #expect(read[1].serviceName == "api")
        #expect(read[1].attributes["user_id"] == "9001")
        #expect(read[2].severity == .critical)
    }

    @Test func pythonJSONLoggerLines() {
        let read = events([
            #"{"asctime": "2026-11-23 10:00:00,123", "levelname": "INFO", "name": "billing", "message": "invoice sent"}"#,
            #"{"asctime": "2026-11-23 10:00:01,500", "levelname": "ERROR", "name": "billing", "message": "invoice failed", "exc_info": "Traceback (most recent call last):\n  File \"/app/billing.py\", line 30, in send\n    raise SMTPError(\"421 try later\")\nbilling.SMTPError: 421 try later"}"#,
        ])
        #expect(read.map(\.kind) == [.log, .error])
        #expect(read[0].source == "billing")
        #expect(read[0].attributes["log.format"] == "python-json")
        #expect(read[1].exceptionType == "billing.SMTPError")
        #expect(read[1].exceptionMessage == "421 try later")
    }

    @Test func unknownJSONObjectsAreLogLinesNeverDropped() {
        let read = events([
            #"{"message":"hello","severity":"WARNING"}"#,
            #"{"foo":1,"bar":[1,2]}"#,
            #"["not","an","object"]"#,
            #"{"broken": "#,
        ])
        #expect(read.count == 4)
        #expect(read[0].body == "hello")
        #expect(read[0].severity == .warning)
        #expect(read[1].body == #"{"foo":1,"bar":[1,2]}"#)
        #expect(read[2].body == #"["not","an","object"]"#)
        #expect(read[3].body == #"{"broken":"#)
    }

    @Test func formatCanBeForced() {
        let zapLine = #"{"level":"error","ts":1795000000,"msg":"boom","error":"bad"}"#
        #expect(events([zapLine], format: .zap).first?.attributes["log.format"] == "zap")
        #expect(events([zapLine], format: .text).first?.kind == .log)
        #expect(events([zapLine], format: .text).first?.body == zapLine)
        // Forcing the wire format makes other lines bad, as before this reader existed.
        #expect(readAll(["plain words"], format: .wire).allSatisfy { (try? $0.get()) == nil })
    }
}

enum JSONFieldsFixture {
    static func fields(_ text: String) -> JSONFields {
        let bytes = Array(text.utf8)
        // The fields keep a pointer into the bytes: leak a copy for the test's lifetime.
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 1)
        bytes.withUnsafeBytes { storage.copyMemory(from: $0) }
        return JSONFields(scanning: UnsafeRawBufferPointer(storage))!
    }
}

/// Binary data piped in by mistake is counted as bad lines, not decoded and shown as text; text with a stray
/// high byte (Latin-1) or colours stays text.
struct BinaryInputTests {
    @Test func randomBytesAreCountedAsBinaryLines() {
        var generator = SeededGenerator(seed: 0xB1_7E5)
        var bytes = (0..<200_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        bytes.append(UInt8(ascii: "\n"))
        var reader = LineReader()
        var framer = LineFramer()
        var events = 0
        var binary = 0
        var other = 0
        bytes.withUnsafeBytes { raw in
            framer.feed(raw) { frame in
                guard case .line(let line) = frame else { return }
                reader.read(line, receivedAt: Date()) { result in
                    switch result {
                    case .success: events += 1
                    case .failure(.binary): binary += 1
                    case .failure: other += 1
                    }
                }
            }
        }
        reader.flush { if case .success = $0 { events += 1 } }
        // About one line in 256 bytes; a line too short to judge (a few bytes without a control) may pass as text.
        #expect(binary > 700)
        #expect(events * 20 < binary)
    }

    @Test(arguments: [
        "caf\u{E9} ferm\u{E9} : erreur",  // Latin-1 bytes, shown with replacement characters
        "\u{1B}[31mERROR\u{1B}[0m\tdisk full\r",
        "plain text with a tab\there",
    ])
    func textWithHighBytesOrColoursStaysText(_ text: String) {
        let bytes: [UInt8] = text.unicodeScalars.map { $0.value < 256 ? UInt8($0.value) : UInt8(ascii: "?") }
        #expect(!bytes.withUnsafeBytes(LineReader.isBinary))
        var reader = LineReader()
        var results = reader.read(bytes + [UInt8(ascii: "\n")], receivedAt: Date())
        results += reader.flush()
        #expect(results.count == 1)
        #expect((try? results.first?.get()) != nil)
    }
}
