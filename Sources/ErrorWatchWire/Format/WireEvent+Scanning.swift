import ErrorStreaming
import Foundation

extension WireEvent {
    /// Decodes one line's bytes (no newline, UTF-8 already checked) with ``JSONScanner``: the fast path of
    /// ``WireDecoder``. Same rules as ``init(from:)``: the version is checked first, unknown fields are ignored,
    /// `null` means absent.
    ///
    /// A `time` that is a string but not RFC 3339 (`2026-13-01T…`), or a number (`1e308`, `-1`), does not lose the
    /// event: it takes `readAt` (now when `nil`) and keeps what was sent in ``unreadableTimeAttribute``.
    init(scanning bytes: UnsafeRawBufferPointer, readAt: Date? = nil) throws(WireError) {
        var raw = RawFields()
        var scanner = JSONScanner(bytes)
        do {
            try scanner.scanObject { key, value in raw.set(key, value) }
        } catch {
            var probe = JSONScanner(bytes)
            if bytes.first(where: { $0 > 0x20 }) != UInt8(ascii: "{"), probe.isValidValue() { throw .notAnObject }
            throw .malformedJSON("\(error.message) at byte \(error.offset)")
        }
        guard let versionValue = raw.version, !versionValue.isNull else { throw .missing(.version) }
        guard let version = Self.integer(versionValue, bytes) else { throw .invalid(.version) }
        guard version == Int64(Self.currentVersion) else { throw .unsupportedVersion(Int(clamping: version)) }
        guard let kindText = try Self.string(raw.kind, .kind, required: true) else { throw .missing(.kind) }
        guard let kind = Kind(rawValue: kindText) else { throw .invalid(.kind) }
        var unreadableTime: String?
        let time: Date
        switch raw.time {
        case nil, .null?: throw .missing(.time)
        case .string(let text)?:
            if let parsed = RFC3339.parse(text) {
                time = parsed
            } else {
                (time, unreadableTime) = (readAt ?? Date(), text)
            }
        case .number(let range)?:
            let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
            (time, unreadableTime) = (readAt ?? Date(), text)
        default: throw .invalid(.time)
        }
        self.init(kind: kind, time: time)
        serviceName = try Self.string(raw.serviceName, .serviceName)
        pid = try Self.int(raw.pid, .pid, bytes)
        hostName = try Self.string(raw.hostName, .hostName)
        source = try Self.string(raw.source, .source)
        exceptionType = try Self.string(raw.exceptionType, .exceptionType)
        exceptionMessage = try Self.string(raw.exceptionMessage, .exceptionMessage)
        userMessage = try Self.string(raw.userMessage, .userMessage)
        // Any code a producer sends is kept as it wrote it; `code` is its reading as an ErrorCode, when it is one.
        if let text = try Self.string(raw.code, .code) { setVerbatimCode(text) }
        category = try Self.string(raw.category, .category).map { text throws(WireError) in
            guard let category = ErrorCategory(rawValue: text) else { throw .invalid(.category) }
            return category
        }
        let severityKey: WireMember = raw.severity != nil ? .severity : .severityText
        severity = try Self.string(raw.severity ?? raw.severityText, severityKey).map { text throws(WireError) in
            guard let severity = ErrorSeverity(wireName: text) else { throw .invalid(severityKey) }
            return severity
        }
        origin = try Self.string(raw.origin, .origin).map { text throws(WireError) in
            guard let origin = ErrorOrigin(rawValue: text.lowercased()) else { throw .invalid(.origin) }
            return origin
        }
        attempt = try Self.int(raw.attempt, .attempt, bytes)
        if let value = raw.sequence, !value.isNull {
            guard let number = Self.integer(value, bytes), number >= 0 else { throw .invalid(.sequence) }
            sequence = UInt64(number)
        }
        switch raw.attributes {
        case nil, .null?: break
        case .stringMap(let map)?: attributes = map
        default: throw .invalid(.attributes)
        }
        body = try Self.string(raw.body, .body)
        if body == nil { body = try Self.string(raw.logMessage, .logMessage) }
        metricName = try Self.string(raw.metricName, .metricName)
        switch raw.metricValue {
        case nil, .null?: break
        case .number(let range)?:
            // A number too large for a Double (`1e999`) would be an infinite sample, which poisons every sum it
            // joins and which no writer can write back (JSON has no infinity): malformed, as JSONDecoder has it.
            let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
            guard let value = Double(text), value.isFinite else { throw .invalid(.metricValue) }
            metricValue = value
        default: throw .invalid(.metricValue)
        }
        metricUnit = try Self.string(raw.metricUnit, .metricUnit)
        metricKind = try Self.string(raw.metricKind, .metricKind).map { text throws(WireError) in
            guard let kind = WireMetricKind(wireName: text) else { throw .invalid(.metricKind) }
            return kind
        }
        statusName = try Self.string(raw.statusName, .statusName)
        statusState = try Self.string(raw.statusState, .statusState)
        statusHealth = try Self.string(raw.statusHealth, .statusHealth).map { text throws(WireError) in
            guard let health = StatusHealth(wireName: text) else { throw .invalid(.statusHealth) }
            return health
        }
        statusDetail = try Self.string(raw.statusDetail, .statusDetail)
        exceptionStacktrace = try Self.string(raw.exceptionStacktrace, .exceptionStacktrace)
        codeFilePath = try Self.string(raw.codeFilePath, .codeFilePath)
        codeLineNumber = try Self.int(raw.codeLineNumber, .codeLineNumber, bytes)
        if let line = codeLineNumber, line < 0 { throw .invalid(.codeLineNumber) }
        codeFunction = try Self.string(raw.codeFunction, .codeFunction)
        switch raw.handlingPath {
        case nil, .null?: break
        case .stringArray(let path)?: handlingPath = path
        default: throw .invalid(.handlingPath)
        }
        handlingOutcome = try Self.string(raw.handlingOutcome, .handlingOutcome)
        switch raw.handlingHandled {
        case nil, .null?: break
        case .bool(let handled)?: handlingHandled = handled
        default: throw .invalid(.handlingHandled)
        }
        traceID = try Self.string(raw.traceID, .traceID)
        spanID = try Self.string(raw.spanID, .spanID)
        serviceVersion = try Self.string(raw.serviceVersion, .serviceVersion)
        deploymentEnvironment = try Self.string(raw.deploymentEnvironment, .deploymentEnvironment)
        fingerprint = try Self.string(raw.fingerprint, .fingerprint)
        switch raw.exceptionReport {
        case nil, .null?: break
        case .stringMap(let map)?:
            // Only text values: none of them can be a report member (all are lists), and unknown members are
            // ignored, as JSONDecoder has it.
            guard Set(map.keys).isDisjoint(with: ExceptionReport.memberNames) else { throw .invalid(.exceptionReport) }
            report = ExceptionReport()
        case .other(let range)?:
            // Nested objects and lists: rare (Sentry errors only), so Foundation's decoder reads them.
            let data = Data(UnsafeRawBufferPointer(rebasing: bytes[range]))
            guard let decoded = try? JSONDecoder().decode(ExceptionReport.self, from: data) else {
                throw .invalid(.exceptionReport)
            }
            report = decoded
        default: throw .invalid(.exceptionReport)
        }
        if let unreadableTime { attributes[Self.unreadableTimeAttribute] = unreadableTime }
        try validateRequiredFields()
    }

    private static func string(_ value: JSONScanner.Value?, _ key: WireMember, required: Bool = false) throws(WireError)
        -> String?
    {
        switch value {
        case nil, .null?: return nil
        case .string(let text)?: return text
        default: throw .invalid(key)
        }
    }

    private static func int(_ value: JSONScanner.Value?, _ key: WireMember, _ bytes: UnsafeRawBufferPointer)
        throws(WireError) -> Int?
    {
        guard let value, !value.isNull else { return nil }
        guard let number = integer(value, bytes), let result = Int(exactly: number) else { throw .invalid(key) }
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
        var traceID, spanID, serviceVersion, deploymentEnvironment, fingerprint, exceptionReport: JSONScanner.Value?

        mutating func set(_ key: String, _ value: JSONScanner.Value) {
            guard let member = WireMember(name: key) else { return }
            switch member {
            case .version: version = value
            case .kind: kind = value
            case .time: time = value
            case .serviceName: serviceName = value
            case .pid: pid = value
            case .hostName: hostName = value
            case .source: source = value
            case .exceptionType: exceptionType = value
            case .exceptionMessage: exceptionMessage = value
            case .userMessage: userMessage = value
            case .code: code = value
            case .category: category = value
            case .severity: severity = value
            case .severityText: severityText = value
            case .origin: origin = value
            case .attempt: attempt = value
            case .sequence: sequence = value
            case .attributes: attributes = value
            case .body: body = value
            case .logMessage: logMessage = value
            case .metricName: metricName = value
            case .metricValue: metricValue = value
            case .metricUnit: metricUnit = value
            case .metricKind: metricKind = value
            case .statusName: statusName = value
            case .statusState: statusState = value
            case .statusHealth: statusHealth = value
            case .statusDetail: statusDetail = value
            case .exceptionStacktrace: exceptionStacktrace = value
            case .codeFilePath: codeFilePath = value
            case .codeLineNumber: codeLineNumber = value
            case .codeFunction: codeFunction = value
            case .handlingPath: handlingPath = value
            case .handlingOutcome: handlingOutcome = value
            case .handlingHandled: handlingHandled = value
            case .traceID: traceID = value
            case .spanID: spanID = value
            case .serviceVersion: serviceVersion = value
            case .deploymentEnvironment: deploymentEnvironment = value
            case .fingerprint: fingerprint = value
            case .exceptionReport: exceptionReport = value
            }
        }
    }
}

extension JSONScanner.Value {
    var isNull: Bool { if case .null = self { true } else { false } }
}
