import ErrorWatchWire
import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2Posix
import GRPCProtobuf
import Synchronization

/// The collector services' `Export` methods, answered with the OTLP/HTTP receiver's decoding and mapping
/// (``OTLPExchange``) and its table of senders (``SenderRegistry``): one way of handling a request, two
/// transports. The methods are the generated descriptors (scripts/generate-otlp-grpc.sh); the messages arrive as
/// bytes (``OTLPGRPCBytes``).
///
/// Status codes follow the OTLP specification: `OK` with `partial_success` for records rejected; `UNAVAILABLE`
/// with a `google.rpc.RetryInfo` when the dashboard is behind (retryable: nothing of the request was kept);
/// `INVALID_ARGUMENT` for a message that does not decode, a second message, or none (not retryable);
/// `RESOURCE_EXHAUSTED` without retry information for a message over the size limit (not retryable), with a
/// `RetryInfo` for a call or message that did not fit in the body budget now (retryable); and `DEADLINE_EXCEEDED`
/// for a call whose message did not arrive within the request deadline.
struct OTLPGRPCService: RegistrableRPCService {
    /// The HTTP receiver's handling of a request: decoding, admission, mapping (``OTLPExchange``), then counting
    /// and delivery (``OTLPRequestWork/finish(_:peer:host:)``).
    let work: OTLPRequestWork
    let limits: OTLPReceiver.Limits
    var exchange: OTLPExchange { work.exchange }
    var registry: SenderRegistry { work.registry }
    /// Calls cancelled because their message had not arrived within the request deadline.
    let timedOutCalls = Counter()
    /// Calls waiting for their message now.
    let awaitingMessage = Counter()

    /// A counter shared by the copies of the service (a struct) the server keeps.
    final class Counter: Sendable {
        private let value = Atomic<UInt64>(0)

        func increment() { value.add(1, ordering: .relaxed) }
        func decrement() { value.subtract(1, ordering: .relaxed) }
        var current: UInt64 { value.load(ordering: .relaxed) }
    }

    func registerMethods<Transport: ServerTransport>(with router: inout RPCRouter<Transport>) {
        let methods: [(OTLPExchange.Signal, MethodDescriptor)] = [
            (.logs, OTLPProtoLogsService.Method.Export.descriptor),
            (.metrics, OTLPProtoMetricsService.Method.Export.descriptor),
            (.traces, OTLPProtoTraceService.Method.Export.descriptor),
        ]
        for (signal, method) in methods {
            router.registerHandler(
                forMethod: method, deserializer: OTLPGRPCBytes(), serializer: OTLPGRPCBytes()
            ) { request, context in
                try await export(signal, request, context)
            }
        }
    }

    /// One `Export` call: its one message received (within the deadline), handled as an OTLP/HTTP body, answered.
    func export(
        _ signal: OTLPExchange.Signal, _ request: StreamingServerRequest<GRPCNIOTransportBytes>, _ context: ServerContext
    ) async throws -> StreamingServerResponse<GRPCNIOTransportBytes> {
        let peer = Self.peer(context.remotePeer)
        let body: GRPCNIOTransportBytes
        do {
            body = try await receive(request)
        } catch let error as RPCError {
            // The transport's (a message over the size limit, a compression it does not know, a body that does
            // not inflate) or ours (no message, two, too late): counted against the client, then answered.
            if error.code != .cancelled { record(failure: error, peer: peer) }
            throw error
        }
        if let refusal = body.withUnsafeBytes({ OTLPGRPCStreamGate.StandIn(reading: $0) }) {
            // The call was refused from its prefix and its message dropped unread (OTLPGRPCStreamGate).
            throw refused(refusal, peer: peer)
        }
        guard body.count <= limits.maximumBodyBytes else {
            let error = RPCError(
                code: .resourceExhausted,
                message: "the message is \(body.count) bytes, over the limit of \(limits.maximumBodyBytes)")
            record(failure: error, peer: peer)
            throw error
        }
        // Read in place: the message is the transport's buffer (OTLPGRPCBytes).
        let outcome = body.withUnsafeBytes { bytes in
            exchange.complete(.init(signal: signal, format: .protobuf, gzip: false), body: bytes.bytes)
        }
        work.finish(outcome, grpc: true, peer: peer.address, host: peer.host)
        switch outcome.result {
        case .accepted(_, let answer):
            let bytes = (try? answer.serializedBytes() as [UInt8]) ?? []
            return StreamingServerResponse(single: ServerResponse(message: GRPCNIOTransportBytes(bytes)))
        case .refused(let refusal, let message, _):
            throw status(refusal, message)
        }
    }

    /// The call's one message. Its deadline is kept by the stream gate, on the stream's event loop, rather than by
    /// a timer task here: a call that sent nothing of its message within ``OTLPReceiver/Limits/requestTimeout``
    /// receives the gate's ``OTLPGRPCStreamGate/StandIn/deadline`` and is answered `DEADLINE_EXCEEDED`.
    private func receive(_ request: StreamingServerRequest<GRPCNIOTransportBytes>) async throws -> GRPCNIOTransportBytes {
        awaitingMessage.increment()
        defer { awaitingMessage.decrement() }
        var body: GRPCNIOTransportBytes?
        for try await message in request.messages {
            guard body == nil else {
                throw RPCError(code: .invalidArgument, message: "Export takes one request message, not two")
            }
            body = message
        }
        guard let body else { throw RPCError(code: .invalidArgument, message: "the call sent no message") }
        return body
    }

    /// The error that ends a call the stream gate refused. A message over the size limit is the client's fault:
    /// counted on its row, not to be retried. A call or message that did not fit in the body budget is not: it is
    /// counted in the receiver's statistics (``OTLPReceiver/Statistics/overBodyBudget``) and answered
    /// `RESOURCE_EXHAUSTED` with a `RetryInfo`, which the OTLP specification makes retryable (the receiver was
    /// overloaded, as an HTTP `503`).
    func refused(_ refusal: OTLPGRPCStreamGate.StandIn, peer: (address: String, host: String)) -> any Error {
        let retry = ErrorDetails.retryInfo(delay: .seconds(limits.retryAfterSeconds))
        switch refusal {
        case .tooLarge(let size, let compressed):
            let error = RPCError(
                code: .resourceExhausted,
                message: "the message is \(size) bytes\(compressed ? " compressed" : ""), "
                    + "over the limit of \(limits.maximumBodyBytes)")
            record(failure: error, peer: peer)
            return error
        case .overBudget(let size):
            return GoogleRPCStatus(
                code: .resourceExhausted,
                message: "the message of \(size) bytes does not fit in the receiver's budget of messages in flight "
                    + "(\(limits.bodyBudgetBytes) bytes) now; retry later",
                details: [retry])
        case .noRoomForCall:
            return GoogleRPCStatus(
                code: .resourceExhausted,
                message: "the receiver holds its budget of calls and messages in flight "
                    + "(\(limits.bodyBudgetBytes) bytes) now; retry later",
                details: [retry])
        case .secondMessage:
            let error = RPCError(code: .invalidArgument, message: "Export takes one request message, not two")
            record(failure: error, peer: peer)
            return error
        case .deadline:
            timedOutCalls.increment()
            let error = RPCError(
                code: .deadlineExceeded,
                message: "the request message did not arrive within \(limits.requestTimeout) of the call")
            record(failure: error, peer: peer)
            return error
        }
    }

    /// Counts a call that failed before its message could be handled against its client's row.
    private func record(failure error: RPCError, peer: (address: String, host: String)) {
        let refusal: OTLPExchange.Refusal =
            switch error.code {
            case .resourceExhausted: .tooLarge
            case .deadlineExceeded: .deadline
            case .unavailable: .behind
            default: .undecodable
            }
        registry.record(.refused(refusal, error.message), grpc: true, peer: peer.address, host: peer.host, at: Date())
    }

    /// The gRPC status that ends a refused call: the refusal's code from the exchange's one table, with a
    /// `RetryInfo` asking for the receiver's retry delay when the sender should retry (OTLP specification,
    /// "Throttling": the SDK waits as long as it asks).
    func status(_ refusal: OTLPExchange.Refusal, _ message: String) -> GoogleRPCStatus {
        let code: RPCError.Code =
            switch refusal.answer.code {
            case .invalidArgument: .invalidArgument
            case .deadlineExceeded: .deadlineExceeded
            case .notFound: .notFound
            case .resourceExhausted: .resourceExhausted
            case .unimplemented: .unimplemented
            case .unavailable: .unavailable
            case .unknown: .unknown
            }
        guard refusal.retryable else { return GoogleRPCStatus(code: code, message: message, details: []) }
        let delay = Duration.seconds(limits.retryAfterSeconds)
        return GoogleRPCStatus(code: code, message: message, details: .retryInfo(.init(delay: delay)))
    }

    /// A status code's name as the specification writes it: `INVALID_ARGUMENT`.
    static func name(_ code: RPCError.Code) -> String {
        switch code {
        case .cancelled: "CANCELLED"
        case .unknown: "UNKNOWN"
        case .invalidArgument: "INVALID_ARGUMENT"
        case .deadlineExceeded: "DEADLINE_EXCEEDED"
        case .notFound: "NOT_FOUND"
        case .alreadyExists: "ALREADY_EXISTS"
        case .permissionDenied: "PERMISSION_DENIED"
        case .resourceExhausted: "RESOURCE_EXHAUSTED"
        case .failedPrecondition: "FAILED_PRECONDITION"
        case .aborted: "ABORTED"
        case .outOfRange: "OUT_OF_RANGE"
        case .unimplemented: "UNIMPLEMENTED"
        case .internalError: "INTERNAL"
        case .unavailable: "UNAVAILABLE"
        case .dataLoss: "DATA_LOSS"
        case .unauthenticated: "UNAUTHENTICATED"
        default: "\(code)"
        }
    }

    /// A gRPC peer (`ipv4:127.0.0.1:51234`, `ipv6:[::1]:51234`) as the HTTP receiver names one: the address with
    /// its port, and the host alone.
    static func peer(_ remote: String) -> (address: String, host: String) {
        var address = Substring(remote)
        for scheme in ["ipv4:", "ipv6:"] where address.hasPrefix(scheme) { address = address.dropFirst(scheme.count) }
        var host = address
        if let colon = address.lastIndex(of: ":") { host = address[..<colon] }
        if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        return (String(address), String(host))
    }
}
