import ErrorWatchWire

/// Checks what the recorder and the forwarder rely on: an event a reader produced can be written as a wire line
/// (`WireEncoder`), and that line reads back (`WireDecoder`) as the same event, up to the time's rounding to a
/// microsecond (a millisecond of slack: a `Double` holds a far-future time to tens of microseconds only).
/// Traps (a finding) otherwise. A line over the 64 KiB limit is the writer's documented refusal, not a finding.
public func checkRoundTrip(_ event: WireEvent, from reader: String) {
    let written: [UInt8]
    do {
        written = try WireEncoder().encode(event)
    } catch .lineTooLong {
        return
    } catch {
        fatalError("\(reader) produced an event the writer refuses (\(error)): \(event)")
    }
    let again: WireEvent
    do {
        again = try WireDecoder().decode(written)
    } catch {
        fatalError("the writer's line does not decode (\(error)): \(String(decoding: written, as: UTF8.self))")
    }
    precondition(
        abs(again.time.timeIntervalSince(event.time)) < 0.001, "the time moved: \(event.time) → \(again.time)")
    var comparable = again
    comparable.time = event.time
    precondition(comparable == event, "the round trip changed the event: \(event) → \(again)")
}
