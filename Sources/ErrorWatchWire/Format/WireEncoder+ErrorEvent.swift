import ErrorStreaming
import Foundation
import Logging

extension WireEncoder {
    /// The bytes every line of this encoder's source carries after its time:
    /// `,"service.name":…,"process.pid":…,"host.name":…`, written once instead of once per line.
    static func stamp(for source: SourceInfo) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.append(contentsOf: #","service.name":"#.utf8)
        WireEvent.writeString(source.serviceName, &bytes)
        bytes.append(contentsOf: #","process.pid":"#.utf8)
        WireEvent.writeInteger(Int64(source.pid), &bytes)
        bytes.append(contentsOf: #","host.name":"#.utf8)
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
        let remote = event.error as? RemoteError
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
            out.append(contentsOf: #","service.name":"#.utf8)
            WireEvent.writeString(serviceName, &out)
        }
        out.append(contentsOf: #","source":"#.utf8)
        WireEvent.writeString(event.source, &out)
        out.append(contentsOf: #","exception.type":"#.utf8)
        WireEvent.writeString(remote?.typeName ?? typeName, &out)
        out.append(contentsOf: #","exception.message":"#.utf8)
        WireEvent.writeString(remote?.message ?? technicalMessage, &out)
        out.append(contentsOf: #","message.user":"#.utf8)
        WireEvent.writeString(userMessage, &out)
        out.append(contentsOf: #","error.code":"#.utf8)
        WireEvent.writeString(code.description, &out)
        out.append(contentsOf: #","error.category":"#.utf8)
        WireEvent.writeString(category.rawValue, &out)
        out.append(contentsOf: #","severity":"#.utf8)
        WireEvent.writeString(event.severity.description, &out)
        out.append(contentsOf: #","origin":"#.utf8)
        WireEvent.writeString(event.origin.rawValue, &out)
        if let attempt = event.context.attempt {
            out.append(contentsOf: #","attempt":"#.utf8)
            WireEvent.writeInteger(Int64(attempt), &out)
        }
        out.append(contentsOf: #","sequence":"#.utf8)
        WireEvent.writeInteger(event.sequence, &out)
        WireEvent.writeAttributes(event.metadata, &out)
        if let stackTrace = remote?.stackTrace {
            out.append(contentsOf: #","exception.stacktrace":"#.utf8)
            WireEvent.writeString(stackTrace, &out)
        }
        if let location = event.location {
            out.append(contentsOf: #","code.filepath":"#.utf8)
            location.withFile { WireEvent.writeString(bytes: $0, &out) }
            out.append(contentsOf: #","code.lineno":"#.utf8)
            WireEvent.writeInteger(Int64(Int(clamping: location.line)), &out)
            location.withFunction { function in
                guard !function.isEmpty else { return }
                out.append(contentsOf: #","code.function":"#.utf8)
                WireEvent.writeString(bytes: function, &out)
            }
        }
        out.append(contentsOf: "}\n".utf8)
        try Self.refuseOverlong(from: start, &out)
    }

    /// Appends the line of a handler tree's ``HandlingReport`` to `out`: the bytes of
    /// `encode(handlingEvent(for: report, time: time))`, written without building the ``WireEvent`` (a test holds
    /// the two equal). On a throw, `out` is left as it was.
    func appendHandlingLine(for report: HandlingReport, time: Date, to out: inout [UInt8]) throws(WireError) {
        guard RFC3339.canFormat(time) else { throw .invalidField("time") }
        let start = out.count
        writeHeader(#"{"v":1,"kind":"handling","time":""#, time: time, stamped: true, &out)
        out.append(contentsOf: #","sequence":"#.utf8)
        WireEvent.writeInteger(report.sequence, &out)
        out.append(contentsOf: #","handling.path":["#.utf8)
        for (offset, name) in report.path.suffix(WireEvent.maximumHandlingPathCount).enumerated() {
            if offset > 0 { out.append(UInt8(ascii: ",")) }
            WireEvent.writeString(name, &out)
        }
        out.append(contentsOf: #"],"handling.outcome":"#.utf8)
        WireEvent.writeString(report.outcome.description, &out)
        out.append(contentsOf: report.handled ? #","handling.handled":true}"#.utf8 : #","handling.handled":false}"#.utf8)
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
        out.append(contentsOf: #","source":"#.utf8)
        WireEvent.writeString(label, &out)
        let classification = error.map { Classification(of: $0) }
        if let classification {
            out.append(contentsOf: #","exception.type":"#.utf8)
            WireEvent.writeString(classification.typeName, &out)
            out.append(contentsOf: #","exception.message":"#.utf8)
            WireEvent.writeString(classification.technicalMessage, &out)
            out.append(contentsOf: #","error.code":"#.utf8)
            WireEvent.writeString(classification.code.description, &out)
            out.append(contentsOf: #","error.category":"#.utf8)
            WireEvent.writeString(classification.category.rawValue, &out)
        }
        out.append(contentsOf: #","severity":"#.utf8)
        WireEvent.writeString(ErrorSeverity(level).description, &out)
        WireEvent.writeAttributes(metadata, &out)
        out.append(contentsOf: #","body":"#.utf8)
        WireEvent.writeString(message, &out)
        out.append(contentsOf: "}\n".utf8)
        try Self.refuseOverlong(from: start, &out)
    }

    /// The members every direct line starts with: `{"v":1,"kind":…,"time":"…"`, then the producer's members when
    /// `stamped`.
    private func writeHeader(_ opening: StaticString, time: Date, stamped: Bool, _ out: inout [UInt8]) {
        out.append(contentsOf: UnsafeBufferPointer(start: opening.utf8Start, count: opening.utf8CodeUnitCount))
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
        out.append(contentsOf: #","attributes":{"#.utf8)
        for (offset, key) in attributes.keys.sorted().enumerated() {
            if offset > 0 { out.append(UInt8(ascii: ",")) }
            writeString(key, &out)
            out.append(UInt8(ascii: ":"))
            writeString(attributes[key] ?? "", &out)
        }
        out.append(UInt8(ascii: "}"))
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
