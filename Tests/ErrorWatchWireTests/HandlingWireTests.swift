import ErrorStreaming
import Foundation
import Testing

@testable import ErrorWatchWire


/// `exception.stacktrace`, `code.*` and the `handling` kind: both decoders, the writer and the encoder agree.
struct HandlingWireTests {
    static let located = WireEvent(
        kind: .error, time: WireFormatTests.time, serviceName: "shop", exceptionType: "Shop.SessionError",
        sequence: 18, exceptionStacktrace: "0 Shop refresh() + 12\n1 Shop \"run\"() + 40",
        codeFilePath: "Shop/Session.swift", codeLineNumber: 42, codeFunction: "refresh()")

    static let handling = WireEvent(
        kind: .handling, time: WireFormatTests.time, serviceName: "shop", sequence: 18,
        handlingPath: ["app", "log \"in\"", "Ünïcode 🚀", ""], handlingOutcome: "consumed by Ünïcode 🚀",
        handlingHandled: true)

    /// Decodes a line with the scanner and with `JSONDecoder`, which must agree (both value and error).
    private func decodeBoth(_ line: String) -> (
        scanned: Result<WireEvent, WireError>, codable: Result<WireEvent, WireError>
    ) {
        let bytes = Array(line.utf8)
        let scanned = Result { () throws(WireError) in try WireDecoder().decode(bytes) }
        let codable: Result<WireEvent, WireError>
        do {
            codable = .success(try JSONDecoder().decode(WireEvent.self, from: Data(bytes)))
        } catch let error as WireError {
            codable = .failure(error)
        } catch {
            codable = .failure(.malformedJSON("\(error)"))
        }
        return (scanned, codable)
    }

    @Test(arguments: [located, handling])
    func roundTripsThroughTheWriterTheScannerAndCodable(event: WireEvent) throws {
        let line = try WireEncoder().encode(event)
        #expect(try WireDecoder().decode(line) == event)
        #expect(try JSONDecoder().decode(WireEvent.self, from: Data(line.dropLast())) == event)
        #expect(try WireDecoder().decode(Array(JSONEncoder().encode(event))) == event)
    }

    @Test func membersAreWrittenUnderTheirOpenTelemetryNames() throws {
        let error = String(decoding: try WireEncoder().encode(Self.located), as: UTF8.self)
        for member in [
            #""exception.stacktrace":"0 Shop refresh() + 12\n1 Shop \"run\"() + 40""#,
            #""code.filepath":"Shop/Session.swift""#, #""code.lineno":42"#, #""code.function":"refresh()""#,
        ] {
            #expect(error.contains(member), "\(member)")
        }
        let handling = String(decoding: try WireEncoder().encode(Self.handling), as: UTF8.self)
        for member in [
            #""kind":"handling""#, #""sequence":18"#, #""handling.path":["app","log \"in\"","Ünïcode 🚀",""]"#,
            #""handling.outcome":"consumed by Ünïcode 🚀""#, #""handling.handled":true"#,
        ] {
            #expect(handling.contains(member), "\(member)")
        }
    }

    @Test func pathsUpToTheLimitAreReadAndLongerOnesAreRefusedByBothDecoders() throws {
        func line(_ count: Int) -> String {
            let names = (0..<count).map { #""n\#($0)""# }.joined(separator: ",")
            return #"{"v":1,"kind":"handling","time":"2026-11-22T00:40:00Z","sequence":1,"handling.path":[\#(names)]}"#
        }
        for count in [0, 1, WireEvent.maximumHandlingPathCount] {
            let (scanned, codable) = decodeBoth(line(count))
            #expect(try scanned.get().handlingPath == (0..<count).map { "n\($0)" })
            #expect(try scanned.get() == codable.get())
        }
        let (scanned, codable) = decodeBoth(line(WireEvent.maximumHandlingPathCount + 1))
        #expect(scanned == .failure(.invalidField("handling.path")))
        #expect(codable == scanned)
    }

    @Test(arguments: [
        (#""handling.path":"app""#, "handling.path"), (#""handling.path":["app",1]"#, "handling.path"),
        (#""handling.path":[["app"]]"#, "handling.path"), (#""handling.path":{"a":"b"}"#, "handling.path"),
        (#""handling.path":[null]"#, "handling.path"), (#""handling.handled":"yes""#, "handling.handled"),
        (#""handling.handled":1"#, "handling.handled"), (#""handling.outcome":true"#, "handling.outcome"),
        (#""code.lineno":-1"#, "code.lineno"), (#""code.lineno":4.5"#, "code.lineno"),
        (#""code.lineno":"4""#, "code.lineno"), (#""code.filepath":7"#, "code.filepath"),
        (#""code.function":[]"#, "code.function"), (#""exception.stacktrace":{}"#, "exception.stacktrace"),
    ])
    func wrongTypesAreInvalidFieldsForBothDecoders(member: String, key: String) {
        let (scanned, codable) = decodeBoth(
            #"{"v":1,"kind":"handling","time":"2026-11-22T00:40:00Z","sequence":3,\#(member)}"#)
        #expect(scanned == .failure(.invalidField(key)))
        #expect(codable == scanned)
    }

    @Test func nullsAreAbsentAndAHandlingEventNeedsItsSequence() throws {
        let (scanned, codable) = decodeBoth(
            #"{"v":1,"kind":"handling","time":"2026-11-22T00:40:00Z","sequence":3,"handling.path":null,"#
                + #""handling.handled":null,"code.lineno":null,"unknown":[1,["x"],{"y":[]}]}"#)
        let event = try scanned.get()
        #expect(event.handlingPath == nil && event.handlingHandled == nil && event.codeLineNumber == nil)
        #expect(try codable.get() == event)
        let (missing, missingCodable) = decodeBoth(#"{"v":1,"kind":"handling","time":"2026-11-22T00:40:00Z"}"#)
        #expect(missing == .failure(.missingField("sequence")))
        #expect(missingCodable == missing)
    }

    @Test func writersRefuseWhatReadersWouldRefuse() {
        var event = Self.handling
        event.handlingPath = Array(repeating: "n", count: WireEvent.maximumHandlingPathCount + 1)
        #expect(throws: WireError.invalidField("handling.path")) { try WireEncoder().encode(event) }
        #expect(throws: WireError.invalidField("handling.path")) { try JSONEncoder().encode(event) }
        event = Self.located
        event.codeLineNumber = -1
        #expect(throws: WireError.invalidField("code.lineno")) { try WireEncoder().encode(event) }
        #expect(throws: WireError.invalidField("code.lineno")) { try JSONEncoder().encode(event) }
    }

    // MARK: Encoder and RemoteError

    @Test func theEncoderWritesALocalEventsLocation() async throws {
        let stream = ErrorStream(now: { WireFormatTests.time })
        let events = stream.events(bufferingPolicy: .unbounded)
        let line: UInt = #line + 1
        stream.add(CheckoutDeclined(), context: ErrorContext(source: "checkout"))
        stream.finish()
        var iterator = events.makeAsyncIterator()
        let event = try #require(await iterator.next())
        let wire = try WireDecoder().decode(WireEncoder().encode(event))
        #expect(wire.codeFilePath == "ErrorWatchWireTests/HandlingWireTests.swift")
        #expect(wire.codeLineNumber == Int(line))
        #expect(wire.codeFunction == "theEncoderWritesALocalEventsLocation()")
        #expect(wire.exceptionStacktrace == nil)
    }

    @Test func remoteErrorKeepsTheStackTraceAndLocationAndItsEventReportsThem() throws {
        let remote = try #require(RemoteError(Self.located))
        let location = CodeLocation(file: "Shop/Session.swift", line: 42, function: "refresh()")
        #expect(remote.stackTrace == Self.located.exceptionStacktrace)
        #expect(remote.sourceLocation == location)
        let event = ErrorEvent(
            error: remote, sequence: 5, timestamp: WireFormatTests.time, file: #fileID, line: #line, function: #function
        )
        #expect(event.location == location)  // the producer's, not where it was added here
        let relayed = try WireDecoder().decode(WireEncoder().encode(event))
        #expect(relayed.exceptionStacktrace == Self.located.exceptionStacktrace)
        #expect(relayed.codeFilePath == "Shop/Session.swift" && relayed.codeLineNumber == 42)
        #expect(relayed.codeFunction == "refresh()")

        var partial = Self.located
        (partial.codeLineNumber, partial.codeFunction) = (nil, nil)
        #expect(RemoteError(partial)?.sourceLocation == CodeLocation(file: "Shop/Session.swift", line: 0, function: ""))
        partial.codeFilePath = nil
        let unlocated = try #require(RemoteError(partial))
        #expect(unlocated.sourceLocation == nil)
        #expect(
            ErrorEvent(
                error: unlocated, sequence: 1, timestamp: WireFormatTests.time, file: #fileID, line: #line,
                function: #function
            ).location == nil)
    }

    @Test func aHandlingReportBecomesAHandlingEvent() throws {
        let encoder = WireEncoder(source: SourceInfo(serviceName: "shop", pid: 7, host: "h"))
        let report = HandlingReport(
            sequence: 12, path: ["app", "session"], outcome: .rewritten(by: "app", to: "SessionError"), handled: true)
        let event = encoder.handlingEvent(for: report, time: WireFormatTests.time)
        #expect(
            event
                == WireEvent(
                    kind: .handling, time: WireFormatTests.time, serviceName: "shop", pid: 7, hostName: "h",
                    sequence: 12, handlingPath: ["app", "session"], handlingOutcome: "rewritten by app to SessionError",
                    handlingHandled: true))
        #expect(try WireDecoder().decode(encoder.encode(event)) == event)
        #expect(event.handlingOutcome.flatMap(HandlingOutcome.init(parsing:)) == report.outcome)

        let deep = HandlingReport(sequence: 1, path: (1...70).map { "n\($0)" }, outcome: .passed, handled: false)
        let truncated = encoder.handlingEvent(for: deep, time: WireFormatTests.time)
        #expect(truncated.handlingPath == (7...70).map { "n\($0)" })
        #expect(try WireDecoder().decode(encoder.encode(truncated)) == truncated)
    }

    /// Every line of every `json` block in docs/wire-format.md decodes, the same with both decoders (the first
    /// block is one event wrapped for reading: its indented lines continue the line before).
    @Test func theDocumentsExamplesDecode() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/wire-format.md")
        let text = try String(contentsOf: url, encoding: .utf8)
        var lines: [String] = []
        var inBlock = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "```json" {
                inBlock = true
            } else if line == "```" {
                inBlock = false
            } else if inBlock {
                if line.hasPrefix(" "), !lines.isEmpty {
                    lines[lines.count - 1] += line
                } else {
                    lines.append(String(line))
                }
            }
        }
        #expect(lines.count >= 8)
        var kinds: Set<WireEvent.Kind> = []
        for line in lines {
            let (scanned, codable) = decodeBoth(line)
            #expect(throws: Never.self, "\(line)") { try scanned.get() }
            #expect(codable == scanned, "\(line)")
            if case .success(let event) = scanned { kinds.insert(event.kind) }
        }
        #expect(kinds == Set(WireEvent.Kind.allCases))
    }
}
