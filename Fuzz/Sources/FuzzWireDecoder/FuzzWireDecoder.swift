import ErrorWatchWire
import FuzzSupport

/// One input is one wire line, read by `WireDecoder` (the hand-written NDJSON scanner, `JSONScanner`, and
/// `WireEvent(scanning:)`). Besides not crashing, a line that decodes must survive the round trip: its event
/// written by `WireEncoder` decodes again, to the same event up to the time's microsecond rounding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let line = UnsafeRawBufferPointer(start: data, count: size)
    guard let event = try? WireDecoder().decode(line) else { return 0 }
    checkRoundTrip(event, from: "WireDecoder")
    return 0
}
