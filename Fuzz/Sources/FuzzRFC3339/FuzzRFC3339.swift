import ErrorWatchWire

/// One input is the text of a wire event's `time` (RFC 3339, `RFC3339.parse`, internal: reached through the
/// wire decoder, the only way a producer reaches it). The bytes are written into a JSON string with every byte
/// outside printable ASCII escaped, so the parser sees exactly the input. A time that parses must format and
/// parse again to the same instant (within a microsecond's rounding); one that does not keeps the event, marked
/// with the text exactly as sent.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = UnsafeBufferPointer(start: data, count: size)
    // Invalid UTF-8 is refused before the time is read; keep the fuzzer on text that reaches the parser.
    guard let string = String(validating: text, as: UTF8.self) else { return 0 }
    var line = Array(#"{"v":1,"kind":"log","body":"x","time":""#.utf8)
    for scalar in string.unicodeScalars {
        if scalar.value >= 0x20, scalar.value < 0x7F, scalar != "\"", scalar != "\\" {
            line.append(UInt8(scalar.value))
        } else {
            for unit in String(scalar).utf16 {
                line += Array("\\u".utf8) + Array(hex(unit).utf8)
            }
        }
    }
    line += Array(#""}"#.utf8)
    let event: WireEvent
    do {
        event = try WireDecoder().decode(line)
    } catch {
        fatalError("a line that differs only in its time was refused: \(error)")
    }
    if let sent = event.attributes[WireEvent.unreadableTimeAttribute] {
        precondition(sent == string, "an unreadable time was not kept as sent: \(string) → \(sent)")
        return 0
    }
    guard let written = try? WireEncoder().encode(event) else { fatalError("a parsed time did not encode") }
    guard let again = try? WireDecoder().decode(written) else {
        fatalError("a parsed time does not parse once written: \(String(decoding: written, as: UTF8.self))")
    }
    precondition(
        abs(again.time.timeIntervalSince(event.time)) < 0.000_001 * max(1, abs(event.time.timeIntervalSince1970) / 1e9),
        "\(string) → \(event.time) → \(again.time)")
    return 0
}

private func hex(_ unit: UInt16) -> String {
    let digits = String(unit, radix: 16)
    return String(repeating: "0", count: 4 - digits.count) + digits
}
