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
            try scanner.scanFields { key, value in
                let member: WireMember? =
                    switch key {
                    case .text(let range): WireMember(utf8: UnsafeRawBufferPointer(rebasing: bytes[range]))
                    case .escapedText(let name): WireMember(name: name)
                    case .value: nil
                    }
                if let member { raw.set(member, value) }
            }
        } catch {
            var probe = JSONScanner(bytes)
            if bytes.first(where: { $0 > 0x20 }) != UInt8(ascii: "{"), probe.isValidValue() { throw .notAnObject }
            throw .malformedJSON("\(error.message) at byte \(error.offset)")
        }
        guard let versionValue = raw.version, !versionValue.isNull else { throw .missing(.version) }
        guard let version = Self.integer(versionValue, bytes) else { throw .invalid(.version) }
        guard version == Int64(Self.currentVersion) else { throw .unsupportedVersion(Int(clamping: version)) }
        guard let kindText = try Self.string(raw.kind, .kind, bytes) else { throw .missing(.kind) }
        guard let kind = Kind(rawValue: kindText) else { throw .invalid(.kind) }
        var unreadableTime: String?
        let time: Date
        switch raw.time {
        case nil, .value(.null)?: throw .missing(.time)
        case .text(let range)?:
            if let parsed = RFC3339.parse(UnsafeRawBufferPointer(rebasing: bytes[range])) {
                time = parsed
            } else {
                (time, unreadableTime) = (readAt ?? Date(), JSONScanner.string(.text(range), in: bytes))
            }
        case .escapedText(let text)?:
            if let parsed = RFC3339.parse(text) {
                time = parsed
            } else {
                (time, unreadableTime) = (readAt ?? Date(), text)
            }
        case .value(.number(let range))?:
            let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
            (time, unreadableTime) = (readAt ?? Date(), text)
        default: throw .invalid(.time)
        }
        // The members are written straight into the event rather than through `init(kind:time:…)`, which made the
        // event aside and copied it into place (forty members, their strings retained and released again).
        self.version = Self.currentVersion
        self.kind = kind
        self.time = time
        attributes = [:]
        serviceName = try Self.string(raw.serviceName, .serviceName, bytes)
        pid = try Self.int(raw.pid, .pid, bytes)
        hostName = try Self.string(raw.hostName, .hostName, bytes)
        source = try Self.string(raw.source, .source, bytes)
        exceptionType = try Self.string(raw.exceptionType, .exceptionType, bytes)
        exceptionMessage = try Self.string(raw.exceptionMessage, .exceptionMessage, bytes)
        userMessage = try Self.string(raw.userMessage, .userMessage, bytes)
        // Any code a producer sends is kept as it wrote it; `code` is its reading as an ErrorCode, when it is one.
        if let text = try Self.string(raw.code, .code, bytes) { setVerbatimCode(text) }
        category = try Self.string(raw.category, .category, bytes).map { text throws(WireError) in
            guard let category = ErrorCategory(rawValue: text) else { throw .invalid(.category) }
            return category
        }
        let severityKey: WireMember = raw.severity != nil ? .severity : .severityText
        let severityText = try Self.string(raw.severity ?? raw.severityText, severityKey, bytes)
        severity = try severityText.map { text throws(WireError) in
            guard let severity = ErrorSeverity(wireName: text) else { throw .invalid(severityKey) }
            return severity
        }
        origin = try Self.string(raw.origin, .origin, bytes).map { text throws(WireError) in
            guard let origin = ErrorOrigin(rawValue: text.lowercased()) else { throw .invalid(.origin) }
            return origin
        }
        attempt = try Self.int(raw.attempt, .attempt, bytes)
        if let value = raw.sequence, !value.isNull {
            guard let number = Self.integer(value, bytes), number >= 0 else { throw .invalid(.sequence) }
            sequence = UInt64(number)
        }
        switch raw.attributes {
        case nil, .value(.null)?: break
        case .value(.stringMap(let map))?: attributes = map
        default: throw .invalid(.attributes)
        }
        body = try Self.string(raw.body, .body, bytes)
        if body == nil { body = try Self.string(raw.logMessage, .logMessage, bytes) }
        metricName = try Self.string(raw.metricName, .metricName, bytes)
        switch raw.metricValue {
        case nil, .value(.null)?: break
        case .value(.number(let range))?:
            // A number too large for a Double (`1e999`) would be an infinite sample, which poisons every sum it
            // joins and which no writer can write back (JSON has no infinity): malformed, as JSONDecoder has it.
            let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
            guard let value = Double(text), value.isFinite else { throw .invalid(.metricValue) }
            metricValue = value
        default: throw .invalid(.metricValue)
        }
        metricUnit = try Self.string(raw.metricUnit, .metricUnit, bytes)
        metricKind = try Self.string(raw.metricKind, .metricKind, bytes).map { text throws(WireError) in
            guard let kind = WireMetricKind(wireName: text) else { throw .invalid(.metricKind) }
            return kind
        }
        statusName = try Self.string(raw.statusName, .statusName, bytes)
        statusState = try Self.string(raw.statusState, .statusState, bytes)
        statusHealth = try Self.string(raw.statusHealth, .statusHealth, bytes).map { text throws(WireError) in
            guard let health = StatusHealth(wireName: text) else { throw .invalid(.statusHealth) }
            return health
        }
        statusDetail = try Self.string(raw.statusDetail, .statusDetail, bytes)
        exceptionStacktrace = try Self.string(raw.exceptionStacktrace, .exceptionStacktrace, bytes)
        codeFilePath = try Self.string(raw.codeFilePath, .codeFilePath, bytes)
        codeLineNumber = try Self.int(raw.codeLineNumber, .codeLineNumber, bytes)
        if let line = codeLineNumber, line < 0 { throw .invalid(.codeLineNumber) }
        codeFunction = try Self.string(raw.codeFunction, .codeFunction, bytes)
        switch raw.handlingPath {
        case nil, .value(.null)?: break
        case .value(.stringArray(let path))?: handlingPath = path
        default: throw .invalid(.handlingPath)
        }
        handlingOutcome = try Self.string(raw.handlingOutcome, .handlingOutcome, bytes)
        switch raw.handlingHandled {
        case nil, .value(.null)?: break
        case .value(.bool(let handled))?: handlingHandled = handled
        default: throw .invalid(.handlingHandled)
        }
        traceID = try Self.string(raw.traceID, .traceID, bytes)
        spanID = try Self.string(raw.spanID, .spanID, bytes)
        serviceVersion = try Self.string(raw.serviceVersion, .serviceVersion, bytes)
        deploymentEnvironment = try Self.string(raw.deploymentEnvironment, .deploymentEnvironment, bytes)
        fingerprint = try Self.string(raw.fingerprint, .fingerprint, bytes)
        switch raw.exceptionReport {
        case nil, .value(.null)?: break
        case .value(.stringMap(let map))?:
            // Only text values: none of them can be a report member (all are lists), and unknown members are
            // ignored, as JSONDecoder has it.
            guard Set(map.keys).isDisjoint(with: ExceptionReport.memberNames) else { throw .invalid(.exceptionReport) }
            report = ExceptionReport()
        case .value(.other(let range))?:
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

    /// A member's text: made a `String` here, for the members the event keeps.
    private static func string(_ field: JSONScanner.Field?, _ key: WireMember, _ bytes: UnsafeRawBufferPointer)
        throws(WireError) -> String?
    {
        switch field {
        case nil, .value(.null)?: return nil
        case .value?: throw .invalid(key)
        case let field?: return JSONScanner.string(field, in: bytes)
        }
    }

    private static func int(_ field: JSONScanner.Field?, _ key: WireMember, _ bytes: UnsafeRawBufferPointer)
        throws(WireError) -> Int?
    {
        guard let field, !field.isNull else { return nil }
        guard let number = integer(field, bytes), let result = Int(exactly: number) else { throw .invalid(key) }
        return result
    }

    /// A JSON number without fraction or exponent that fits 64 bits; `nil` otherwise.
    private static func integer(_ field: JSONScanner.Field, _ bytes: UnsafeRawBufferPointer) -> Int64? {
        guard case .value(.number(let range)) = field else { return nil }
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

    /// The members the format knows, as scanned (strings still in the line); later duplicates win, as in
    /// `JSONDecoder`.
    private struct RawFields {
        typealias Field = JSONScanner.Field
        var version, kind, time, serviceName, pid, hostName, source, exceptionType, exceptionMessage: Field?
        var userMessage, code, category, severity, severityText, origin, attempt, sequence: Field?
        var attributes, body, logMessage, metricName, metricValue, metricUnit, metricKind: Field?
        var statusName, statusState, statusHealth, statusDetail: Field?
        var exceptionStacktrace, codeFilePath, codeLineNumber, codeFunction: Field?
        var handlingPath, handlingOutcome, handlingHandled: Field?
        var traceID, spanID, serviceVersion, deploymentEnvironment, fingerprint, exceptionReport: Field?

        mutating func set(_ member: WireMember, _ value: Field) {
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

extension JSONScanner.Field {
    var isNull: Bool { if case .value(.null) = self { true } else { false } }
}
