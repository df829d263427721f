import ErrorStreaming
import ErrorWatchWire
import Foundation
import NIOCore
import NIOHTTP1
import SwiftProtobuf

/// What a complete request costs the receiver: the body inflated, decoded and mapped (``OTLPExchange``), its senders
/// counted and its events and spans delivered, linear in the request's size; then, for OTLP/HTTP, the answer. Runs
/// on the connection's event loop for small bodies and on NIO's thread pool for large ones
/// (``OTLPReceiver/Limits/inlineDecodeBytes``), so one large request never holds a loop that other connections
/// share. A transport that decodes its own messages (gRPC) calls ``finish(_:grpc:peer:host:)`` with the outcome and
/// renders it itself.
struct OTLPRequestWork: Sendable {
    let exchange: OTLPExchange
    let registry: SenderRegistry
    let connections: ConnectionSlots
    let deliver: @Sendable (SenderStatus, [WireEvent]) -> Void
    let deliverSpans: @Sendable (SenderStatus, [TraceSpan]) -> Void

    /// Counts `outcome` in its senders' rows (answers named as `grpc` or HTTP says them) and delivers its events and
    /// spans, sender by sender, spans first: an error of a trace finds its spans stored.
    @discardableResult
    func finish(_ outcome: OTLPExchange.Outcome, grpc: Bool, peer: String, host: String) -> OTLPExchange.Outcome {
        let sources = registry.record(outcome, grpc: grpc, peer: peer, host: host, at: Date())
        if let batch = outcome.batch {
            for (group, source) in zip(batch.groups, sources) {
                if !group.spans.isEmpty { deliverSpans(source, group.spans) }
                if !group.events.isEmpty { deliver(source, group.events) }
            }
        }
        return outcome
    }
}

/// OTLP/HTTP as an ``HTTPIngestService``: the head checked and the body handled by ``OTLPExchange``, its outcome
/// rendered as an HTTP answer in the request's format (an export response, or a `google.rpc.Status` with the
/// refusal's status code and a `Retry-After` when the sender should retry).
extension OTLPRequestWork: HTTPIngestService {
    func check(_ head: HTTPRequestHead) -> HTTPIngestCheck<OTLPExchange.Accepted> {
        switch exchange.check(head) {
        case .accepted(let accepted): .accepted(accepted)
        case .refused(let outcome, let format): .refused(response(outcome, format))
        }
    }

    func refusal(_ status: HTTPResponseStatus, _ message: String, for accepted: OTLPExchange.Accepted?)
        -> HTTPIngestResponse
    {
        response(.refused(.init(httpStatus: status), message), accepted?.format ?? .protobuf)
    }

    func record(refused response: HTTPIngestResponse, problem: String?, peer: String, host: String) {
        let outcome = OTLPExchange.Outcome.refused(
            .init(httpStatus: response.status), problem ?? response.message ?? "HTTP \(response.status.code)")
        registry.record(outcome, grpc: false, peer: peer, host: host, at: Date())
    }

    func run(
        _ request: OTLPExchange.Accepted, body: ByteBuffer, reserved: Int, peer: String, host: String
    ) -> HTTPIngestResponse {
        let outcome: OTLPExchange.Outcome
        do {
            defer { connections.release(reserved) }
            outcome = exchange.complete(request, body: body)
        }
        finish(outcome, grpc: false, peer: peer, host: host)
        return response(outcome, request.format)
    }

    /// The HTTP answer for `outcome`, in `format`.
    func response(_ outcome: OTLPExchange.Outcome, _ format: OTLPExchange.BodyFormat) -> HTTPIngestResponse {
        switch outcome.result {
        case .accepted(_, let answer):
            return HTTPIngestResponse(status: .ok, contentType: format.contentType, body: Self.encode(answer, format))
        case .refused(let refusal, let message, _):
            var body = OTLPProtoStatus()
            body.code = refusal.answer.code.rawValue
            body.message = message
            var response = HTTPIngestResponse(
                status: refusal.answer.http, contentType: format.contentType, body: Self.encode(body, format),
                message: message)
            if refusal.retryable { response.retryAfter = exchange.limits.retryAfterSeconds }
            return response
        }
    }

    static func encode(_ message: any SwiftProtobuf.Message, _ format: OTLPExchange.BodyFormat) -> [UInt8] {
        switch format {
        case .protobuf: (try? message.serializedBytes()) ?? []
        case .json: (try? message.jsonUTF8Bytes()) ?? Array("{}".utf8)
        }
    }
}
