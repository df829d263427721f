import GRPCCore
import GRPCNIOTransportHTTP2Posix

/// A gRPC message codec that passes a message's bytes through untouched: the receiver decodes them itself, with the
/// OTLP/HTTP receiver's decoder (``OTLPExchange``), so both ways in share one decoding and one mapping, and a body
/// that does not decode is an answer the receiver chooses and counts rather than an error raised before it runs.
///
/// A message is the transport's own buffer, not a copy of it: the receiver reads it in place
/// (``OTLPExchange/complete(_:body:)-(_,RawSpan)``).
struct OTLPGRPCBytes: MessageSerializer, MessageDeserializer {
    typealias Message = GRPCNIOTransportBytes

    func serialize<Bytes: GRPCContiguousBytes>(_ message: GRPCNIOTransportBytes) throws -> Bytes {
        if let same = message as? Bytes { return same }
        return message.withUnsafeBytes { Bytes($0) }
    }

    func deserialize<Bytes: GRPCContiguousBytes>(_ serializedMessageBytes: Bytes) throws -> GRPCNIOTransportBytes {
        if let same = serializedMessageBytes as? GRPCNIOTransportBytes { return same }
        return serializedMessageBytes.withUnsafeBytes { GRPCNIOTransportBytes($0) }
    }
}
