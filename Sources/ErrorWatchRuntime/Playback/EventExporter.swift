import ErrorStreaming
import ErrorWatchUI
import ErrorWatchIngest
import ErrorWatchWire
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `W`: writes events the dashboard kept to an NDJSON file in the wire format, which `errorwatch replay` and
/// `errorwatch render --from` read back.
public struct EventExporter: Sendable {
    /// The folder files are written to: `$ERRORWATCH_EXPORT_DIR`, else the current folder.
    public let directory: String

    /// An exporter writing into `directory`.
    public init(directory: String) { self.directory = directory }

    /// An exporter for this environment: `$ERRORWATCH_EXPORT_DIR` when set, else the current folder.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment)
        -> EventExporter
    {
        let folder = environment["ERRORWATCH_EXPORT_DIR"].flatMap { $0.isEmpty ? nil : $0 }
        return EventExporter(directory: folder ?? FileManager.default.currentDirectoryPath)
    }

    /// The file name for an export made at `date`: `errorwatch-20261122-090003.ndjson`.
    public static func fileName(at date: Date) -> String {
        let stamp = Format.timestamp(date).prefix(19).replacingOccurrences(of: "-", with: "")
            .replacingOccurrences(of: ":", with: "").replacingOccurrences(of: " ", with: "-")
        return "errorwatch-\(stamp).ndjson"
    }

    /// Writes `events` (oldest first) to a new file named for `date`; returns its path. A name already taken
    /// gets `-2`, `-3`… so nothing is overwritten.
    public func write(_ events: [DashboardEvent], at date: Date) throws -> String {
        let base = (directory as NSString).appendingPathComponent(Self.fileName(at: date))
        var path = base
        var attempt = 1
        // Created exclusively: two exports in the same second (or another program) never share a file.
        while true {
            let fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o644)
            if fd >= 0 {
                close(fd)
                break
            }
            guard errno == EEXIST, attempt < 1_000 else {
                throw ExportError(path: path, reason: String(cString: strerror(errno)))
            }
            attempt += 1
            path = String(base.dropLast(".ndjson".count)) + "-\(attempt).ndjson"
        }
        let recorder = try RecordingWriter(path: path)
        for event in events { try recorder.append(WireEvent(event)) }
        try recorder.close()
        return path
    }
}

/// Why an export could not be written, in one sentence.
struct ExportError: Error, CustomStringConvertible {
    var path: String
    var reason: String
    var description: String { "cannot create \(path): \(reason.lowercased())" }
}

extension WireEvent {
    /// The wire form of a dashboard line, with everything the line kept of what its producer sent: an error with its
    /// type, code as sent, category, messages, stack, location, trace and release, or a log record; an origin only
    /// when one was said.
    init(_ event: DashboardEvent) {
        let isError = event.kind == .error
        self.init(
            kind: isError ? .error : .log, time: event.timestamp, serviceName: event.service, pid: event.pid,
            hostName: event.host,
            source: event.source.isEmpty ? nil : event.source,
            exceptionType: isError ? (event.qualifiedTypeName.isEmpty ? event.typeName : event.qualifiedTypeName) : nil,
            exceptionMessage: isError ? event.message : nil, userMessage: isError ? event.userMessage : nil,
            code: event.code, category: event.category, severity: event.level,
            origin: event.originSent ? event.origin : nil,
            attempt: event.attempt, sequence: event.sequence < 1 << 63 ? event.sequence : nil,
            attributes: event.metadata, body: isError ? event.logMessage : event.message,
            exceptionStacktrace: event.stackTrace,
            codeFilePath: event.location.map { $0.file }, codeLineNumber: event.location.map { Int($0.line) },
            codeFunction: event.location.flatMap { $0.function.isEmpty ? nil : $0.function },
            traceID: event.traceID, spanID: event.spanID, serviceVersion: event.serviceVersion,
            deploymentEnvironment: event.environment)
        if let code = event.codeText { setVerbatimCode(code) }
        report = event.report
    }
}
