import ErrorWatchIngest
import ErrorWatchWire
import Foundation

/// One signal the OTLP clients send (`--signals logs,traces,metrics`).
enum OTLPLoadSignal: String, CaseIterable, Sendable {
    case logs
    case traces
    case metrics

    /// The OTLP/HTTP path.
    var path: String { "/v1/\(rawValue)" }

    /// The OTLP/gRPC service.
    var service: OTLPGRPCExporter.Service {
        switch self {
        case .logs: .logs
        case .traces: .traces
        case .metrics: .metrics
        }
    }

    /// What one item of the signal is called in the report.
    var items: String {
        switch self {
        case .logs: "records"
        case .traces: "spans"
        case .metrics: "points"
        }
    }

    /// The items a `200`'s `partial_success` rejected; `nil` when the answer does not decode.
    func rejected(inResponse body: [UInt8]) -> Int64? {
        switch self {
        case .logs: OTLPLogsRequestBody.rejectedLogRecords(inResponse: body)
        case .traces: OTLPTracesRequestBody.rejectedSpans(inResponse: body)
        case .metrics: OTLPMetricsRequestBody.rejectedDataPoints(inResponse: body)
        }
    }

    /// `logs,traces` → `[.logs, .traces]`, in the order given, each once.
    static func parse(_ list: String) throws -> [OTLPLoadSignal] {
        var signals: [OTLPLoadSignal] = []
        for name in list.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces).lowercased() }) {
            guard let signal = OTLPLoadSignal(rawValue: name) else {
                throw LoadError("--signals takes logs, traces and metrics, comma-separated; not '\(name)'")
            }
            if !signals.contains(signal) { signals.append(signal) }
        }
        guard !signals.isEmpty else { throw LoadError("--signals names no signal") }
        return signals
    }
}

/// A problem with the load tool's arguments, said as it is.
struct LoadError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// One client's request body for one signal, built once through the generated types and re-stamped for every
/// request: each request's traces get ids of their own (the receiver counts a failure seen twice in one trace
/// once, so resending the same ids would be counted as the same failures), and every span, event and data point
/// time moves to the moment of sending. Re-stamping overwrites bytes of fixed width in place (trace ids are
/// 16-byte `bytes`, times `fixed64`), so the message stays valid without serializing it again.
///
/// What one request maps to in the dashboard (events, errors among them, spans) is found once by decoding the
/// template with the receiver's own decoder (``OTLPRequestDecoder``): the clients multiply it by the requests
/// accepted, and the dashboard's counts must equal that.
struct OTLPLoadTemplate: Sendable {
    /// What one request of this template becomes in the dashboard.
    struct Yield: Sendable {
        var events = 0
        var errors = 0
        var spans = 0
        var rejected = 0
    }

    let signal: OTLPLoadSignal
    /// Items (log records, spans or data points) in one request.
    let items: Int
    let body: [UInt8]
    let yield: Yield
    /// Where each trace id's first 8 bytes are (rewritten per request with the request's sequence number).
    private let traceIDOffsets: [Int]
    /// Where each `fixed64` time is (moved by the time since `base`).
    private let timeOffsets: [Int]
    private let base: UInt64

    /// How far after `base` the template's times reach; only values in that window are taken for times.
    private static let window: UInt64 = 10_000_000_000

    /// The template of `signal` for client `client` with `items` items, half of them failing (log records with an
    /// exception; traces of 10 nested spans whose failures are exception events and ERROR statuses).
    init(signal: OTLPLoadSignal, items: Int, client: Int, run: UInt32) {
        self.signal = signal
        self.items = items
        let base = UInt64(Date().timeIntervalSince1970 * 1e9)
        self.base = base
        var traceIDs: [[UInt8]] = []
        let body: [UInt8]
        switch signal {
        case .logs:
            body = OTLPLogsRequestBody.protobuf(
                service: "load", instance: "client-\(client)", scope: "checkout",
                records: LoadCommand.otlpRecords(count: items, client: client))
        case .traces:
            let traces = Self.traces(spans: items, client: client, run: run, base: base)
            traceIDs = traces.map(\.id)
            body = OTLPTracesRequestBody.protobuf(
                service: "load", instance: "client-\(client)", scope: "checkout", traces: traces)
        case .metrics:
            let names = ["queue.depth", "pool.in_use", "cache.hit_ratio", "requests.in_flight"]
            body = OTLPMetricsRequestBody.protobuf(
                service: "load", instance: "client-\(client)", scope: "checkout",
                points: (0..<items).map { index in
                    .init(
                        name: names[index % names.count], value: Double(index % 97),
                        time: base + UInt64(index) * 1_000, attributes: ["worker": "w\(index / names.count)"])
                })
        }
        self.body = body
        traceIDOffsets = traceIDs.flatMap { Self.offsets(of: $0, in: body) }
        timeOffsets = signal == .logs ? [] : Self.timeOffsets(in: body, base: base)
        let answer = OTLPRequestDecoder().decode(
            path: signal.path, contentType: "application/x-protobuf", body: body)
        yield = Yield(
            events: answer.events.count, errors: answer.events.filter { $0.kind == .error }.count,
            spans: answer.spans.count, rejected: answer.rejected)
    }

    /// The body of request number `sequence`, sent at `now` (nanoseconds since 1970).
    func body(sequence: UInt64, now: UInt64) -> [UInt8] {
        guard !traceIDOffsets.isEmpty || !timeOffsets.isEmpty else { return body }
        var bytes = body
        let shift = now &- base
        bytes.withUnsafeMutableBytes { raw in
            for offset in traceIDOffsets {
                raw.storeBytes(of: sequence.bigEndian, toByteOffset: offset, as: UInt64.self)
            }
            for offset in timeOffsets {
                let time = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                raw.storeBytes(of: (time &+ shift).littleEndian, toByteOffset: offset, as: UInt64.self)
            }
        }
        return bytes
    }

    /// Traces of 10 spans (the last one shorter) with `spans` spans in all: a server span, a validation, an
    /// inventory call with its query, a payment with its gateway call and query, a cache write and a notification.
    /// Every other trace fails in the payment gateway (an exception event with an ERROR status, recorded again on
    /// its parent, the parents ERROR), every third has a deadlocked query (ERROR status, `error.type`, no event),
    /// every fifth a cache timeout recorded as an exception event only (as swift-otel's `recordError` does).
    static func traces(spans: Int, client: Int, run: UInt32, base: UInt64) -> [OTLPTracesRequestBody.Trace] {
        let count = (spans + 9) / 10
        let milli: UInt64 = 1_000_000
        return (0..<count).map { index in
            // Placeholder: its first 8 bytes become the request's sequence number, the rest stays unique per client,
            // trace and run.
            var id = [UInt8](repeating: 0xE7, count: 8)
            withUnsafeBytes(of: UInt32(client).bigEndian) { id += $0 }
            withUnsafeBytes(of: (run ^ UInt32(index)).bigEndian) { id += $0 }
            let start = base + UInt64(index) * 100 * milli
            func span(_ n: UInt8) -> [UInt8] { [0x5A, 0xC3, 0, 0, 0, 0, 0, n] }
            let pays = index.isMultiple(of: 2)
            let deadlock = index.isMultiple(of: 3)
            let cacheTimeout = index.isMultiple(of: 5)
            let gateway = OTLPLogsRequestBody.Exception(
                type: "Shop.PaymentDeclined", message: "card declined for order A-\(index)",
                stacktrace: """
                    Shop.PaymentDeclined: card declined for order A-\(index)
                      at Gateway.charge(order:) (Gateway.swift:41)
                      at Checkout.pay(order:) (Checkout.swift:88)
                      at CheckoutController.post(request:) (CheckoutController.swift:23)
                    """)
            let all: [OTLPTracesRequestBody.Span] = [
                .init(
                    id: span(1), name: "POST /checkout", kind: .server, start: start, end: start + 80 * milli,
                    attributes: [
                        "http.request.method": "POST", "http.route": "/checkout",
                        "http.response.status_code": pays ? "500" : "200",
                    ],
                    error: pays ? "HTTP 500" : nil),
                .init(id: span(2), parent: span(1), name: "checkout.validate", start: start + milli,
                      end: start + 3 * milli),
                .init(
                    id: span(3), parent: span(1), name: "inventory.reserve", kind: .client, start: start + 3 * milli,
                    end: start + 20 * milli, attributes: ["rpc.method": "Reserve", "rpc.service": "Inventory"]),
                .init(
                    id: span(4), parent: span(3), name: "SELECT stock", kind: .client, start: start + 5 * milli,
                    end: start + 18 * milli, attributes: ["db.system": "postgresql", "error.type": "DB.Deadlock"]
                        .filter { deadlock || $0.key == "db.system" },
                    error: deadlock ? "deadlock detected" : nil),
                .init(
                    id: span(5), parent: span(1), name: "checkout.pay", start: start + 20 * milli,
                    end: start + 70 * milli, error: pays ? "payment failed" : nil, exception: pays ? gateway : nil,
                    exceptionTime: start + 69 * milli),
                .init(
                    id: span(6), parent: span(5), name: "POST gateway/charge", kind: .client,
                    start: start + 22 * milli, end: start + 68 * milli,
                    attributes: ["http.request.method": "POST", "http.response.status_code": pays ? "402" : "200"],
                    error: pays ? "card declined" : nil, exception: pays ? gateway : nil,
                    exceptionTime: start + 67 * milli),
                .init(
                    id: span(7), parent: span(5), name: "UPDATE orders", kind: .client, start: start + 68 * milli,
                    end: start + 69 * milli, attributes: ["db.system": "postgresql"]),
                .init(
                    id: span(8), parent: span(1), name: "cache.set", kind: .client, start: start + 70 * milli,
                    end: start + 72 * milli, attributes: ["db.system": "redis"],
                    exception: cacheTimeout
                        ? .init(
                            type: "Cache.Timeout", message: "SET cart:\(index) timed out after 2 ms",
                            stacktrace: "Cache.Timeout\n  at Cache.set(_:_:) (Cache.swift:12)") : nil,
                    exceptionTime: start + 72 * milli),
                .init(
                    id: span(9), parent: span(1), name: "orders publish", kind: .producer, start: start + 72 * milli,
                    end: start + 73 * milli, attributes: ["messaging.system": "kafka"]),
                .init(
                    id: span(10), parent: span(8), name: "cache.encode", start: start + 70 * milli,
                    end: start + 71 * milli),
            ]
            let taken = index == count - 1 ? spans - 10 * (count - 1) : 10
            return .init(id: id, spans: Array(all.prefix(taken)))
        }
    }

    /// Where `needle` (a 16-byte trace id) occurs in `haystack`.
    private static func offsets(of needle: [UInt8], in haystack: [UInt8]) -> [Int] {
        guard haystack.count >= needle.count else { return [] }
        var found: [Int] = []
        for start in 0...(haystack.count - needle.count)
        where haystack[start] == needle[0] && haystack[start..<start + needle.count].elementsEqual(needle) {
            found.append(start)
        }
        return found
    }

    /// Where the `fixed64` times of spans (start 7, end 8), span events (1) and number data points (start 2,
    /// time 3) are: a field key of one of those, followed by 8 bytes whose value lies in the template's window.
    /// Any other 9 bytes matching both by chance would need a value within 10 s of `base` out of 2^64.
    private static func timeOffsets(in body: [UInt8], base: UInt64) -> [Int] {
        let keys: Set<UInt8> = [0x39, 0x41, 0x09, 0x11, 0x19]
        guard body.count >= 9 else { return [] }
        var found: [Int] = []
        var index = 0
        while index <= body.count - 9 {
            if keys.contains(body[index]) {
                var value: UInt64 = 0
                for byte in (0..<8).reversed() { value = value << 8 | UInt64(body[index + 1 + byte]) }
                if value >= base, value - base < window {
                    found.append(index + 1)
                    index += 9
                    continue
                }
            }
            index += 1
        }
        return found
    }
}
