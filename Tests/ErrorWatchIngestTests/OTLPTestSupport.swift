import ErrorStreaming
import CZlib
import Foundation
import Synchronization
import Testing

@testable import ErrorWatchIngest
@testable import ErrorWatchWire
import IngestTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// An HTTP answer as read off a raw socket.
struct RawHTTPResponse: Sendable {
    var status: Int
    var headers: [String: String]
    var body: [UInt8]
    /// Whether the server closed the connection after the answer (or instead of one).
    var closed: Bool
}

/// A deliberately plain HTTP/1.1 client on a blocking socket, run on its own thread (never on the test's
/// cooperative pool): it sends exactly the bytes given, so tests can send what no well-behaved client would.
/// A 60 s receive timeout fails a test that would otherwise hang (sized for a loaded 2-core machine, where a full
/// parallel run has taken answers past 10 s); it is never what a test waits for.
enum RawHTTP {
    /// Connects to 127.0.0.1:`port`, sends `request`, and reads one answer (or until the server closes).
    static func exchange(port: Int, _ request: [UInt8], readToClose: Bool = false) async -> RawHTTPResponse? {
        await withCheckedContinuation { continuation in
            let thread = Thread {
                continuation.resume(returning: blockingExchange(port: port, request, readToClose: readToClose))
            }
            thread.start()
        }
    }

    /// `METHOD path` with headers and a body; `Content-Length` is added unless `headers` has one.
    static func request(
        _ path: String, method: String = "POST", headers: [String: String] = [:], body: [UInt8] = []
    ) -> [UInt8] {
        var text = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { text += "\(name): \(value)\r\n" }
        if headers.keys.allSatisfy({ $0.lowercased() != "content-length" }) {
            text += "Content-Length: \(body.count)\r\n"
        }
        return Array((text + "\r\n").utf8) + body
    }

    private static func blockingExchange(port: Int, _ request: [UInt8], readToClose: Bool) -> RawHTTPResponse? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { return nil }
        var sent = 0
        while sent < request.count {
            let n = request[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { break }
            sent += n
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var closed = false
        while true {
            if !readToClose, let parsed = parse(received, closed: false) { return parsed }
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 {
                closed = true
                break
            }
            received += buffer[0..<n]
        }
        return parse(received, closed: closed) ?? RawHTTPResponse(status: 0, headers: [:], body: [], closed: closed)
    }

    /// One complete answer at the start of `bytes` (skipping `100 Continue`), or `nil` while incomplete.
    static func parse(_ bytes: [UInt8], closed: Bool) -> RawHTTPResponse? {
        var rest = bytes[...]
        while true {
            guard let end = rest.firstRange(of: Array("\r\n\r\n".utf8)) else { return nil }
            let head = String(decoding: rest[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
            let status = Int(head[0].split(separator: " ")[1]) ?? 0
            var headers: [String: String] = [:]
            for line in head.dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { continue }
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                    in: .whitespaces)
            }
            rest = rest[end.upperBound...]
            if status == 100 { continue }
            let length = Int(headers["content-length"] ?? "0") ?? 0
            guard rest.count >= length else { return nil }
            return RawHTTPResponse(
                status: status, headers: headers, body: Array(rest.prefix(length)),
                closed: closed || headers["connection"] == "close")
        }
    }
}

/// POSTs `body` to `path` and returns the answer (failing the test when there is none).
func post(
    _ port: Int, _ path: String = "/v1/logs", headers: [String: String], body: [UInt8] = []
) async throws -> RawHTTPResponse {
    try #require(await RawHTTP.exchange(port: port, RawHTTP.request(path, headers: headers, body: body)))
}

/// Collects what a receiver delivered.
final class OTLPProbe: Sendable {
    private let state = Mutex<
        (events: [WireEvent], sources: [String: SenderStatus], spans: [TraceSpan], problems: [String: [String]])
    >(([], [:], [], [:]))

    var events: [WireEvent] { state.withLock { $0.events } }
    var sources: [String: SenderStatus] { state.withLock { $0.sources } }
    var spans: [TraceSpan] { state.withLock { $0.spans } }
    /// Every problem a sender's row reported, in order (a row's `lastProblem` keeps only the latest).
    var problems: [String: [String]] { state.withLock { $0.problems } }

    func deliver(_ source: SenderStatus, _ events: [WireEvent]) { state.withLock { $0.events += events } }
    func deliver(_ source: SenderStatus, spans: [TraceSpan]) { state.withLock { $0.spans += spans } }
    func update(_ changed: [SenderStatus], forgetting forgotten: [String]) {
        state.withLock { state in
            for status in changed {
                if let problem = status.lastProblem, problem != state.sources[status.key]?.lastProblem
                    || status.badRequests != state.sources[status.key]?.badRequests
                {
                    state.problems[status.key, default: []].append(problem)
                }
                state.sources[status.key] = status
            }
            for key in forgotten { state.sources[key] = nil }
        }
    }
}

/// Starts a receiver on a free loopback port; `room` answers its admission question.
func startReceiver(
    limits: OTLPReceiver.Limits = OTLPReceiver.Limits(), room: @escaping @Sendable (Int) -> Bool = { _ in true }
) async throws -> (OTLPReceiver, OTLPProbe, Int) {
    let probe = OTLPProbe()
    let receiver = OTLPReceiver(
        endpoint: OTLPEndpoint(port: 0), limits: limits, hasRoom: room, onStatus: { probe.update($0, forgetting: $1) },
        onSpans: { probe.deliver($0, spans: $1) }, onEvents: { probe.deliver($0, $1) })
    try await receiver.start()
    let port = try #require(receiver.localEndpoint?.port)
    return (receiver, probe, port)
}

/// gzip of `bytes` (zlib's deflate with a gzip header), for request bodies.
func gzip(_ bytes: [UInt8]) -> [UInt8] {
    var stream = z_stream()
    deflateInit2_(
        &stream, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
    defer { deflateEnd(&stream) }
    var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(bytes.count))) + 64)
    var input = bytes
    let produced = input.withUnsafeMutableBufferPointer { inBuffer in
        output.withUnsafeMutableBufferPointer { outBuffer in
            stream.next_in = inBuffer.baseAddress
            stream.avail_in = UInt32(inBuffer.count)
            stream.next_out = outBuffer.baseAddress
            stream.avail_out = UInt32(outBuffer.count)
            deflate(&stream, Z_FINISH)
            return outBuffer.count - Int(stream.avail_out)
        }
    }
    return Array(output.prefix(produced))
}

/// Builders for OTLP messages.
enum OTLPFixtures {
    static func string(_ key: String, _ value: String) -> OTLPProtoKeyValue {
        var pair = OTLPProtoKeyValue()
        pair.key = key
        pair.value.stringValue = value
        return pair
    }

    static func int(_ key: String, _ value: Int64) -> OTLPProtoKeyValue {
        var pair = OTLPProtoKeyValue()
        pair.key = key
        pair.value.intValue = value
        return pair
    }

    static func resource(service: String = "shop", instance: String = "i-1", pid: Int64 = 4242) -> OTLPProtoResource {
        var resource = OTLPProtoResource()
        resource.attributes = [
            string("service.name", service), string("service.instance.id", instance), string("host.name", "web-1"),
            int("process.pid", pid),
        ]
        return resource
    }

    /// A log record; with `exception` it carries `exception.type`, `exception.message` and a stack trace.
    static func record(
        body: String, severity: OTLPProtoSeverityNumber = .info, exception: (type: String, message: String)? = nil
    ) -> OTLPProtoLogRecord {
        var record = OTLPProtoLogRecord()
        record.timeUnixNano = 1_700_000_000_123_456_000
        record.severityNumber = severity
        record.severityText = "\(severity)"
        record.body.stringValue = body
        record.traceID = Data((0..<16).map { UInt8($0) })
        record.spanID = Data((0..<8).map { UInt8(0xA0 + $0) })
        record.attributes = [string("http.route", "/checkout")]
        if let exception {
            record.attributes += [
                string("exception.type", exception.type), string("exception.message", exception.message),
                string("exception.stacktrace", "Traceback (most recent call last):\n  File \"app.py\", line 3"),
            ]
        }
        return record
    }

    static func logs(_ records: [OTLPProtoLogRecord], resource: OTLPProtoResource = resource(), scope: String = "app")
        -> OTLPProtoExportLogsServiceRequest
    {
        var scopeLogs = OTLPProtoScopeLogs()
        scopeLogs.scope.name = scope
        scopeLogs.logRecords = records
        var resourceLogs = OTLPProtoResourceLogs()
        resourceLogs.resource = resource
        resourceLogs.scopeLogs = [scopeLogs]
        var request = OTLPProtoExportLogsServiceRequest()
        request.resourceLogs = [resourceLogs]
        return request
    }

    static func metrics(_ metrics: [OTLPProtoMetric], resource: OTLPProtoResource = resource())
        -> OTLPProtoExportMetricsServiceRequest
    {
        var scopeMetrics = OTLPProtoScopeMetrics()
        scopeMetrics.scope.name = "meter"
        scopeMetrics.metrics = metrics
        var resourceMetrics = OTLPProtoResourceMetrics()
        resourceMetrics.resource = resource
        resourceMetrics.scopeMetrics = [scopeMetrics]
        var request = OTLPProtoExportMetricsServiceRequest()
        request.resourceMetrics = [resourceMetrics]
        return request
    }

    static func sum(
        _ name: String, _ value: Int64, cumulative: Bool = true, monotonic: Bool = true, start: UInt64 = 1
    ) -> OTLPProtoMetric {
        var point = OTLPProtoNumberDataPoint()
        point.startTimeUnixNano = start
        point.timeUnixNano = 1_700_000_000_000_000_000
        point.asInt = value
        point.attributes = [string("route", "/checkout")]
        var metric = OTLPProtoMetric()
        metric.name = name
        metric.unit = "1"
        metric.sum.dataPoints = [point]
        metric.sum.isMonotonic = monotonic
        metric.sum.aggregationTemporality = cumulative ? .cumulative : .delta
        return metric
    }

    static func gauge(_ name: String, _ value: Double) -> OTLPProtoMetric {
        var point = OTLPProtoNumberDataPoint()
        point.timeUnixNano = 1_700_000_000_000_000_000
        point.asDouble = value
        var metric = OTLPProtoMetric()
        metric.name = name
        metric.unit = "By"
        metric.gauge.dataPoints = [point]
        return metric
    }

    static func histogram(
        _ name: String, counts: [UInt64], bounds: [Double], cumulative: Bool = true, min: Double? = nil,
        max: Double? = nil
    ) -> OTLPProtoMetric {
        var point = OTLPProtoHistogramDataPoint()
        point.startTimeUnixNano = 1
        point.timeUnixNano = 1_700_000_000_000_000_000
        point.bucketCounts = counts
        point.explicitBounds = bounds
        point.count = counts.reduce(0, +)
        if let min { point.min = min }
        if let max { point.max = max }
        var metric = OTLPProtoMetric()
        metric.name = name
        metric.unit = "ms"
        metric.histogram.dataPoints = [point]
        metric.histogram.aggregationTemporality = cumulative ? .cumulative : .delta
        return metric
    }
}
