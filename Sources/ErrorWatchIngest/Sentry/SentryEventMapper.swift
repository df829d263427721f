import ErrorStreaming
import ErrorWatchWire
import Foundation

/// Maps Sentry `event`, `transaction` and `log` payloads onto wire events (the table is in docs/sentry.md, kept true
/// by `SentryDocsTests`). Every value is the SDK's own, bounded by ``Limits``; nothing is invented: what the SDK did
/// not send stays unknown.
enum SentryEventMapper {
    /// The bounds of one event's report.
    enum Limits {
        static let exceptions = 20
        /// Frames kept per exception: the first ``framesHead`` and the last ``framesTail`` of a longer stack.
        static let framesHead = 50
        static let framesTail = 200
        static let contextLines = 10
        static let lineCharacters = 400
        static let variables = 50
        static let variableCharacters = 1_024
        static let tags = 200
        static let contexts = 50
        static let contextFields = 100
        static let breadcrumbs = 100
        static let breadcrumbFields = 20
        static let messageCharacters = 8_192
        static let spans = 1_000
        static let logs = 1_000
        /// Characters of source lines and variables kept per report, from the failing frame outwards: a Logs pane
        /// of thousands of such events stays within memory.
        static let frameDetailCharacters = 64 * 1_024
    }

    /// The type of an event that carries a message and no exception (`capture_message`, `logger.error` without
    /// `exc_info`): Sentry's own word for such events.
    static let messageType = "message"

    /// The request headers whose values are never kept (shown as `[not kept]`).
    static let secretHeaders: Set<String> = ["cookie", "set-cookie", "authorization", "proxy-authorization", "x-api-key"]

    /// The events of one item; `receivedAt` stands in for payloads without a time. `cuts` are what the reader cut
    /// while reading it (``SentryJSONReader/Result/cuts``), shown with an error's report.
    static func map(type: String, payload: [String: Any], receivedAt: Date, cuts: [String] = []) -> [SentryMappedEvent] {
        switch type {
        case "event":
            var mapped = errorEvent(payload, receivedAt: receivedAt)
            mapped.report?.cut += cuts
            return [mapped]
        case "transaction": return failedSpans(payload, receivedAt: receivedAt)
        case "log": return logs(payload, receivedAt: receivedAt)
        default: return []
        }
    }

    // MARK: Events

    static func errorEvent(_ payload: [String: Any], receivedAt: Date) -> SentryMappedEvent {
        var report = ExceptionReport()
        let chain = exceptionValues(payload["exception"])
        var exceptions = chain.values
        if chain.sent > Limits.exceptions {
            report.cut.append("exceptions: kept the last \(Limits.exceptions) of \(chain.sent)")
            exceptions = Array(exceptions.suffix(Limits.exceptions))
        }
        // Sentry lists the chain oldest first; the detail shows the outermost (the last raised) first.
        report.exceptions = exceptions.reversed().map { exception($0, cut: &report.cut) }
        spendFrameDetail(&report)
        let primary = report.exceptions.first
        let logMessage = message(payload)
        let level = SentryJSON.text(payload["level"], limit: 32)
        var event = WireEvent(
            kind: .error, time: SentryJSON.date(payload["timestamp"]) ?? receivedAt,
            source: SentryJSON.text(payload["logger"], limit: 200),
            exceptionType: primary.map { $0.type ?? $0.module ?? "Exception" } ?? messageType,
            exceptionMessage: primary?.value ?? logMessage, severity: level.flatMap(severity))
        event.hostName = SentryJSON.text(payload["server_name"], limit: 200)
        // Where it failed: the failing frame of the outermost exception that is the app's own (else the last frame).
        if let frames = primary?.frames, let frame = frames.last(where: { $0.inApp == true }) ?? frames.last {
            event.codeFilePath = frame.file
            event.codeLineNumber = frame.line
            event.codeFunction = frame.function
        }
        var dropped = 0
        report.tags = SentryJSON.fields(payload["tags"], limit: Limits.tags, depth: 1, dropped: &dropped)
        if dropped > 0 { report.cut.append("tags: \(dropped) left out past \(Limits.tags)") }
        report.contexts = sections(payload["contexts"], cut: &report.cut)
        if payload["extra"] is [String: Any] {
            dropped = 0
            let extra = SentryJSON.fields(payload["extra"], limit: Limits.contextFields, dropped: &dropped)
            if !extra.isEmpty { report.contexts.append(ExceptionReport.Section("extra", extra)) }
        }
        dropped = 0
        report.user = SentryJSON.fields(payload["user"], limit: Limits.contextFields, dropped: &dropped)
        report.request = request(payload["request"])
        report.breadcrumbs = breadcrumbs(payload["breadcrumbs"], cut: &report.cut)
        var about: [ExceptionReport.Field] = []
        for key in [
            "level", "logger", "platform", "release", "environment", "server_name", "transaction", "dist", "event_id",
        ] {
            if let value = SentryJSON.text(payload[key], limit: 400) { about.append(.init(key, value)) }
        }
        if let sdk = payload["sdk"] as? [String: Any], let name = SentryJSON.text(sdk["name"], limit: 100) {
            about.append(.init("sdk", SentryJSON.text(sdk["version"], limit: 100).map { "\(name) \($0)" } ?? name))
        }
        if primary != nil, let logMessage { about.append(.init("message", logMessage)) }
        report.about = about
        let trace = (payload["contexts"] as? [String: Any])?["trace"] as? [String: Any]
        event.fingerprint = fingerprint(payload, report: report, message: logMessage)
        event.serviceVersion = SentryJSON.text(payload["release"], limit: 200)
        event.deploymentEnvironment = SentryJSON.text(payload["environment"], limit: 200)
        if let trace, isTrace(trace) {
            event.traceID = SentryJSON.text(trace["trace_id"], limit: 64)
            event.spanID = SentryJSON.text(trace["span_id"], limit: 32)
        } else if let id = SentryJSON.text(trace?["trace_id"], limit: 64) {
            // The SDK's propagation context: an id it makes up for every event outside a transaction, shared by
            // unrelated errors. Kept as sent, as an attribute, but it links nothing.
            event.attributes["sentry.propagation_trace_id"] = id
        }
        return SentryMappedEvent(event: event, report: report)
    }

    /// Whether an event's trace context names a trace the producer traced: an event inside a transaction or span
    /// (its `op`), one continuing a trace from upstream (a `parent_span_id`), or one whose sampling context names a
    /// transaction or a sampling decision. An SDK's bare propagation context (trace and span ids it made up, with
    /// nothing else) is none of these.
    static func isTrace(_ trace: [String: Any]) -> Bool {
        if SentryJSON.text(trace["op"], limit: 200) != nil { return true }
        if SentryJSON.text(trace["parent_span_id"], limit: 32) != nil { return true }
        if let sampling = trace["dynamic_sampling_context"] as? [String: Any],
            sampling["transaction"] != nil || sampling["sampled"] != nil
        {
            return true
        }
        return false
    }

    /// `exception.values` (or a bare list, as older SDKs send), and how many were sent.
    static func exceptionValues(_ value: Any?) -> (values: [[String: Any]], sent: Int) {
        guard let list = SentryJSON.list((value as? [String: Any])?["values"] ?? value) else { return ([], 0) }
        let values = list.elements.compactMap { $0 as? [String: Any] }
        return (values, values.count + list.total - list.elements.count)
    }

    static func exception(_ value: [String: Any], cut: inout [String]) -> ExceptionReport.Exception {
        let mechanism = value["mechanism"] as? [String: Any]
        var result = ExceptionReport.Exception(
            type: SentryJSON.text(value["type"], limit: 400), value: SentryJSON.text(value["value"], limit: Limits.messageCharacters),
            module: SentryJSON.text(value["module"], limit: 400), mechanism: SentryJSON.text(mechanism?["type"], limit: 100),
            handled: SentryJSON.bool(mechanism?["handled"]))
        let rawFrames = SentryJSON.list((value["stacktrace"] as? [String: Any])?["frames"]) ?? ([], 0)
        let limit = Limits.framesHead + Limits.framesTail
        var kept: [Any] = rawFrames.elements
        if rawFrames.total > limit {
            kept = Array(rawFrames.elements.prefix(Limits.framesHead)) + Array(rawFrames.elements.suffix(Limits.framesTail))
            result.framesOmitted = rawFrames.total - limit
            cut.append("frames: kept the first \(Limits.framesHead) and last \(Limits.framesTail) of \(rawFrames.total)")
        }
        result.frames = kept.compactMap { ($0 as? [String: Any]).map(frame) }
        return result
    }

    /// Keeps source lines and variables of the frames nearest the failure (the outermost exception's last frames
    /// first) within ``Limits/frameDetailCharacters``; the frames beyond keep their place, not their detail.
    static func spendFrameDetail(_ report: inout ExceptionReport) {
        var left = Limits.frameDetailCharacters
        var stripped = 0
        for exception in report.exceptions.indices {
            for index in report.exceptions[exception].frames.indices.reversed() {
                var frame = report.exceptions[exception].frames[index]
                let cost =
                    frame.preContext.reduce(0) { $0 + $1.utf8.count } + (frame.contextLine?.utf8.count ?? 0)
                    + frame.postContext.reduce(0) { $0 + $1.utf8.count }
                    + frame.variables.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count }
                guard cost > left else {
                    left -= cost
                    continue
                }
                if !frame.variables.isEmpty || !frame.preContext.isEmpty || !frame.postContext.isEmpty {
                    stripped += 1
                }
                frame.variables = []
                frame.preContext = []
                frame.postContext = []
                left = max(0, left - (frame.contextLine?.utf8.count ?? 0))
                report.exceptions[exception].frames[index] = frame
            }
        }
        if stripped > 0 {
            report.cut.append(
                "source lines and variables: kept for the frames nearest the failure, within \(Limits.frameDetailCharacters) "
                    + "characters; \(stripped) frames beyond show their place only")
        }
    }

    static func frame(_ value: [String: Any]) -> ExceptionReport.Frame {
        func lines(_ list: Any?) -> [String] {
            (SentryJSON.list(list)?.elements ?? []).suffix(Limits.contextLines).map {
                SentryJSON.text($0, limit: Limits.lineCharacters) ?? ""
            }
        }
        var variables: [ExceptionReport.Field] = []
        if let vars = value["vars"] as? [String: Any] {
            for name in vars.keys.sorted().prefix(Limits.variables) {
                variables.append(
                    .init(
                        SentryJSON.cut(name, 200),
                        SentryJSON.text(vars[name], limit: Limits.variableCharacters) ?? "None"))
            }
        }
        return ExceptionReport.Frame(
            function: SentryJSON.text(value["function"], limit: 400),
            module: SentryJSON.text(value["module"] ?? value["package"], limit: 400),
            file: SentryJSON.text(value["filename"] ?? value["abs_path"], limit: 1_000),
            line: SentryJSON.int(value["lineno"]), column: SentryJSON.int(value["colno"]),
            inApp: SentryJSON.bool(value["in_app"]),
            preContext: lines(value["pre_context"]),
            contextLine: SentryJSON.text(value["context_line"], limit: Limits.lineCharacters),
            postContext: Array(lines(value["post_context"]).prefix(Limits.contextLines)), variables: variables)
    }

    /// `logentry.formatted`, else `logentry.message`, else `message` (text, or an object of the older form).
    static func message(_ payload: [String: Any]) -> String? {
        for candidate in [payload["logentry"], payload["message"]] {
            if let object = candidate as? [String: Any] {
                if let text = SentryJSON.text(object["formatted"] ?? object["message"], limit: Limits.messageCharacters) {
                    return text
                }
            } else if let text = candidate as? String {
                return SentryJSON.cut(text, Limits.messageCharacters)
            }
        }
        return nil
    }

    /// Sentry's levels: `fatal`, `error`, `warning`, `info`, `debug` (and `critical`, `log` as some SDKs write).
    static func severity(_ level: String) -> ErrorSeverity? {
        switch level.lowercased() {
        case "fatal", "critical": .critical
        case "error": .error
        case "warning", "warn": .warning
        case "info", "log": .info
        case "debug", "trace": .debug
        default: nil
        }
    }

    static func sections(_ value: Any?, cut: inout [String]) -> [ExceptionReport.Section] {
        guard let contexts = value as? [String: Any] else { return [] }
        var result: [ExceptionReport.Section] = []
        var dropped = 0
        for name in contexts.keys.sorted() {
            guard result.count < Limits.contexts else {
                cut.append("contexts: kept \(Limits.contexts) of \(contexts.count)")
                break
            }
            let fields = SentryJSON.fields(contexts[name], limit: Limits.contextFields, depth: 3, dropped: &dropped)
            result.append(ExceptionReport.Section(SentryJSON.cut(name, 200), fields))
        }
        if dropped > 0 { cut.append("contexts: \(dropped) fields left out") }
        return result
    }

    /// Method, url, query and headers; cookies and authorization values are not kept, nor the body.
    static func request(_ value: Any?) -> [ExceptionReport.Field] {
        guard let request = value as? [String: Any] else { return [] }
        var result: [ExceptionReport.Field] = []
        for key in ["method", "url", "query_string"] {
            if let text = SentryJSON.text(request[key], limit: 2_048) { result.append(.init(key, text)) }
        }
        var dropped = 0
        for header in SentryJSON.fields(request["headers"], limit: 100, depth: 1, dropped: &dropped) {
            let secret = secretHeaders.contains(header.name.lowercased())
            result.append(.init("headers." + header.name, secret ? "[not kept]" : header.value))
        }
        return result
    }

    static func breadcrumbs(_ value: Any?, cut: inout [String]) -> [ExceptionReport.Breadcrumb] {
        let list = SentryJSON.list((value as? [String: Any])?["values"] ?? value) ?? ([], 0)
        if list.total > Limits.breadcrumbs {
            cut.append("breadcrumbs: kept the last \(Limits.breadcrumbs) of \(list.total)")
        }
        return list.elements.suffix(Limits.breadcrumbs).compactMap { item in
            guard let crumb = item as? [String: Any] else { return nil }
            var dropped = 0
            return ExceptionReport.Breadcrumb(
                timestamp: SentryJSON.date(crumb["timestamp"]), category: SentryJSON.text(crumb["category"], limit: 200),
                level: SentryJSON.text(crumb["level"], limit: 32), type: SentryJSON.text(crumb["type"], limit: 64),
                message: SentryJSON.text(crumb["message"], limit: 2_048),
                data: SentryJSON.fields(crumb["data"], limit: Limits.breadcrumbFields, depth: 2, valueLimit: 400, dropped: &dropped))
        }
    }

    /// The SDK's `fingerprint` (other than only `{{ default }}`), else Sentry's default grouping: the outermost
    /// exception's type and its in-app frames' module and function (all frames when none is in-app); for a
    /// message event, the message.
    static func fingerprint(_ payload: [String: Any], report: ExceptionReport, message: String?) -> String {
        if let parts = SentryJSON.list(payload["fingerprint"])?.elements {
            let texts = parts.compactMap { SentryJSON.text($0, limit: 200) }
            if !texts.isEmpty, texts != ["{{ default }}"] { return "sentry:" + texts.joined(separator: "|") }
        }
        guard let primary = report.exceptions.first else { return "sentry:message|" + (message ?? "") }
        let inApp = primary.frames.filter { $0.inApp == true }
        let frames = (inApp.isEmpty ? primary.frames : inApp).map { "\($0.module ?? $0.file ?? "?").\($0.function ?? "?")" }
        return "sentry:" + ([primary.type ?? "?"] + frames).joined(separator: "|")
    }

    // MARK: Transactions and logs

    /// A transaction's spans whose `status` is set and not `ok` (and the transaction itself, when its trace context
    /// says so), each an error of the trace: type `span.status`, message the span's `op` and `description`.
    static func failedSpans(_ payload: [String: Any], receivedAt: Date) -> [SentryMappedEvent] {
        let trace = (payload["contexts"] as? [String: Any])?["trace"] as? [String: Any]
        let traceID = SentryJSON.text(trace?["trace_id"], limit: 64)
        let transaction = SentryJSON.text(payload["transaction"], limit: 400)
        var spans = (SentryJSON.list(payload["spans"])?.elements ?? []).prefix(Limits.spans).compactMap { $0 as? [String: Any] }
        if let trace { spans.insert(trace.merging(["timestamp": payload["timestamp"] as Any]) { old, _ in old }, at: 0) }
        var result: [SentryMappedEvent] = []
        for span in spans {
            guard let status = SentryJSON.text(span["status"], limit: 64), status != "ok" else { continue }
            let op = SentryJSON.text(span["op"], limit: 200)
            let description = SentryJSON.text(span["description"], limit: Limits.messageCharacters)
            var event = WireEvent(
                kind: .error, time: SentryJSON.date(span["timestamp"]) ?? SentryJSON.date(payload["timestamp"]) ?? receivedAt,
                source: transaction, exceptionType: "span." + status,
                exceptionMessage: [op, description].compactMap { $0 }.joined(separator: ": "), severity: .error)
            var attributes: [String: String] = ["span.status": status]
            attributes["span.op"] = op
            attributes["transaction"] = transaction
            event.attributes = attributes
            var dropped = 0
            var cut: [String] = []
            let report = ExceptionReport(
                tags: SentryJSON.fields(span["tags"] ?? payload["tags"], limit: Limits.tags, depth: 1, dropped: &dropped),
                contexts: sections(payload["contexts"], cut: &cut),
                about: [("transaction", transaction), ("span.op", op), ("span.status", status)].compactMap { name, value in
                    value.map { ExceptionReport.Field(name, $0) }
                }, cut: cut)
            event.fingerprint = "sentry:span|\(status)|\(op ?? "?")|\(transaction ?? "?")"
            event.serviceVersion = SentryJSON.text(payload["release"], limit: 200)
            event.deploymentEnvironment = SentryJSON.text(payload["environment"], limit: 200)
            event.traceID = SentryJSON.text(span["trace_id"], limit: 64) ?? traceID
            event.spanID = SentryJSON.text(span["span_id"], limit: 32)
            result.append(SentryMappedEvent(event: event, report: report))
        }
        return result
    }

    /// A `log` item's records (`{"items": [...]}`), each a log line of its level.
    static func logs(_ payload: [String: Any], receivedAt: Date) -> [SentryMappedEvent] {
        let items = (SentryJSON.list(payload["items"])?.elements ?? []).prefix(Limits.logs).compactMap { $0 as? [String: Any] }
        return items.map { item in
            var event = WireEvent(
                kind: .log, time: SentryJSON.date(item["timestamp"]) ?? receivedAt,
                severity: SentryJSON.text(item["level"], limit: 32).flatMap(severity),
                body: SentryJSON.text(item["body"], limit: Limits.messageCharacters) ?? "")
            var attributes: [String: String] = [:]
            if let object = item["attributes"] as? [String: Any] {
                for name in object.keys.sorted().prefix(64) {
                    // Each attribute is `{"value": …, "type": …}`.
                    let value = (object[name] as? [String: Any])?["value"] ?? object[name]
                    attributes[SentryJSON.cut(name, 200)] = SentryJSON.text(value, limit: 1_024)
                }
            }
            event.attributes = attributes
            event.source = attributes["sentry.origin"] ?? attributes["logger.name"]
            event.serviceVersion = attributes["sentry.release"]
            event.deploymentEnvironment = attributes["sentry.environment"]
            event.traceID = SentryJSON.text(item["trace_id"], limit: 64)
            return SentryMappedEvent(event: event)
        }
    }
}
