import ErrorWatchWire
import Foundation
import NIOCore
import NIOHTTP1
import SwiftProtobuf

/// One OTLP/HTTP request's handling without the socket: route, content type and encoding, body limit, decoding,
/// admission, mapping, and the answer the specification asks for. ``IngestHTTPHandler`` feeds it; tests drive it
/// directly too.
struct OTLPExchange: Sendable {
    /// Which export service a path names.
    enum Signal: String, Sendable {
        case logs
        case metrics
        case traces
    }

    /// The body's format, from `Content-Type`; answers are written in the same one.
    enum BodyFormat: Sendable {
        case protobuf
        case json

        var contentType: String { self == .json ? "application/json" : "application/x-protobuf" }
    }

    /// An answer to send.
    typealias Response = HTTPIngestResponse

    /// The head of a request, checked before its body arrives.
    struct Accepted: Sendable {
        var signal: Signal
        var format: BodyFormat
        var gzip: Bool
    }

    let limits: OTLPReceiver.Limits
    let streams: OTLPMetricStreams
    /// What recent traces' spans and counted failures were, so one failure is one error across requests.
    let traces: OTLPTraceMemory
    /// Whether the dashboard has room for this many more records now.
    let admit: @Sendable (Int) -> Bool
    let now: @Sendable () -> Date

    /// What a request's head says: read its body, or answer this (404, 405, 413 or 415).
    enum Checked: Sendable {
        case accepted(Accepted)
        case refused(Response)
    }

    /// Checks a request's head: `.accepted` when its body should be read, else the answer.
    func check(_ head: HTTPRequestHead) -> Checked {
        let path = head.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let signal: Signal
        switch path {
        case "/v1/logs": signal = .logs
        case "/v1/metrics": signal = .metrics
        case "/v1/traces": signal = .traces
        default:
            return .refused(
                Self.status(.notFound, "no OTLP service at \(path); use /v1/logs, /v1/metrics or /v1/traces"))
        }
        guard head.method == .POST else {
            return .refused(Self.status(.methodNotAllowed, "\(head.method.rawValue) \(path): only POST is served"))
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
                Self.status(
                    .unsupportedMediaType,
                    "content type \(type ?? "(none)") is not served; use application/x-protobuf or application/json"))
        }
        let encoding = (head.headers.first(name: "content-encoding") ?? "identity").lowercased()
        guard ["gzip", "identity", ""].contains(encoding) else {
            return .refused(
                Self.status(.unsupportedMediaType, "content encoding \(encoding) is not served; use gzip", format))
        }
        if let length = head.headers.first(name: "content-length").flatMap(Int.init), length > limits.maximumBodyBytes {
            return .refused(tooLarge(format))
        }
        return .accepted(Accepted(signal: signal, format: format, gzip: encoding == "gzip"))
    }

    /// The 413 answer.
    func tooLarge(_ format: BodyFormat = .protobuf) -> Response {
        Self.status(.payloadTooLarge, "the body is over the limit of \(limits.maximumBodyBytes) bytes", format)
    }

    /// What a complete request became: its answer, and the batch to deliver when it was accepted.
    struct Outcome: Sendable {
        var response: Response
        var batch: OTLPMappedBatch?
        /// Resources of a refused (503) request, to be counted as refused.
        var refused: [OTLPResourceIdentity] = []
        /// Why the request failed, when it did.
        var problem: String?
        /// The answer's name in a `Sources` row when it is not the HTTP status code: a gRPC status code's name
        /// (`INVALID_ARGUMENT`) for a request that came over gRPC.
        var answerName: String?
    }

    /// Handles a complete body: inflates, decodes, asks for room, maps. The body is read where it lies (the
    /// connection's buffer, or the gRPC message's), not copied first: with 50 clients each holding a 75 KB export,
    /// a copy per request was 2.4 MB of the dashboard's peak (docs/otlp.md, "Load").
    func complete(_ request: Accepted, body: RawSpan) -> Outcome {
        guard request.gzip else { return complete(request, decompressed: body) }
        let inflated: [UInt8]
        do {
            let compressed = body.withUnsafeBytes { Array($0) }
            inflated = try Inflater.inflate(compressed, limit: limits.maximumBodyBytes)
        } catch {
            switch error {
            case .tooLarge:
                let problem = "the gzip body inflates past \(limits.maximumBodyBytes) bytes"
                return Outcome(response: tooLarge(request.format), problem: problem)
            case .corrupt(let reason):
                return failure(.badRequest, "the gzip body does not inflate: \(reason)", request.format)
            }
        }
        return complete(request, decompressed: inflated.span.bytes)
    }

    /// Handles a complete body held in a connection's buffer.
    func complete(_ request: Accepted, body: ByteBuffer) -> Outcome {
        complete(request, body: body.readableBytesSpan)
    }

    /// Handles a complete body held in an array (``OTLPRequestDecoder``, tests).
    func complete(_ request: Accepted, body: [UInt8]) -> Outcome {
        complete(request, body: body.span.bytes)
    }

    /// Decodes an inflated body, asks for room, maps.
    private func complete(_ request: Accepted, decompressed bytes: RawSpan) -> Outcome {
        switch request.signal {
        case .logs:
            do {
                return accept(logs: try decode(bytes, request.format), format: request.format)
            } catch {
                return failure(.badRequest, "the body is not an ExportLogsServiceRequest: \(error)", request.format)
            }
        case .metrics:
            do {
                return accept(metrics: try decode(bytes, request.format), format: request.format)
            } catch {
                return failure(.badRequest, "the body is not an ExportMetricsServiceRequest: \(error)", request.format)
            }
        case .traces:
            do {
                return accept(traces: try decode(bytes, request.format), format: request.format)
            } catch {
                return failure(.badRequest, "the body is not an ExportTraceServiceRequest: \(error)", request.format)
            }
        }
    }

    // MARK: Decoded requests, whatever carried them

    /// Handles a decoded logs export, whatever transport carried it: asks for room (`503` and
    /// ``Outcome/refused`` when there is none), maps, and answers `200` with `partial_success` in `format`. A gRPC
    /// service answers from the same outcome (``Outcome/batch``'s `rejected` and `rejectionMessage`).
    func accept(logs decoded: OTLPProtoExportLogsServiceRequest, format: BodyFormat = .protobuf) -> Outcome {
        let count = decoded.resourceLogs.reduce(0) { $0 + $1.scopeLogs.reduce(0) { $0 + $1.logRecords.count } }
        if let refused = refuse(count, decoded.resourceLogs.map { OTLPResourceIdentity($0.resource) }, format) {
            return refused
        }
        let batch = OTLPLogMapper.map(decoded, receivedAt: now())
        var answer = OTLPProtoExportLogsServiceResponse()
        if batch.rejected > 0 {
            answer.partialSuccess.rejectedLogRecords = Int64(batch.rejected)
            answer.partialSuccess.errorMessage = batch.rejectionMessage ?? ""
        }
        return Outcome(response: Self.ok(answer, format), batch: batch)
    }

    /// Handles a decoded metrics export, whatever transport carried it (as ``accept(logs:format:)``).
    func accept(metrics decoded: OTLPProtoExportMetricsServiceRequest, format: BodyFormat = .protobuf) -> Outcome {
        let count = decoded.resourceMetrics.reduce(0) { $0 + $1.scopeMetrics.reduce(0) { $0 + $1.metrics.count } }
        if let refused = refuse(count, decoded.resourceMetrics.map { OTLPResourceIdentity($0.resource) }, format) {
            return refused
        }
        let batch = OTLPMetricMapper(streams: streams, receivedAt: now()).map(decoded)
        var answer = OTLPProtoExportMetricsServiceResponse()
        if batch.rejected > 0 {
            answer.partialSuccess.rejectedDataPoints = Int64(batch.rejected)
            answer.partialSuccess.errorMessage = batch.rejectionMessage ?? ""
        }
        return Outcome(response: Self.ok(answer, format), batch: batch)
    }

    /// Handles a decoded trace export, whatever transport carried it (as ``accept(logs:format:)``): errors from
    /// spans (``OTLPTraceMapper``) in the batch's events, the accepted spans in its groups' `spans`.
    func accept(traces decoded: OTLPProtoExportTraceServiceRequest, format: BodyFormat = .protobuf) -> Outcome {
        let count = decoded.resourceSpans.reduce(0) { $0 + $1.scopeSpans.reduce(0) { $0 + $1.spans.count } }
        if let refused = refuse(count, decoded.resourceSpans.map { OTLPResourceIdentity($0.resource) }, format) {
            return refused
        }
        let batch = OTLPTraceMapper.map(decoded, memory: traces, receivedAt: now())
        return Outcome(response: Self.ok(Self.traceResponse(batch), format), batch: batch)
    }

    /// The `ExportTraceServiceResponse` of an accepted batch: `partial_success` when spans were rejected.
    static func traceResponse(_ batch: OTLPMappedBatch) -> OTLPProtoExportTraceServiceResponse {
        var answer = OTLPProtoExportTraceServiceResponse()
        if batch.rejected > 0 {
            answer.partialSuccess.rejectedSpans = Int64(batch.rejected)
            answer.partialSuccess.errorMessage = batch.rejectionMessage ?? ""
        }
        return answer
    }

    /// A 503 with `Retry-After` when the dashboard has no room for `count` records: nothing of the request is
    /// kept, so the SDK's retry delivers it once.
    private func refuse(_ count: Int, _ resources: [OTLPResourceIdentity], _ format: BodyFormat) -> Outcome? {
        guard !admit(count) else { return nil }
        var response = Self.status(.serviceUnavailable, "the dashboard is behind; retry later", format)
        response.retryAfter = limits.retryAfterSeconds
        return Outcome(response: response, refused: resources, problem: "refused: the dashboard is behind")
    }

    private func decode<Message: SwiftProtobuf.Message>(_ bytes: RawSpan, _ format: BodyFormat) throws -> Message {
        switch format {
        case .protobuf:
            var options = BinaryDecodingOptions()
            options.messageDepthLimit = 64
            return try Message(serializedBytes: bytes, options: options)
        case .json:
            let body = bytes.withUnsafeBytes { Array($0) }
            return try Message(jsonUTF8Bytes: OTLPJSON.rewritingHexIDs(body), options: OTLPJSON.decodingOptions)
        }
    }

    private func failure(_ status: HTTPResponseStatus, _ message: String, _ format: BodyFormat) -> Outcome {
        Outcome(response: Self.status(status, message, format), problem: message)
    }

    private static func ok<Message: SwiftProtobuf.Message>(_ message: Message, _ format: BodyFormat) -> Response {
        Response(status: .ok, contentType: format.contentType, body: encode(message, format))
    }

    /// An error answer: a `google.rpc.Status` with the gRPC code matching `status` and `message`, in `format`.
    static func status(_ status: HTTPResponseStatus, _ message: String, _ format: BodyFormat = .protobuf) -> Response {
        var body = OTLPProtoStatus()
        body.code = grpcCode(status)
        body.message = message
        return Response(status: status, contentType: format.contentType, body: encode(body, format), message: message)
    }

    /// google.rpc.Code for an HTTP status: INVALID_ARGUMENT (3), NOT_FOUND (5), RESOURCE_EXHAUSTED (8),
    /// UNIMPLEMENTED (12), UNAVAILABLE (14), else UNKNOWN (2).
    static func grpcCode(_ status: HTTPResponseStatus) -> Int32 {
        switch status {
        case .badRequest, .unsupportedMediaType, .payloadTooLarge: 3
        case .notFound: 5
        case .tooManyRequests: 8
        case .methodNotAllowed: 12
        case .serviceUnavailable: 14
        default: 2
        }
    }

    private static func encode<Message: SwiftProtobuf.Message>(_ message: Message, _ format: BodyFormat) -> [UInt8] {
        switch format {
        case .protobuf: (try? message.serializedBytes()) ?? []
        case .json: (try? message.jsonUTF8Bytes()) ?? Array("{}".utf8)
        }
    }
}
