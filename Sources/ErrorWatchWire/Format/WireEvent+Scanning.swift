import ErrorStreaming
import Foundation

extension WireEvent {
    /// Decodes one line's bytes (no newline, UTF-8 already checked) with ``JSONScanner``: the fast path of
    /// ``WireDecoder``. Same rules as ``init(from:)``: the version is checked first, unknown fields are ignored,
    /// `null` means absent.
    init(scanning bytes: UnsafeRawBufferPointer) throws(WireError) {
        var raw = RawFields()
        var scanner = JSONScanner(bytes)
        do {
            try scanner.scanObject { key, value in raw.set(key, value) }
        } catch {
            var probe = JSONScanner(bytes)
            if bytes.first(where: { $0 > 0x20 }) != UInt8(ascii: "{"), probe.isValidValue() { throw .notAnObject }
            throw .malformedJSON("\(error.message) at byte \(error.offset)")
        }
        guard let versionValue = raw.version, !versionValue.isNull else { throw .missingField("v") }
        guard let version = Self.integer(versionValue, bytes) else { throw .invalidField("v") }
        guard version == Int64(Self.currentVersion) else { throw .unsupportedVersion(Int(clamping: version)) }
        guard let kindText = try Self.string(raw.kind, "kind", required: true) else { throw .missingField("kind") }
        guard let kind = Kind(rawValue: kindText) else { throw .invalidField("kind") }
        guard let timeText = try Self.string(raw.time, "time", required: true) else { throw .missingField("time") }
        guard let time = RFC3339.parse(timeText) else { throw .invalidField("time") }
        self.init(kind: kind, time: time)
        serviceName = try Self.string(raw.serviceName, "service.name")
        pid = try Self.int(raw.pid, "process.pid", bytes)
        hostName = try Self.string(raw.hostName, "host.name")
        source = try Self.string(raw.source, "source")
        exceptionType = try Self.string(raw.exceptionType, "exception.type")
        exceptionMessage = try Self.string(raw.exceptionMessage, "exception.message")
        userMessage = try Self.string(raw.userMessage, "message.user")
        code = try Self.string(raw.code, "error.code").map { text throws(WireError) in
            guard let code = ErrorCode(parsing: text) else { throw .invalidField("error.code") }
            return code
        }
        category = try Self.string(raw.category, "error.category").map { text throws(WireError) in
            guard let category = ErrorCategory(rawValue: text) else { throw .invalidField("error.category") }
            return category
        }
        let severityKey = raw.severity != nil ? "severity" : "severity_text"
        severity = try Self.string(raw.severity ?? raw.severityText, severityKey).map { text throws(WireError) in
            guard let severity = ErrorSeverity(wireName: text) else { throw .invalidField(severityKey) }
            return severity
        }
        origin = try Self.string(raw.origin, "origin").map { text throws(WireError) in
            guard let origin = ErrorOrigin(rawValue: text.lowercased()) else { throw .invalidField("origin") }
            return origin
        }
        attempt = try Self.int(raw.attempt, "attempt", bytes)
        if let value = raw.sequence, !value.isNull {
            guard let number = Self.integer(value, bytes), number >= 0 else { throw .invalidField("sequence") }
            sequence = UInt64(number)
        }
        switch raw.attributes {
        case nil, .null?: break
        case .stringMap(let map)?: attributes = map
        default: throw .invalidField("attributes")
        }
        body = try Self.string(raw.body, "body")
        if body == nil { body = try Self.string(raw.logMessage, "log.message") }
        metricName = try Self.string(raw.metricName, "metric.name")
        switch raw.metricValue {
        case nil, .null?: break
        case .number(let range)?:
            // A number too large for a Double (`1e999`) would be an infinite sample, which poisons every sum it
            // joins and which no writer can write back (JSON has no infinity): malformed, as JSONDecoder has it.
            let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
            guard let value = Double(text), value.isFinite else { throw .invalidField("metric.value") }
            metricValue = value
        default: throw .invalidField("metric.value")
        }
        metricUnit = try Self.string(raw.metricUnit, "metric.unit")
        metricKind = try Self.string(raw.metricKind, "metric.kind").map { text throws(WireError) in
            guard let kind = WireMetricKind(wireName: text) else { throw .invalidField("metric.kind") }
            return kind
        }
        statusName = try Self.string(raw.statusName, "status.name")
        statusState = try Self.string(raw.statusState, "status.state")
        statusHealth = try Self.string(raw.statusHealth, "status.health").map { text throws(WireError) in
            guard let health = StatusHealth(wireName: text) else { throw .invalidField("status.health") }
            return health
        }
        statusDetail = try Self.string(raw.statusDetail, "status.detail")
        exceptionStacktrace = try Self.string(raw.exceptionStacktrace, "exception.stacktrace")
        codeFilePath = try Self.string(raw.codeFilePath, "code.filepath")
        codeLineNumber = try Self.int(raw.codeLineNumber, "code.lineno", bytes)
        if let line = codeLineNumber, line < 0 { throw .invalidField("code.lineno") }
        codeFunction = try Self.string(raw.codeFunction, "code.function")
        switch raw.handlingPath {
        case nil, .null?: break
        case .stringArray(let path)?: handlingPath = path
        default: throw .invalidField("handling.path")
        }
        handlingOutcome = try Self.string(raw.handlingOutcome, "handling.outcome")
        switch raw.handlingHandled {
        case nil, .null?: break
        case .bool(let handled)?: handlingHandled = handled
        default: throw .invalidField("handling.handled")
        }
        try validateRequiredFields()
    }

    private static func string(_ value: JSONScanner.Value?, _ key: String, required: Bool = false) throws(WireError)
        -> String?
    {
        switch value {
        case nil, .null?: return nil
        case .string(let text)?: return text
        default: throw .invalidField(key)
        }
    }

    private static func int(_ value: JSONScanner.Value?, _ key: String, _ bytes: UnsafeRawBufferPointer)
        throws(WireError) -> Int?
    {
        guard let value, !value.isNull else { return nil }
        guard let number = integer(value, bytes), let result = Int(exactly: number) else { throw .invalidField(key) }
        return result
    }

    /// A JSON number without fraction or exponent that fits 64 bits; `nil` otherwise.
    private static func integer(_ value: JSONScanner.Value, _ bytes: UnsafeRawBufferPointer) -> Int64? {
        guard case .number(let range) = value else { return nil }
        var negative = false
        var result: Int64 = 0
        for position in range {
            let byte = bytes[position]
            if byte == UInt8(ascii: "-") {
                negative = true
                continue
            }
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let (times, overflow1) = result.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
            guard !overflow1, !overflow2 else { return nil }
            result = sum
        }
        return negative ? -result : result
    }

    /// The members the format knows, as scanned; later duplicates win, as in `JSONDecoder`.
    private struct RawFields {
        var version, kind, time, serviceName, pid, hostName, source, exceptionType, exceptionMessage: JSONScanner.Value?
        var userMessage, code, category, severity, severityText, origin, attempt, sequence: JSONScanner.Value?
        var attributes, body, logMessage, metricName, metricValue, metricUnit, metricKind: JSONScanner.Value?
        var statusName, statusState, statusHealth, statusDetail: JSONScanner.Value?
        var exceptionStacktrace, codeFilePath, codeLineNumber, codeFunction: JSONScanner.Value?
        var handlingPath, handlingOutcome, handlingHandled: JSONScanner.Value?

        mutating func set(_ key: String, _ value: JSONScanner.Value) {
            switch key {
            case "v": version = value
            case "kind": kind = value
            case "time": time = value
            case "service.name": serviceName = value
            case "process.pid": pid = value
            case "host.name": hostName = value
            case "source": source = value
            case "exception.type": exceptionType = value
            case "exception.message": exceptionMessage = value
            case "message.user": userMessage = value
            case "error.code": code = value
            case "error.category": category = value
            case "severity": severity = value
            case "severity_text": severityText = value
            case "origin": origin = value
            case "attempt": attempt = value
            case "sequence": sequence = value
            case "attributes": attributes = value
            case "body": body = value
            case "log.message": logMessage = value
            case "metric.name": metricName = value
            case "metric.value": metricValue = value
            case "metric.unit": metricUnit = value
            case "metric.kind": metricKind = value
            case "status.name": statusName = value
            case "status.state": statusState = value
            case "status.health": statusHealth = value
            case "status.detail": statusDetail = value
            case "exception.stacktrace": exceptionStacktrace = value
            case "code.filepath": codeFilePath = value
            case "code.lineno": codeLineNumber = value
            case "code.function": codeFunction = value
            case "handling.path": handlingPath = value
            case "handling.outcome": handlingOutcome = value
            case "handling.handled": handlingHandled = value
            default: break
            }
        }
    }
}

extension JSONScanner.Value {
    var isNull: Bool { if case .null = self { true } else { false } }
}
