import ErrorStreaming
import Foundation
import Testing

@testable import ErrorWatchIngest
@testable import ErrorWatchWire

/// Sentry events onto wire events and reports: the chain, frames, context lines and variables, tags, contexts,
/// user, request, breadcrumbs, grouping, messages, failed spans and log records; and the bounds.
struct SentryMappingTests {
    static let received = Date(timeIntervalSince1970: 1_800_000_000)

    static func object(_ json: String) throws -> [String: Any] {
        try #require(SentryJSON.object(Array(json.utf8)[...]))
    }

    static let pythonEvent = #"""
        {"event_id":"82db82e17ecd4b24911d62035e5731a6","timestamp":"2026-11-25T18:14:19.820000Z","level":"error",
         "platform":"python","release":"shop@1.4.2","environment":"staging","server_name":"vm",
         "fingerprint":["{{ default }}"],
         "exception":{"values":[
           {"type":"KeyError","value":"'sku'","module":null,"mechanism":{"type":"chained","handled":true},
            "stacktrace":{"frames":[{"function":"lookup","module":"shop.stock","filename":"shop/stock.py","lineno":7,
              "in_app":true}]}},
           {"type":"InventoryError","value":"shelf north is empty","mechanism":{"type":"threading","handled":false},
            "stacktrace":{"frames":[
              {"function":"run","module":"threading","filename":"threading.py","lineno":982,"in_app":false},
              {"function":"restock","module":"shop.stock","filename":"shop/stock.py","abs_path":"/srv/shop/stock.py",
               "lineno":33,"colno":5,"in_app":true,"pre_context":["def restock(run):","    shelf = 'north'"],
               "context_line":"    raise InventoryError(shelf)","post_context":["",""],
               "vars":{"run":"'a1'","shelf":"'north'","count":3,"ok":false,"nested":{"a":[1,2]}}}]}}]},
         "tags":{"run":"a1","region":"eu-1"},
         "contexts":{"trace":{"trace_id":"40beb41695bc4d4fadba2d6f6b171953","span_id":"92d5ea3c50388607","op":"task"},
                     "runtime":{"name":"CPython","version":"3.11.7"}},
         "user":{"id":"42","email":"ada@example.com"},
         "request":{"method":"POST","url":"http://shop/pay","headers":{"Cookie":"session=secret",
                    "Authorization":"Bearer secret","Accept":"application/json"},"cookies":"session=secret"},
         "breadcrumbs":{"values":[{"timestamp":"2026-11-25T18:14:19.784000Z","category":"auth","level":"info",
                        "message":"signed in","data":{"user":"ada"}}]},
         "sdk":{"name":"sentry.python","version":"2.75.0"}}
        """#

    /// sentry-sdk 2.75's context for an error captured outside any transaction: its propagation context, ids it
    /// makes up and shares with every such event. Unrelated errors must not become neighbours through it.
    @Test func aPropagationContextWithoutATransactionLinksNoTrace() throws {
        let json = Self.pythonEvent.replacingOccurrences(
            of: #""trace":{"trace_id":"40beb41695bc4d4fadba2d6f6b171953","span_id":"92d5ea3c50388607","op":"task"}"#,
            with: #""trace":{"trace_id":"098de9c9763141258e79022cfa39d270","span_id":"9e0d48d59e180572","parent_span_id":null,"dynamic_sampling_context":{"trace_id":"098de9c9763141258e79022cfa39d270","environment":"production","public_key":"key"}}"#)
        let event = try #require(
            SentryEventMapper.map(type: "event", payload: try Self.object(json), receivedAt: Self.received).first
        ).event
        #expect(event.traceID == nil)
        #expect(event.spanID == nil)
        #expect(event.attributes["sentry.propagation_trace_id"] == "098de9c9763141258e79022cfa39d270")
        // Inside a transaction (or continuing an upstream trace) it is a trace.
        for context in [
            #"{"trace_id":"a3517a8c894240f5ac11dd89d1b5c13b","span_id":"ac77c957b1df20f1","op":"task"}"#,
            #"{"trace_id":"a3517a8c894240f5ac11dd89d1b5c13b","span_id":"ac77c957b1df20f1","parent_span_id":"bd11e4a1c2f3e5d6"}"#,
        ] {
            let traced = try #require(
                SentryEventMapper.map(
                    type: "event",
                    payload: try Self.object(
                        json.replacingOccurrences(
                            of: #"{"trace_id":"098de9c9763141258e79022cfa39d270","span_id":"9e0d48d59e180572","parent_span_id":null,"dynamic_sampling_context":{"trace_id":"098de9c9763141258e79022cfa39d270","environment":"production","public_key":"key"}}"#,
                            with: context)),
                    receivedAt: Self.received
                ).first
            ).event
            #expect(traced.traceID == "a3517a8c894240f5ac11dd89d1b5c13b")
        }
    }

    @Test func anExceptionEventBecomesAnErrorWithItsReport() throws {
        let mapped = SentryEventMapper.map(type: "event", payload: try Self.object(Self.pythonEvent), receivedAt: Self.received)
        let only = try #require(mapped.first)
        #expect(mapped.count == 1)
        let event = only.event
        #expect(event.kind == .error)
        // The outermost exception (the last in Sentry's list) is the event's type and message.
        #expect(event.exceptionType == "InventoryError")
        #expect(event.exceptionMessage == "shelf north is empty")
        #expect(event.severity == .error)
        #expect(event.time == RFC3339.parse("2026-11-25T18:14:19.820000Z"))
        #expect(event.hostName == "vm")
        #expect(event.serviceVersion == "shop@1.4.2")
        #expect(event.deploymentEnvironment == "staging")
        #expect(event.traceID == "40beb41695bc4d4fadba2d6f6b171953")
        #expect(event.spanID == "92d5ea3c50388607")
        // Where: the failing frame of the app's own code.
        #expect(event.codeFilePath == "shop/stock.py")
        #expect(event.codeLineNumber == 33)
        #expect(event.codeFunction == "restock")
        // `{{ default }}` alone asks for the default grouping: type plus in-app frames.
        #expect(event.fingerprint == "sentry:InventoryError|shop.stock.restock")

        let report = try #require(only.report)
        #expect(report.exceptions.map(\.type) == ["InventoryError", "KeyError"])
        #expect(report.exceptions[0].handled == false)
        #expect(report.exceptions[0].mechanism == "threading")
        let frame = try #require(report.exceptions[0].frames.last)
        #expect(frame.file == "shop/stock.py")
        #expect(frame.column == 5)
        #expect(frame.inApp == true)
        #expect(frame.contextLine == "    raise InventoryError(shelf)")
        #expect(frame.preContext == ["def restock(run):", "    shelf = 'north'"])
        #expect(frame.postContext == ["", ""])
        #expect(
            frame.variables == [
                .init("count", "3"), .init("nested", #"{"a":[1,2]}"#), .init("ok", "false"), .init("run", "'a1'"),
                .init("shelf", "'north'"),
            ])
        #expect(report.exceptions[0].frames.first?.inApp == false)
        #expect(report.tags == [.init("region", "eu-1"), .init("run", "a1")])
        #expect(report.contexts.map(\.name) == ["runtime", "trace"])
        #expect(report.user == [.init("email", "ada@example.com"), .init("id", "42")])
        #expect(report.request.contains(.init("method", "POST")))
        #expect(report.request.contains(.init("headers.Cookie", "[not kept]")))
        #expect(report.request.contains(.init("headers.Authorization", "[not kept]")))
        #expect(report.request.contains(.init("headers.Accept", "application/json")))
        #expect(!report.request.contains { $0.value.contains("secret") })
        #expect(report.breadcrumbs.count == 1)
        #expect(report.breadcrumbs[0].category == "auth")
        #expect(report.breadcrumbs[0].data == [.init("user", "ada")])
        #expect(report.about.contains(.init("sdk", "sentry.python 2.75.0")))
    }

    @Test func theSDKsFingerprintDecidesTheGrouping() throws {
        let payload = try Self.object(#"{"exception":{"values":[{"type":"E"}]},"fingerprint":["payments","{{ default }}"]}"#)
        let mapped = SentryEventMapper.map(type: "event", payload: payload, receivedAt: Self.received)
        #expect(mapped.first?.event.fingerprint == "sentry:payments|{{ default }}")
        // The remote error groups by it.
        let remote = try #require(RemoteError(mapped[0].event))
        #expect(remote.fingerprint == "sentry:payments|{{ default }}")
    }

    @Test func aMessageEventIsAnErrorOfItsLevelWithTheMessage() throws {
        let logged = try Self.object(
            #"{"level":"error","logger":"shop.orders","logentry":{"message":"order %s failed","params":["7"],"formatted":"order 7 failed"}}"#)
        let event = try #require(SentryEventMapper.map(type: "event", payload: logged, receivedAt: Self.received).first?.event)
        #expect(event.exceptionType == SentryEventMapper.messageType)
        #expect(event.exceptionMessage == "order 7 failed")
        #expect(event.source == "shop.orders")
        #expect(event.time == Self.received)
        let warning = try Self.object(#"{"level":"warning","message":"nightly report done"}"#)
        let captured = try #require(SentryEventMapper.map(type: "event", payload: warning, receivedAt: Self.received).first?.event)
        #expect(captured.severity == .warning)
        #expect(captured.exceptionMessage == "nightly report done")
        #expect(captured.fingerprint != event.fingerprint)
    }

    @Test func aTransactionsFailedSpansAreErrorsOfItsTrace() throws {
        let payload = try Self.object(
            #"""
            {"type":"transaction","transaction":"checkout","timestamp":1800000001.5,"release":"shop@1.4.2",
             "contexts":{"trace":{"trace_id":"a4a8df4141a14af9b93407bb7f4ce3e9","span_id":"830dd69515c89dfa","op":"task","status":"ok"}},
             "spans":[{"op":"db.query","description":"SELECT stock","status":"internal_error","span_id":"1111111111111111",
                       "trace_id":"a4a8df4141a14af9b93407bb7f4ce3e9","timestamp":1800000001.25},
                      {"op":"http","description":"GET /","status":"ok","span_id":"2222222222222222"},
                      {"op":"cache","description":"no status"}]}
            """#)
        let mapped = SentryEventMapper.map(type: "transaction", payload: payload, receivedAt: Self.received)
        #expect(mapped.count == 1)
        let event = try #require(mapped.first?.event)
        #expect(event.exceptionType == "span.internal_error")
        #expect(event.exceptionMessage == "db.query: SELECT stock")
        #expect(event.traceID == "a4a8df4141a14af9b93407bb7f4ce3e9")
        #expect(event.spanID == "1111111111111111")
        #expect(event.time == Date(timeIntervalSince1970: 1_800_000_001.25))
        #expect(event.serviceVersion == "shop@1.4.2")
        #expect(event.attributes["transaction"] == "checkout")
    }

    @Test func logItemsAreLogLinesOfTheirLevel() throws {
        let payload = try Self.object(
            #"{"items":[{"timestamp":1800000002,"level":"warn","body":"disk low","trace_id":"a4a8df4141a14af9b93407bb7f4ce3e9","attributes":{"sentry.release":{"value":"shop@1","type":"string"},"free":{"value":3,"type":"integer"}}}]}"#)
        let mapped = SentryEventMapper.map(type: "log", payload: payload, receivedAt: Self.received)
        let event = try #require(mapped.first?.event)
        #expect(event.kind == .log)
        #expect(event.body == "disk low")
        #expect(event.severity == .warning)
        #expect(event.attributes["free"] == "3")
        #expect(event.serviceVersion == "shop@1")
        #expect(mapped.first?.report == nil)
    }

    @Test func aHundredThousandFramesKeepTheHeadAndTheFailingEnd() throws {
        let frames = (0..<100_000).map { #"{"function":"f\#($0)","lineno":\#($0),"in_app":true}"# }
        let payload = try Self.object(
            #"{"exception":{"values":[{"type":"Deep","stacktrace":{"frames":[\#(frames.joined(separator: ","))]}}]}}"#)
        let report = try #require(SentryEventMapper.map(type: "event", payload: payload, receivedAt: Self.received).first?.report)
        let kept = report.exceptions[0].frames
        let limits = SentryEventMapper.Limits.self
        #expect(kept.count == limits.framesHead + limits.framesTail)
        #expect(kept.first?.function == "f0")
        #expect(kept.last?.function == "f99999")
        #expect(report.exceptions[0].framesOmitted == 100_000 - kept.count)
        #expect(!report.cut.isEmpty)
    }

    @Test func megabytesOfVariablesAreCutToTheirBound() throws {
        let huge = String(repeating: "x", count: 3_000_000)
        let names = (0..<500).map { #""v\#($0)":"y""# }.joined(separator: ",")
        let payload = try Self.object(
            #"{"exception":{"values":[{"type":"E","stacktrace":{"frames":[{"vars":{"big":"\#(huge)",\#(names)}}]}}]}}"#)
        let report = try #require(SentryEventMapper.map(type: "event", payload: payload, receivedAt: Self.received).first?.report)
        let variables = report.exceptions[0].frames[0].variables
        #expect(variables.count == SentryEventMapper.Limits.variables)
        let big = try #require(variables.first { $0.name == "big" })
        #expect(big.value.count <= SentryEventMapper.Limits.variableCharacters + 1)
        #expect(big.value.hasSuffix("…"))
    }

    @Test func deeplyNestedContextsAreFlattenedToABoundedDepth() throws {
        var nested = #""leaf""#
        for level in 0..<200 { nested = #"{"k\#(level)":\#(nested)}"# }
        let payload = try Self.object(#"{"message":"m","contexts":{"deep":\#(nested)}}"#)
        let report = try #require(SentryEventMapper.map(type: "event", payload: payload, receivedAt: Self.received).first?.report)
        let fields = try #require(report.contexts.first { $0.name == "deep" }?.fields)
        #expect(fields.count == 1)
        // Three levels of names, the rest written as bounded JSON.
        #expect(fields[0].name.split(separator: ".").count == 3)
        #expect(fields[0].value.count <= 1_025)
    }

    @Test func whatIsNotSentStaysUnknown() throws {
        let payload = try Self.object(#"{"exception":{"values":[{"value":"no type"}]}}"#)
        let mapped = try #require(SentryEventMapper.map(type: "event", payload: payload, receivedAt: Self.received).first)
        #expect(mapped.event.exceptionType == "Exception")
        #expect(mapped.event.serviceVersion == nil)
        #expect(mapped.event.deploymentEnvironment == nil)
        #expect(mapped.event.hostName == nil)
        #expect(mapped.event.severity == nil)
        #expect(mapped.report?.exceptions.first?.type == nil)
        #expect(mapped.report?.exceptions.first?.handled == nil)
    }
}
