import ErrorWatchWire
import CZlib
import Foundation

/// Builds OTLP/HTTP `ExportLogsServiceRequest` bodies from plain parameters, and reads the answer's
/// `partial_success`, through the generated protobuf types (which stay internal to this module).
///
/// For this package's own load generator (`errorwatch-load --otlp`) and tests: `package`, not public, because it
/// is a tool for driving the receiver, not an OpenTelemetry SDK.
///
/// ```swift
/// let records = [OTLPLogsRequestBody.Record(body: "card declined", exception: .init(type: "PaymentError",
///     message: "declined", stacktrace: "at pay()"))]
/// let body = OTLPLogsRequestBody.protobuf(service: "shop", instance: "shop-1", scope: "checkout", records: records)
/// // POST body to /v1/logs with Content-Type: application/x-protobuf
/// ```
package enum OTLPLogsRequestBody {
    /// The `exception.*` attributes that make a log record an error (semantic conventions).
    package struct Exception: Sendable, Hashable {
        package var type: String
        package var message: String
        package var stacktrace: String

        package init(type: String, message: String, stacktrace: String) {
            self.type = type
            self.message = message
            self.stacktrace = stacktrace
        }
    }

    /// One log record: a string body (none when empty), a severity number (1–24, 0 for none), string attributes and, for an error,
    /// its exception.
    package struct Record: Sendable, Hashable {
        package var body: String
        package var severityNumber: Int
        package var attributes: [String: String]
        package var exception: Exception?
        /// Nanoseconds since 1970; 0 leaves the time to the receiver (the arrival time).
        package var timeUnixNano: UInt64

        package init(
            body: String, severityNumber: Int = 9, attributes: [String: String] = [:], exception: Exception? = nil,
            timeUnixNano: UInt64 = 0
        ) {
            self.body = body
            self.severityNumber = severityNumber
            self.attributes = attributes
            self.exception = exception
            self.timeUnixNano = timeUnixNano
        }
    }

    /// A binary protobuf `ExportLogsServiceRequest` with one resource (`service.name`, and
    /// `service.instance.id` when `instance` is given) and one scope holding `records`.
    package static func protobuf(service: String, instance: String?, scope: String, records: [Record]) -> [UInt8] {
        var resource = OTLPProtoResource()
        resource.attributes.append(keyValue("service.name", service))
        if let instance { resource.attributes.append(keyValue("service.instance.id", instance)) }
        var scopeLogs = OTLPProtoScopeLogs()
        scopeLogs.scope.name = scope
        scopeLogs.logRecords = records.map(logRecord)
        var resourceLogs = OTLPProtoResourceLogs()
        resourceLogs.resource = resource
        resourceLogs.scopeLogs = [scopeLogs]
        var request = OTLPProtoExportLogsServiceRequest()
        request.resourceLogs = [resourceLogs]
        // Serializing a message built only from valid strings and numbers cannot fail.
        return (try? request.serializedBytes()) ?? []
    }

    /// `rejected_log_records` of a binary protobuf `ExportLogsServiceResponse` (a `200`'s body): 0 when it has no
    /// `partial_success`, `nil` when the body does not decode.
    package static func rejectedLogRecords(inResponse body: [UInt8]) -> Int64? {
        guard let response = try? OTLPProtoExportLogsServiceResponse(serializedBytes: body) else { return nil }
        return response.partialSuccess.rejectedLogRecords
    }

    /// `bytes` compressed as one gzip member (`Content-Encoding: gzip`) at zlib's fastest level.
    package static func gzip(_ bytes: [UInt8]) -> [UInt8] {
        var stream = z_stream()
        // 15 + 16: the largest window, with a gzip header and trailer rather than zlib's.
        guard
            deflateInit2_(
                &stream, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
                Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else { return [] }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(bytes.count))) + 32)
        let written = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = UInt32(input.count)
                stream.next_out = out.baseAddress
                stream.avail_out = UInt32(out.count)
                // The output buffer holds deflateBound's worst case, so one call finishes the stream.
                return CZlib.deflate(&stream, Z_FINISH) == Z_STREAM_END ? out.count - Int(stream.avail_out) : 0
            }
        }
        return Array(output[0..<written])
    }

    private static func logRecord(_ record: Record) -> OTLPProtoLogRecord {
        var log = OTLPProtoLogRecord()
        log.timeUnixNano = record.timeUnixNano
        log.severityNumber = OTLPProtoSeverityNumber(rawValue: record.severityNumber) ?? .unspecified
        if !record.body.isEmpty { log.body.stringValue = record.body }
        if let exception = record.exception {
            log.attributes.append(keyValue(WireMember.exceptionType.name, exception.type))
            log.attributes.append(keyValue(WireMember.exceptionMessage.name, exception.message))
            log.attributes.append(keyValue(WireMember.exceptionStacktrace.name, exception.stacktrace))
        }
        for (key, value) in record.attributes.sorted(by: { $0.key < $1.key }) {
            log.attributes.append(keyValue(key, value))
        }
        return log
    }

    private static func keyValue(_ key: String, _ value: String) -> OTLPProtoKeyValue {
        var pair = OTLPProtoKeyValue()
        pair.key = key
        pair.value.stringValue = value
        return pair
    }
}
