import ErrorWatchIngest

/// One input is the bytes a gRPC call sends in its DATA frames, cut into frames where the input says: the first
/// byte seeds the frame sizes (1 to 256 bytes, varying), the rest is the call's bytes. `OTLPGRPCMessageFraming`,
/// which the OTLP/gRPC receiver's stream gate reads every call with before the transport buffers anything, must
/// find exactly the messages a plain reading of the whole bytes finds, whatever the cuts: the same prefixes in the
/// same order, each step within the bytes given and at least one byte long, and the same bytes left over at the end.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 0 else { return 0 }
    var seed = UInt32(data[0]) | 1
    let bytes = UnsafeRawBufferPointer(start: data + 1, count: size - 1)

    // The plain reading: prefixes one after another over the whole bytes.
    var expected: [(flag: UInt8, length: Int)] = []
    var offset = 0
    var bodyLeft = 0
    while offset + 5 <= bytes.count {
        let length = Int(bytes[offset + 1]) << 24 | Int(bytes[offset + 2]) << 16 | Int(bytes[offset + 3]) << 8
            | Int(bytes[offset + 4])
        expected.append((bytes[offset], length))
        let end = offset + 5 + length
        if end > bytes.count {
            bodyLeft = end - bytes.count
            offset = bytes.count
        } else {
            offset = end
        }
    }
    let partialPrefix = offset < bytes.count ? bytes.count - offset : 0

    // The framing, frame by frame.
    var framing = OTLPGRPCMessageFraming()
    var found: [(flag: UInt8, length: Int)] = []
    var start = 0
    while start < bytes.count {
        seed = seed &* 1_103_515_245 &+ 12_345
        let end = min(start + Int(seed >> 16 & 0xFF) + 1, bytes.count)
        let frame = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
        var at = 0
        while at < frame.count {
            let step = framing.next(in: frame, from: at)
            precondition(step.count >= 1 && at + step.count <= frame.count, "a step outside the frame: \(step)")
            if case .prefix(_, let prefix) = step {
                precondition(prefix.compressed == (prefix.flag & 1 == 1), "the compression flag misread")
                precondition(prefix.bytes.count == 5, "a prefix not written as five bytes")
                found.append((prefix.flag, prefix.length))
            }
            if case .partialPrefix = step { precondition(at + step.count == frame.count, "a prefix cut mid-frame") }
            at += step.count
        }
        start = end
    }
    precondition(found.count == expected.count, "\(found.count) messages found, \(expected.count) sent")
    for (a, b) in zip(found, expected) {
        precondition(a.flag == b.flag && a.length == b.length, "a prefix misread: \(a) for \(b)")
    }
    precondition(framing.messages == expected.count, "messages miscounted")
    precondition(framing.remainingInMessage == bodyLeft, "the message's rest miscounted")
    precondition(framing.atMessageBoundary == (bodyLeft == 0 && partialPrefix == 0), "the boundary misjudged")
    return 0
}
