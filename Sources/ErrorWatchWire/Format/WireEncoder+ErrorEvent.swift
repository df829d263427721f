import ErrorStreaming
import Foundation
import Logging

extension WireEncoder {
    /// The bytes every line of this encoder's source carries after its time:
    /// `,"service.name":…,"process.pid":…,"host.name":…`, written once instead of once per line.
    static func stamp(for source: SourceInfo) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.appendLiteral(#","service.name":"#)
        WireEvent.writeString(source.serviceName, &bytes)
        bytes.appendLiteral(#","process.pid":"#)
        WireEvent.writeInteger(Int64(source.pid), &bytes)
        bytes.appendLiteral(#","host.name":"#)
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
        guard RFC3339.canFormat(event.timestamp) else { throw .invalidField("time") }
        let start = out.count
        // Comparing metatypes first spares every other error a dynamic cast.
        let remote = type(of: event.error) == RemoteError.self ? event.error as? RemoteError : nil
        let typeName: String
        let technicalMessage: String
        let userMessage: String
        let code: ErrorCode
        let category: ErrorCategory
        if let classified = event.error as? any ClassifiedError {
            (typeName, technicalMessage, userMessage) =
                (classified.typeName, classified.technicalMessage, classified.userMessage)
            (code, category) = (classified.code, classified.category)
        } else {
            let classification = Classification(of: event.error)
            (typeName, technicalMessage, userMessage) =
                (classification.typeName, classification.technicalMessage, classification.userMessage)
            (code, category) = (classification.code, classification.category)
        }

        writeHeader(#"{"v":1,"kind":"error","time":""#, time: event.timestamp, stamped: false, &out)
        if let stamp {
            out.append(contentsOf: stamp)
        } else if let serviceName = remote?.serviceName {
            out.appendLiteral(#","service.name":"#)
            WireEvent.writeString(serviceName, &out)
        }
        out.appendLiteral(#","source":"#)
        WireEvent.writeString(event.source, &out)
        out.appendLiteral(#","exception.type":"#)
        WireEvent.writeString(remote?.typeName ?? typeName, &out)
        out.appendLiteral(#","exception.message":"#)
        WireEvent.writeString(remote?.message ?? technicalMessage, &out)
        out.appendLiteral(#","message.user":"#)
        WireEvent.writeString(userMessage, &out)
        out.appendLiteral(#","error.code":"#)
        WireEvent.writeCode(code, &out)
        out.appendLiteral(#","error.category":"#)
        WireEvent.writeString(category.rawValue, &out)
        out.appendLiteral(#","severity":"#)
        WireEvent.writeString(event.severity.description, &out)
        out.appendLiteral(#","origin":"#)
        WireEvent.writeString(event.origin.rawValue, &out)
        if let attempt = event.context.attempt {
            out.appendLiteral(#","attempt":"#)
            WireEvent.writeInteger(Int64(attempt), &out)
        }
        out.appendLiteral(#","sequence":"#)
        WireEvent.writeInteger(event.sequence, &out)
        WireEvent.writeAttributes(event.metadata, &out)
        if let stackTrace = remote?.stackTrace {
            out.appendLiteral(#","exception.stacktrace":"#)
            WireEvent.writeString(stackTrace, &out)
        }
        if let location = event.location {
            out.appendLiteral(#","code.filepath":"#)
            location.withFile { WireEvent.writeString(bytes: $0, &out) }
            out.appendLiteral(#","code.lineno":"#)
            WireEvent.writeInteger(Int64(Int(clamping: location.line)), &out)
            location.withFunction { function in
                guard !function.isEmpty else { return }
                out.appendLiteral(#","code.function":"#)
                WireEvent.writeString(bytes: function, &out)
            }
        }
        out.appendLiteral("}\n")
        try Self.refuseOverlong(from: start, &out)
    }

    /// Appends the line of a handler tree's ``HandlingReport`` to `out`: the bytes of
    /// `encode(handlingEvent(for: report, time: time))`, written without building the ``WireEvent`` (a test holds
    /// the two equal). On a throw, `out` is left as it was.
    func appendHandlingLine(for report: HandlingReport, time: Date, to out: inout [UInt8]) throws(WireError) {
        guard RFC3339.canFormat(time) else { throw .invalidField("time") }
        let start = out.count
        writeHeader(#"{"v":1,"kind":"handling","time":""#, time: time, stamped: true, &out)
        out.appendLiteral(#","sequence":"#)
        WireEvent.writeInteger(report.sequence, &out)
        out.appendLiteral(#","handling.path":["#)
        for (offset, name) in report.path.suffix(WireEvent.maximumHandlingPathCount).enumerated() {
            if offset > 0 { out.append(UInt8(ascii: ",")) }
            WireEvent.writeString(name, &out)
        }
        out.appendLiteral(#"],"handling.outcome":"#)
        WireEvent.writeString(report.outcome.description, &out)
        out.appendLiteral(report.handled ? #","handling.handled":true}"# : #","handling.handled":false}"#)
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
        guard RFC3339.canFormat(time) else { throw .invalidField("time") }
        let start = out.count
        writeHeader(#"{"v":1,"kind":"log","time":""#, time: time, stamped: true, &out)
        out.appendLiteral(#","source":"#)
        WireEvent.writeString(label, &out)
        let classification = error.map { Classification(of: $0) }
        if let classification {
            out.appendLiteral(#","exception.type":"#)
            WireEvent.writeString(classification.typeName, &out)
            out.appendLiteral(#","exception.message":"#)
            WireEvent.writeString(classification.technicalMessage, &out)
            out.appendLiteral(#","error.code":"#)
            WireEvent.writeCode(classification.code, &out)
            out.appendLiteral(#","error.category":"#)
            WireEvent.writeString(classification.category.rawValue, &out)
        }
        out.appendLiteral(#","severity":"#)
        WireEvent.writeString(ErrorSeverity(level).description, &out)
        WireEvent.writeAttributes(metadata, &out)
        out.appendLiteral(#","body":"#)
        WireEvent.writeString(message, &out)
        out.appendLiteral("}\n")
        try Self.refuseOverlong(from: start, &out)
    }

    /// The members every direct line starts with: `{"v":1,"kind":…,"time":"…"`, then the producer's members when
    /// `stamped`.
    private func writeHeader(_ opening: StaticString, time: Date, stamped: Bool, _ out: inout [UInt8]) {
        out.appendLiteral(opening)
        RFC3339.write(time, to: &out)
        out.append(UInt8(ascii: "\""))
        if stamped, let stamp { out.append(contentsOf: stamp) }
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
        out.appendLiteral(#","attributes":{"#)
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
