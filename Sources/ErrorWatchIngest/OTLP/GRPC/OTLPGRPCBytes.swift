import GRPCCore

/// A gRPC message codec that passes a message's bytes through untouched: the receiver decodes them itself, with the
/// OTLP/HTTP receiver's decoder (``OTLPExchange``), so both ways in share one decoding and one mapping, and a body
/// that does not decode is an answer the receiver chooses and counts rather than an error raised before it runs.
struct OTLPGRPCBytes: MessageSerializer, MessageDeserializer {
    typealias Message = [UInt8]

    func serialize<Bytes: GRPCContiguousBytes>(_ message: [UInt8]) throws -> Bytes { Bytes(message) }

    func deserialize<Bytes: GRPCContiguousBytes>(_ serializedMessageBytes: Bytes) throws -> [UInt8] {
        serializedMessageBytes.withUnsafeBytes { Array($0) }
    }
}
