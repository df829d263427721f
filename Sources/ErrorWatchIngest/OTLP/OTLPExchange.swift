import ErrorWatchWire
import Foundation
import NIOCore
import NIOHTTP1
import SwiftProtobuf

/// One OTLP export's handling without a socket or a transport: route, content type and encoding, body limit,
/// decoding, admission, mapping. It returns what the export became (``Outcome``: accepted with its batch and
/// `partial_success`, or refused for a ``Refusal``), and each transport renders that: OTLP/HTTP as a status and a
/// body in the request's format, OTLP/gRPC as a status code or a response message, both from the one table in
/// ``Refusal``. ``IngestHTTPHandler`` and ``OTLPGRPCService`` feed it; tests drive it directly too.
struct OTLPExchange: Sendable {
    /// Which export service a request is for.
    enum Signal: String, Sendable {
        case logs
        case metrics
        case traces
    }

    /// The body's format, from `Content-Type`; HTTP answers are written in the same one.
    enum BodyFormat: Sendable {
        case protobuf
        case json

        var contentType: String { self == .json ? "application/json" : "application/x-protobuf" }
    }

    /// The head of a request, checked before its body arrives.
    struct Accepted: Sendable {
        var signal: Signal
        var format: BodyFormat
        var gzip: Bool
    }

    /// A status code of the OTLP specification (the `google.rpc.Code` numbers, which are gRPC's): what an HTTP
    /// error body carries and what a gRPC call ends with.
    enum StatusCode: Int32, Sendable {
        case unknown = 2
        case invalidArgument = 3
        case deadlineExceeded = 4
        case notFound = 5
        case resourceExhausted = 8
        case unimplemented = 12
        case unavailable = 14

        /// Its name as the specification writes it: `INVALID_ARGUMENT`.
        var name: String {
            switch self {
            case .unknown: "UNKNOWN"
            case .invalidArgument: "INVALID_ARGUMENT"
            case .deadlineExceeded: "DEADLINE_EXCEEDED"
            case .notFound: "NOT_FOUND"
            case .resourceExhausted: "RESOURCE_EXHAUSTED"
            case .unimplemented: "UNIMPLEMENTED"
            case .unavailable: "UNAVAILABLE"
            }
        }
    }

    /// Why an export was refused, whatever carried it.
    enum Refusal: Sendable, Equatable {
        /// A path that names no export service (HTTP only).
        case notFound
        /// A method other than POST (HTTP only).
        case methodNotAllowed
        /// A content type or encoding not served.
        case unsupported
        /// A body over the size limit, as sent or once inflated (not retryable).
        case tooLarge
        /// A body that does not inflate or decode, or a call with no message or two (not retryable).
        case undecodable
        /// The dashboard is behind: retry after a while (nothing of the request was kept).
        case behind
        /// The request did not arrive within the request deadline.
        case deadline
        /// The client broke its protocol (HTTP/2 floods, too many streams).
        case protocolError

        /// The one table both transports answer from: the HTTP status and the status code for each refusal.
        var answer: (http: HTTPResponseStatus, code: StatusCode) {
            switch self {
            case .notFound: (.notFound, .notFound)
            case .methodNotAllowed: (.methodNotAllowed, .unimplemented)
            case .unsupported: (.unsupportedMediaType, .invalidArgument)
            case .tooLarge: (.payloadTooLarge, .resourceExhausted)
            case .undecodable: (.badRequest, .invalidArgument)
            case .behind: (.serviceUnavailable, .unavailable)
            case .deadline: (.requestTimeout, .deadlineExceeded)
            case .protocolError: (.badRequest, .invalidArgument)
            }
        }

        /// The refusal an HTTP status stands for, when the HTTP handler refused a request itself (its deadline, the
        /// body budget, the size limit).
        init(httpStatus status: HTTPResponseStatus) {
            switch status {
            case .notFound: self = .notFound
            case .methodNotAllowed: self = .methodNotAllowed
            case .unsupportedMediaType: self = .unsupported
            case .payloadTooLarge: self = .tooLarge
            case .serviceUnavailable, .tooManyRequests: self = .behind
            case .requestTimeout: self = .deadline
            default: self = .undecodable
            }
        }

        /// Whether the sender should retry the request (after the receiver's `Retry-After` or `RetryInfo`).
        var retryable: Bool { self == .behind }

        /// What a sender's row calls the answer: the HTTP status code, or over gRPC the status code's name.
        func answerName(grpc: Bool) -> String {
            if self == .protocolError { return "PROTOCOL_ERROR" }
            return grpc ? answer.code.name : String(answer.http.code)
        }
    }

    /// What an export became.
    struct Outcome: Sendable {
        enum Result: Sendable {
            /// Mapped; `answer` is the export's response message, with `partial_success` for rejected records.
            case accepted(OTLPMappedBatch, answer: any SwiftProtobuf.Message & Sendable)
            /// Refused, saying why; `resources` are the senders it came from, when it decoded (counted as refused).
            case refused(Refusal, message: String, resources: [OTLPResourceIdentity])
        }

        var result: Result

        /// The batch of an accepted export.
        var batch: OTLPMappedBatch? {
            if case .accepted(let batch, _) = result { return batch }
            return nil
        }

        /// The refusal of a refused export.
        var refusal: Refusal? {
            if case .refused(let refusal, _, _) = result { return refusal }
            return nil
        }

        /// Why it failed, when it did.
        var problem: String? {
            if case .refused(_, let message, _) = result { return message }
            return nil
        }

        static func refused(_ refusal: Refusal, _ message: String, resources: [OTLPResourceIdentity] = []) -> Self {
            Outcome(result: .refused(refusal, message: message, resources: resources))
        }
    }

    let limits: OTLPReceiver.Limits
    let streams: OTLPMetricStreams
    /// What recent traces' spans and counted failures were, so one failure is one error across requests.
    let traces: OTLPTraceMemory
    /// Whether the dashboard has room for this many more records now.
    let admit: @Sendable (Int) -> Bool
    let now: @Sendable () -> Date

    /// What a request's head says: read its body, or answer this refusal in this format.
    enum Checked: Sendable {
        case accepted(Accepted)
        case refused(Outcome, BodyFormat)
    }

    /// Checks a request's head: its accepted form when its body should be read, else why not (with the format to
    /// answer in).
    func check(_ head: HTTPRequestHead) -> Checked {
        let path = head.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let signal: Signal
        switch path {
        case "/v1/logs": signal = .logs
        case "/v1/metrics": signal = .metrics
        case "/v1/traces": signal = .traces
        default:
            return .refused(
                .refused(.notFound, "no OTLP service at \(path); use /v1/logs, /v1/metrics or /v1/traces"), .protobuf)
        }
        guard head.method == .POST else {
            return .refused(.refused(.methodNotAllowed, "\(head.method.rawValue) \(path): only POST is served"), .protobuf)
        }
        let type = (head.headers.first(name: "content-type") ?? "").split(separator: ";").first.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
        let format: BodyFormat
        switch type {
        case "application/x-protobuf", "application/protobuf": format = .protobuf
        case "application/json": format = .json
        default:
            return .refused(
                .refused(
                    .unsupported,
                    "content type \(type ?? "(none)") is not served; use application/x-protobuf or application/json"),
                .protobuf)
        }
        let encoding = (head.headers.first(name: "content-encoding") ?? "identity").lowercased()
        guard ["gzip", "identity", ""].contains(encoding) else {
            return .refused(.refused(.unsupported, "content encoding \(encoding) is not served; use gzip"), format)
        }
        if let length = head.headers.first(name: "content-length").flatMap(Int.init), length > limits.maximumBodyBytes {
            return .refused(tooLarge(), format)
        }
        return .accepted(Accepted(signal: signal, format: format, gzip: encoding == "gzip"))
    }

    /// The refusal of a body over the limit.
    func tooLarge(inflated: Bool = false) -> Outcome {
        .refused(
            .tooLarge,
            inflated
                ? "the gzip body inflates past \(limits.maximumBodyBytes) bytes"
                : "the body is over the limit of \(limits.maximumBodyBytes) bytes")
    }

    /// Handles a complete body: inflates, decodes, asks for room, maps. An uncompressed body is decoded where it
    /// lies (the connection's buffer, or the gRPC message's), not copied first: with 50 clients each holding a 75 KB
    /// export, a copy per request was 2.4 MB of the dashboard's peak (docs/otlp.md, "Load"). A gzip body is copied
    /// once, into the inflater's input.
    func complete(_ request: Accepted, body: RawSpan) -> Outcome {
        guard request.gzip else { return decodeAndAccept(request, body) }
        let inflated: [UInt8]
        do {
            let compressed = body.withUnsafeBytes { Array($0) }
            inflated = try Inflater.inflate(compressed, limit: limits.maximumBodyBytes)
        } catch {
            switch error {
            case .tooLarge: return tooLarge(inflated: true)
            case .corrupt(let reason): return .refused(.undecodable, "the gzip body does not inflate: \(reason)")
            }
        }
        return decodeAndAccept(request, inflated.span.bytes)
    }

    /// Handles a complete body held in a connection's buffer.
    func complete(_ request: Accepted, body: ByteBuffer) -> Outcome {
        complete(request, body: body.readableBytesSpan)
    }

    /// Handles a complete body held in an array (``OTLPRequestDecoder``, tests).
    func complete(_ request: Accepted, body: [UInt8]) -> Outcome {
        complete(request, body: body.span.bytes)
    }

    /// Decodes an inflated body as its signal's request, then ``accept(_:)``s it.
    private func decodeAndAccept(_ request: Accepted, _ bytes: RawSpan) -> Outcome {
        switch request.signal {
        case .logs: decodeAndAccept(OTLPProtoExportLogsServiceRequest.self, bytes, request.format)
        case .metrics: decodeAndAccept(OTLPProtoExportMetricsServiceRequest.self, bytes, request.format)
        case .traces: decodeAndAccept(OTLPProtoExportTraceServiceRequest.self, bytes, request.format)
        }
    }

    private func decodeAndAccept<Request: OTLPExportRequest>(
        _ type: Request.Type, _ bytes: RawSpan, _ format: BodyFormat
    ) -> Outcome {
        let decoded: Request
        do {
            switch format {
            case .protobuf:
                var options = BinaryDecodingOptions()
                options.messageDepthLimit = 64
                decoded = try Request(serializedBytes: bytes, options: options)
            case .json:
                let body = bytes.withUnsafeBytes { Array($0) }
                decoded = try Request(jsonUTF8Bytes: OTLPJSON.rewritingHexIDs(body), options: OTLPJSON.decodingOptions)
            }
        } catch {
            let name = Request.protoMessageName.split(separator: ".").last.map(String.init) ?? Request.protoMessageName
            return .refused(.undecodable, "the body is not an \(name): \(error)")
        }
        return accept(decoded)
    }

    // MARK: Decoded requests, whatever carried them

    /// Handles a decoded export of any signal, whatever transport carried it: asks for room (``Refusal/behind``,
    /// its resources named, when there is none), maps, and answers with the signal's response, `partial_success`
    /// set for what was rejected.
    func accept<Request: OTLPExportRequest>(_ request: Request) -> Outcome {
        guard admit(request.recordCount) else {
            return .refused(
                .behind, "refused: the dashboard is behind; retry later", resources: request.resourceIdentities)
        }
        let batch = request.mapped(by: self)
        return Outcome(
            result: .accepted(
                batch, answer: Request.answer(rejected: batch.rejected, message: batch.rejectionMessage ?? "")))
    }

    /// The `ExportTraceServiceResponse` of an accepted batch: `partial_success` when spans were rejected.
    static func traceResponse(_ batch: OTLPMappedBatch) -> OTLPProtoExportTraceServiceResponse {
        OTLPProtoExportTraceServiceRequest.answer(rejected: batch.rejected, message: batch.rejectionMessage ?? "")
    }
}

/// An OTLP export request of one signal: what ``OTLPExchange/accept(_:)`` needs to admit, map and answer it, so one
/// generic path serves the three.
protocol OTLPExportRequest: SwiftProtobuf.Message, Sendable {
    /// The response message.
    associatedtype Answer: SwiftProtobuf.Message & Sendable
    /// Log records, metrics or spans in the request: what admission weighs.
    var recordCount: Int { get }
    /// Its resources, to count a refused request against.
    var resourceIdentities: [OTLPResourceIdentity] { get }
    /// Its records mapped by `exchange` (its clock, metric streams and trace memory).
    func mapped(by exchange: OTLPExchange) -> OTLPMappedBatch
    /// Where its response counts the records rejected (`partial_success.rejected_*`).
    static var rejectedCount: WritableKeyPath<Answer, Int64> { get }
    /// Where its response says why they were (`partial_success.error_message`).
    static var rejectionMessage: WritableKeyPath<Answer, String> { get }
}

extension OTLPExportRequest {
    /// The response, with `partial_success` when records were rejected.
    static func answer(rejected: Int, message: String) -> Answer {
        var answer = Answer()
        if rejected > 0 {
            answer[keyPath: rejectedCount] = Int64(rejected)
            answer[keyPath: rejectionMessage] = message
        }
        return answer
    }
}

extension OTLPProtoExportLogsServiceRequest: OTLPExportRequest {
    var recordCount: Int { resourceLogs.reduce(0) { $0 + $1.scopeLogs.reduce(0) { $0 + $1.logRecords.count } } }
    var resourceIdentities: [OTLPResourceIdentity] { resourceLogs.map { OTLPResourceIdentity($0.resource) } }
    func mapped(by exchange: OTLPExchange) -> OTLPMappedBatch { OTLPLogMapper.map(self, receivedAt: exchange.now()) }
    typealias Answer = OTLPProtoExportLogsServiceResponse
    static var rejectedCount: WritableKeyPath<Answer, Int64> { \.partialSuccess.rejectedLogRecords }
    static var rejectionMessage: WritableKeyPath<Answer, String> { \.partialSuccess.errorMessage }
}

extension OTLPProtoExportMetricsServiceRequest: OTLPExportRequest {
    var recordCount: Int { resourceMetrics.reduce(0) { $0 + $1.scopeMetrics.reduce(0) { $0 + $1.metrics.count } } }
    var resourceIdentities: [OTLPResourceIdentity] { resourceMetrics.map { OTLPResourceIdentity($0.resource) } }
    func mapped(by exchange: OTLPExchange) -> OTLPMappedBatch {
        OTLPMetricMapper(streams: exchange.streams, receivedAt: exchange.now()).map(self)
    }
    typealias Answer = OTLPProtoExportMetricsServiceResponse
    static var rejectedCount: WritableKeyPath<Answer, Int64> { \.partialSuccess.rejectedDataPoints }
    static var rejectionMessage: WritableKeyPath<Answer, String> { \.partialSuccess.errorMessage }
}

extension OTLPProtoExportTraceServiceRequest: OTLPExportRequest {
    var recordCount: Int { resourceSpans.reduce(0) { $0 + $1.scopeSpans.reduce(0) { $0 + $1.spans.count } } }
    var resourceIdentities: [OTLPResourceIdentity] { resourceSpans.map { OTLPResourceIdentity($0.resource) } }
    func mapped(by exchange: OTLPExchange) -> OTLPMappedBatch {
        OTLPTraceMapper.map(self, memory: exchange.traces, receivedAt: exchange.now())
    }
    typealias Answer = OTLPProtoExportTraceServiceResponse
    static var rejectedCount: WritableKeyPath<Answer, Int64> { \.partialSuccess.rejectedSpans }
    static var rejectionMessage: WritableKeyPath<Answer, String> { \.partialSuccess.errorMessage }
}
