import Foundation
import NIOCore
import NIOHTTP1

/// OTLP/HTTP as an ``HTTPIngestService``: the head checked by ``OTLPExchange``, error answers as
/// `google.rpc.Status` in the request's format, refusals counted against the client.
extension OTLPRequestWork: HTTPIngestService {
    func check(_ head: HTTPRequestHead) -> HTTPIngestCheck<OTLPExchange.Accepted> {
        switch exchange.check(head) {
        case .accepted(let accepted): .accepted(accepted)
        case .refused(let response): .refused(response)
        }
    }

    func refusal(_ status: HTTPResponseStatus, _ message: String, for accepted: OTLPExchange.Accepted?)
        -> HTTPIngestResponse
    {
        OTLPExchange.status(status, message, accepted?.format ?? .protobuf)
    }

    func record(refused response: HTTPIngestResponse, problem: String?, peer: String, host: String) {
        registry.record(OTLPExchange.Outcome(response: response, problem: problem), peer: peer, host: host, at: Date())
    }
}
