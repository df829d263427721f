import ErrorStreaming
import Foundation
import Logging

extension WireEncoder {
    /// The bytes every line of this encoder's source carries after its time:
    /// `,"service.name":…,"process.pid":…,"host.name":…`, written once instead of once per line.
    static func stamp(for source: SourceInfo) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.appendKey(.serviceName)
        WireEvent.writeString(source.serviceName, &bytes)
        bytes.appendKey(.pid)
        WireEvent.writeInteger(Int64(source.pid), &bytes)
        bytes.appendKey(.hostName)
        WireEvent.writeString(source.host, &bytes)
        return bytes
    }

    /// Appends the line (JSON and `\n`) of a stream's ``ErrorEvent`` to `out`, written straight from the event.
    ///
    /// The bytes are those of `encode(wireEvent(for: event))`, member for member (a test holds the two equal), but
    /// no ``WireEvent`` is built: a forwarder writes one of these for every error its app adds, so the
    /// classification's fields are read from a ``ClassifiedError`` directly (``Classification`` would also make
    /// its fingerprint), the producer's fields are copied from ``stamp(for:)``, and the time, numbers and source
    /// location are written as bytes without making strings of them. On a throw, `out` is left as it was.
    func appendLine(for event: ErrorEvent, to out: inout [UInt8]) throws(WireError) {
        guard RFC3339.canFormat(event.timestamp) else { throw .invalid(.time) }
        let start = out.count
        // A relayed error is read from its context; an app that added a RemoteError itself without one has it
        // found by its type (comparing metatypes first spares every other error a dynamic cast).
        let remote =
            event.context.remote ?? (type(of: event.error) == RemoteError.self ? event.error as? RemoteError : nil)
        let typeName: String
        let technicalMessage: String
        let userMessage: String
        let code: ErrorCode
        let category: ErrorCategory
        // The app's own grouping key, so its errors group on the dashboard as they do in the app.
        let fingerprint: String?
        if let remote {
            (typeName, technicalMessage, userMessage) = (remote.typeName, remote.technicalMessage, remote.userMessage)
            (code, category, fingerprint) = (remote.code, remote.category, remote.producerFingerprint)
        } else if let classified = event.error as? any ClassifiedError {
            (typeName, technicalMessage, userMessage) =
                (classified.typeName, classified.technicalMessage, classified.userMessage)
            (code, category, fingerprint) = (classified.code, classified.category, classified.fingerprint)
        } else {
            let classification = Classification(of: event.error)
            (typeName, technicalMessage, userMessage) =
                (classification.typeName, classification.technicalMessage, classification.userMessage)
            (code, category, fingerprint) = (classification.code, classification.category, classification.fingerprint)
        }

        writeHeader(Self.errorOpening, time: event.timestamp, stamped: false, &out)
        if let stamp {
            out.append(contentsOf: stamp)
        } else if let serviceName = remote?.provenance.service {
            out.appendKey(.serviceName)
            WireEvent.writeString(serviceName, &out)
        }
        out.appendKey(.source)
        WireEvent.writeString(event.source, &out)
        out.appendKey(.exceptionType)
        WireEvent.writeString(remote?.typeName ?? typeName, &out)
        out.appendKey(.exceptionMessage)
        WireEvent.writeString(remote?.message ?? technicalMessage, &out)
        out.appendKey(.userMessage)
        WireEvent.writeString(userMessage, &out)
        out.appendKey(.code)
        WireEvent.writeCode(code, &out)
        out.appendKey(.category)
        WireEvent.writeString(category.rawValue, &out)
        out.appendKey(.severity)
        WireEvent.writeString(event.severity.description, &out)
        out.appendKey(.origin)
        WireEvent.writeString(event.origin.rawValue, &out)
        if let attempt = event.context.attempt {
            out.appendKey(.attempt)
            WireEvent.writeInteger(Int64(attempt), &out)
        }
        out.appendKey(.sequence)
        WireEvent.writeInteger(event.sequence, &out)
        WireEvent.writeAttributes(event.metadata, &out)
        if let stackTrace = remote?.stackTrace {
            out.appendKey(.exceptionStacktrace)
            WireEvent.writeString(stackTrace, &out)
        }
        if let location = event.location {
            out.appendKey(.codeFilePath)
            location.withFile { WireEvent.writeString(bytes: $0, &out) }
            out.appendKey(.codeLineNumber)
            WireEvent.writeInteger(Int64(Int(clamping: location.line)), &out)
            location.withFunction { function in
                guard !function.isEmpty else { return }
                out.appendKey(.codeFunction)
                WireEvent.writeString(bytes: function, &out)
            }
        }
        if let fingerprint {
            out.appendKey(.fingerprint)
            WireEvent.writeString(fingerprint, &out)
        }
        out.appendLiteral("}\n")
        try Self.refuseOverlong(from: start, &out)
    }

    /// Appends the line of a handler tree's ``HandlingReport`` to `out`: the bytes of
    /// `encode(handlingEvent(for: report, time: time))`, written without building the ``WireEvent`` (a test holds
    /// the two equal). On a throw, `out` is left as it was.
    func appendHandlingLine(for report: HandlingReport, time: Date, to out: inout [UInt8]) throws(WireError) {
        guard RFC3339.canFormat(time) else { throw .invalid(.time) }
        let start = out.count
        writeHeader(Self.handlingOpening, time: time, stamped: true, &out)
        out.appendKey(.sequence)
        WireEvent.writeInteger(report.sequence, &out)
        out.appendKey(.handlingPath)
        out.append(UInt8(ascii: "["))
        for (offset, name) in report.path.suffix(WireEvent.maximumHandlingPathCount).enumerated() {
            if offset > 0 { out.append(UInt8(ascii: ",")) }
            WireEvent.writeString(name, &out)
        }
        out.append(UInt8(ascii: "]"))
        out.appendKey(.handlingOutcome)
        WireEvent.writeString(report.outcome.description, &out)
        out.appendKey(.handlingHandled)
        out.appendLiteral(report.handled ? "true}" : "false}")
        out.append(UInt8(ascii: "\n"))
        try Self.refuseOverlong(from: start, &out)
    }

    /// Appends the line of a swift-log record to `out`: the bytes of
    /// `encode(wireEvent(level:message:label:metadata:error:time:))`, written without building the ``WireEvent``
    /// (a test holds the two equal). On a throw, `out` is left as it was.
    func appendLogLine(
        level: Logger.Level, message: String, label: String, metadata: [String: String], error: (any Error)?,
        time: Date, to out: inout [UInt8]
    ) throws(WireError) {
        guard RFC3339.canFormat(time) else { throw .invalid(.time) }
        let start = out.count
        writeHeader(Self.logOpening, time: time, stamped: true, &out)
        out.appendKey(.source)
        WireEvent.writeString(label, &out)
        let classification = error.map { Classification(of: $0) }
        if let classification {
            out.appendKey(.exceptionType)
            WireEvent.writeString(classification.typeName, &out)
            out.appendKey(.exceptionMessage)
            WireEvent.writeString(classification.technicalMessage, &out)
            out.appendKey(.code)
            WireEvent.writeCode(classification.code, &out)
            out.appendKey(.category)
            WireEvent.writeString(classification.category.rawValue, &out)
        }
        out.appendKey(.severity)
        WireEvent.writeString(ErrorSeverity(level).description, &out)
        WireEvent.writeAttributes(metadata, &out)
        out.appendKey(.body)
        WireEvent.writeString(message, &out)
        out.appendLiteral("}\n")
        try Self.refuseOverlong(from: start, &out)
    }

    /// The members every direct line starts with: `{"v":1,"kind":…,"time":"…"`, then the producer's members when
    /// `stamped`.
    private func writeHeader(_ opening: [UInt8], time: Date, stamped: Bool, _ out: inout [UInt8]) {
        out.append(contentsOf: opening)
        RFC3339.write(time, to: &out)
        out.append(UInt8(ascii: "\""))
        if stamped, let stamp { out.append(contentsOf: stamp) }
    }

    /// `{"v":1,"kind":"error","time":"`: the bytes an error line starts with, made once from ``WireMember``.
    private static let errorOpening = opening(.error)
    /// `{"v":1,"kind":"log","time":"`.
    private static let logOpening = opening(.log)
    /// `{"v":1,"kind":"handling","time":"`.
    private static let handlingOpening = opening(.handling)

    /// The opening of a line of `kind`, up to the quote that starts its time.
    private static func opening(_ kind: WireEvent.Kind) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.appendFirstKey(.version)
        WireEvent.writeInteger(Int64(WireEvent.currentVersion), &bytes)
        bytes.appendKey(.kind)
        WireEvent.writeString(kind.rawValue, &bytes)
        bytes.appendKey(.time)
        bytes.append(UInt8(ascii: "\""))
        return bytes
    }

    /// Throws ``WireError/lineTooLong(byteCount:)`` for a line (from `start` to the end of `out`) over
    /// ``LineFramer/defaultMaximumLineBytes``, after removing it from `out`.
    private static func refuseOverlong(from start: Int, _ out: inout [UInt8]) throws(WireError) {
        guard out.count - start > LineFramer.defaultMaximumLineBytes else { return }
        let count = out.count - start
        out.removeSubrange(start...)
        throw WireError.lineTooLong(byteCount: count)
    }
}

extension WireEvent {
    /// `,"attributes":{…}` with the keys sorted, or nothing for none.
    static func writeAttributes(_ attributes: [String: String], _ out: inout [UInt8]) {
        guard !attributes.isEmpty else { return }
        out.appendKey(.attributes)
        out.append(UInt8(ascii: "{"))
        // Sorting the pairs rather than the keys spares a dictionary lookup per key.
        for (offset, pair) in attributes.sorted(by: { $0.key < $1.key }).enumerated() {
            if offset > 0 { out.append(UInt8(ascii: ",")) }
            writeString(pair.key, &out)
            out.append(UInt8(ascii: ":"))
            writeString(pair.value, &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    /// An ``ErrorCode`` as a JSON string, `"N-503"`, the bytes of its `description` written without making it.
    static func writeCode(_ code: ErrorCode, _ out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        out.append(code.domain.asciiValue ?? UInt8(ascii: "X"))
        out.append(UInt8(ascii: "-"))
        writeInteger(Int64(code.number), &out)
        out.append(UInt8(ascii: "\""))
    }

    /// A JSON number for an integer, its digits written directly.
    static func writeInteger(_ value: Int64, _ out: inout [UInt8]) {
        if value < 0 {
            out.append(UInt8(ascii: "-"))
            writeInteger(value.magnitude, &out)
        } else {
            writeInteger(UInt64(value), &out)
        }
    }

    /// A JSON number for an unsigned integer, its digits written directly.
    static func writeInteger(_ value: UInt64, _ out: inout [UInt8]) {
        guard value >= 10 else {
            out.append(UInt8(ascii: "0") + UInt8(value))
            return
        }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for UInt64.max's 20 digits
        withUnsafeMutableBytes(of: &digits) { buffer in
            var remaining = value
            var index = buffer.count
            while remaining > 0 {
                index -= 1
                buffer[index] = UInt8(ascii: "0") + UInt8(remaining % 10)
                remaining /= 10
            }
            out.append(contentsOf: buffer[index...])
        }
    }
}
