import ErrorStreaming
import Foundation

extension WireEvent {
    /// Decodes one wire object; throws ``WireError`` for a wrong version, a missing or an invalid field.
    ///
    /// The version is checked first, so a line from a future major version is reported as
    /// ``WireError/unsupportedVersion(_:)`` even when its other fields no longer make sense to us.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: WireMember.self)
        guard c.contains(.version) else { throw WireError.missing(.version) }
        let version = try Self.field(.version) { try c.decode(Int.self, forKey: .version) }
        guard version == Self.currentVersion else { throw WireError.unsupportedVersion(version) }
        guard c.contains(.kind) else { throw WireError.missing(.kind) }
        let kindName = try Self.field(.kind) { try c.decode(String.self, forKey: .kind) }
        guard let kind = Kind(rawValue: kindName) else { throw WireError.invalid(.kind) }
        guard c.contains(.time) else { throw WireError.missing(.time) }
        // As the scanner has it: a time that cannot be read (a string that is not RFC 3339, or a number) is the
        // time of reading, and what was sent is kept as an attribute. A number is kept as Swift writes it
        // (`1e+308`), not byte for byte as the scanner keeps it.
        var unreadableTime: String?
        let time: Date
        if let text = try? c.decode(String.self, forKey: .time) {
            if let parsed = RFC3339.parse(text) { time = parsed } else { (time, unreadableTime) = (Date(), text) }
        } else if let number = try? c.decode(Double.self, forKey: .time) {
            (time, unreadableTime) = (Date(), "\(number)")
        } else {
            throw WireError.invalid(.time)
        }

        func optional<T: Decodable>(_ type: T.Type, _ key: WireMember) throws -> T? {
            try Self.field(key) { try c.decodeIfPresent(type, forKey: key) }
        }
        let codeText = try optional(String.self, .code)
        let categoryText = try optional(String.self, .category)
        let category = try categoryText.map { text in
            guard let value = ErrorCategory(rawValue: text) else { throw WireError.invalid(.category) }
            return value
        }
        let severityKey: WireMember = c.contains(.severity) ? .severity : .severityText
        let severity = try optional(String.self, severityKey).map { text in
            guard let value = ErrorSeverity(wireName: text) else { throw WireError.invalid(severityKey) }
            return value
        }
        let origin = try optional(String.self, .origin).map { text in
            guard let value = ErrorOrigin(rawValue: text.lowercased()) else { throw WireError.invalid(.origin) }
            return value
        }
        let metricKind = try optional(String.self, .metricKind).map { text in
            guard let value = WireMetricKind(wireName: text) else { throw WireError.invalid(.metricKind) }
            return value
        }
        let codeLineNumber = try optional(Int.self, .codeLineNumber)
        if let line = codeLineNumber, line < 0 { throw WireError.invalid(.codeLineNumber) }
        let handlingPath = try optional([String].self, .handlingPath)
        if let path = handlingPath, path.count > Self.maximumHandlingPathCount {
            throw WireError.invalid(.handlingPath)
        }
        let statusHealth = try optional(String.self, .statusHealth).map { text in
            guard let value = StatusHealth(wireName: text) else { throw WireError.invalid(.statusHealth) }
            return value
        }
        self.init(
            version: version, kind: kind, time: time, serviceName: try optional(String.self, .serviceName),
            pid: try optional(Int.self, .pid), hostName: try optional(String.self, .hostName),
            source: try optional(String.self, .source), exceptionType: try optional(String.self, .exceptionType),
            exceptionMessage: try optional(String.self, .exceptionMessage),
            userMessage: try optional(String.self, .userMessage), code: nil, category: category,
            severity: severity, origin: origin, attempt: try optional(Int.self, .attempt),
            sequence: try optional(UInt64.self, .sequence),
            attributes: try optional([String: String].self, .attributes) ?? [:],
            body: try optional(String.self, .body) ?? optional(String.self, .logMessage),
            metricName: try optional(String.self, .metricName), metricValue: try optional(Double.self, .metricValue),
            metricUnit: try optional(String.self, .metricUnit), metricKind: metricKind,
            statusName: try optional(String.self, .statusName), statusState: try optional(String.self, .statusState),
            statusHealth: statusHealth, statusDetail: try optional(String.self, .statusDetail),
            exceptionStacktrace: try optional(String.self, .exceptionStacktrace),
            codeFilePath: try optional(String.self, .codeFilePath), codeLineNumber: codeLineNumber,
            codeFunction: try optional(String.self, .codeFunction), handlingPath: handlingPath,
            handlingOutcome: try optional(String.self, .handlingOutcome),
            handlingHandled: try optional(Bool.self, .handlingHandled),
            traceID: try optional(String.self, .traceID), spanID: try optional(String.self, .spanID),
            serviceVersion: try optional(String.self, .serviceVersion),
            deploymentEnvironment: try optional(String.self, .deploymentEnvironment),
            fingerprint: try optional(String.self, .fingerprint))
        if let codeText { setVerbatimCode(codeText) }
        report = try optional(ExceptionReport.self, .exceptionReport)
        if let unreadableTime { attributes[Self.unreadableTimeAttribute] = unreadableTime }
        try validateRequiredFields()
    }

    /// Writes the wire object; absent optional fields and empty attributes are left out. Throws
    /// ``WireError/invalidField(_:)`` for a negative `code.lineno`, an over-long `handling.path` or a time outside
    /// the years 0000–9999 (UTC), which a reader would refuse.
    public func encode(to encoder: any Encoder) throws {
        guard RFC3339.canFormat(time) else { throw WireError.invalid(.time) }
        var c = encoder.container(keyedBy: WireMember.self)
        try c.encode(version, forKey: .version)
        try c.encode(kind.rawValue, forKey: .kind)
        try c.encode(RFC3339.format(time), forKey: .time)
        try c.encodeIfPresent(serviceName, forKey: .serviceName)
        try c.encodeIfPresent(pid, forKey: .pid)
        try c.encodeIfPresent(hostName, forKey: .hostName)
        try c.encodeIfPresent(source, forKey: .source)
        try c.encodeIfPresent(exceptionType, forKey: .exceptionType)
        try c.encodeIfPresent(exceptionMessage, forKey: .exceptionMessage)
        try c.encodeIfPresent(userMessage, forKey: .userMessage)
        try c.encodeIfPresent(shownCode, forKey: .code)
        try c.encodeIfPresent(category?.rawValue, forKey: .category)
        try c.encodeIfPresent(severity?.description, forKey: .severity)
        try c.encodeIfPresent(origin?.rawValue, forKey: .origin)
        try c.encodeIfPresent(attempt, forKey: .attempt)
        try c.encodeIfPresent(sequence, forKey: .sequence)
        if !attributes.isEmpty { try c.encode(attributes, forKey: .attributes) }
        try c.encodeIfPresent(body, forKey: .body)
        try c.encodeIfPresent(metricName, forKey: .metricName)
        try c.encodeIfPresent(metricValue, forKey: .metricValue)
        try c.encodeIfPresent(metricUnit, forKey: .metricUnit)
        try c.encodeIfPresent(metricKind?.rawValue, forKey: .metricKind)
        try c.encodeIfPresent(statusName, forKey: .statusName)
        try c.encodeIfPresent(statusState, forKey: .statusState)
        try c.encodeIfPresent(statusHealth?.rawValue, forKey: .statusHealth)
        try c.encodeIfPresent(statusDetail, forKey: .statusDetail)
        try c.encodeIfPresent(exceptionStacktrace, forKey: .exceptionStacktrace)
        try c.encodeIfPresent(codeFilePath, forKey: .codeFilePath)
        if let codeLineNumber, codeLineNumber < 0 { throw WireError.invalid(.codeLineNumber) }
        try c.encodeIfPresent(codeLineNumber, forKey: .codeLineNumber)
        try c.encodeIfPresent(codeFunction, forKey: .codeFunction)
        if let handlingPath, handlingPath.count > Self.maximumHandlingPathCount {
            throw WireError.invalid(.handlingPath)
        }
        try c.encodeIfPresent(handlingPath, forKey: .handlingPath)
        try c.encodeIfPresent(handlingOutcome, forKey: .handlingOutcome)
        try c.encodeIfPresent(handlingHandled, forKey: .handlingHandled)
        try c.encodeIfPresent(traceID, forKey: .traceID)
        try c.encodeIfPresent(spanID, forKey: .spanID)
        try c.encodeIfPresent(serviceVersion, forKey: .serviceVersion)
        try c.encodeIfPresent(deploymentEnvironment, forKey: .deploymentEnvironment)
        try c.encodeIfPresent(fingerprint, forKey: .fingerprint)
        try c.encodeIfPresent(report, forKey: .exceptionReport)
    }

    /// Throws ``WireError/missingField(_:)`` when the kind's required field is absent.
    func validateRequiredFields() throws(WireError) {
        switch kind {
        case .error:
            if exceptionType == nil { throw WireError.missing(.exceptionType) }
        case .log:
            if body == nil { throw WireError.missing(.body) }
        case .metric:
            if metricName == nil { throw WireError.missing(.metricName) }
            if metricValue == nil { throw WireError.missing(.metricValue) }
        case .status:
            if statusName == nil { throw WireError.missing(.statusName) }
            if statusState == nil { throw WireError.missing(.statusState) }
        case .handling:
            if sequence == nil { throw WireError.missing(.sequence) }
        }
    }

    /// Runs a decoding step, turning a type mismatch into ``WireError/invalidField(_:)`` named by its JSON key.
    private static func field<T>(_ key: WireMember, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as WireError {
            throw error
        } catch {
            throw WireError.invalid(key)
        }
    }
}

extension ErrorSeverity {
    /// Parses a wire severity: our names (`warning`) and OpenTelemetry's `severity_text` spellings (`WARN`,
    /// `ERROR`, `FATAL`, `INFO2`…), case-insensitively. `trace` is `debug`, `fatal` is `critical`.
    public init?(wireName: String) {
        var name = wireName.lowercased()
        while let last = name.last, last.isASCII, last.isNumber { name.removeLast() }
        switch name {
        case "trace", "debug": self = .debug
        case "info", "information": self = .info
        case "notice": self = .notice
        case "warn", "warning": self = .warning
        case "error", "err": self = .error
        case "critical", "crit", "fatal", "emergency", "alert": self = .critical
        default: return nil
        }
    }
}
