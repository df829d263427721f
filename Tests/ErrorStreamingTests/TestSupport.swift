import Dispatch
import Foundation

@testable import ErrorStreaming

/// An error that says which producer added it and in which position.
struct Numbered: Error, Equatable {
    let producer: Int
    let index: Int
}

/// Another error type, for the typed filters.
struct Other: Error, Equatable {
    let index: Int
}

/// A huge error, for delivery of large payloads.
struct Huge: Error {
    let message: String
}

/// A stream with a fixed clock, so timestamps never depend on the machine.
func makeStream(historyCapacity: Int = 256) -> ErrorStream {
    ErrorStream(historyCapacity: historyCapacity, now: { Date(timeIntervalSince1970: 1_700_000_000) })
}

/// Runs `body(thread)` on `threads` real threads at once and returns when all are done.
func onThreads(_ threads: Int, _ body: @escaping @Sendable (Int) -> Void) async {
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        DispatchQueue.global().async {
            DispatchQueue.concurrentPerform(iterations: threads, execute: body)
            done.resume()
        }
    }
}

/// Yields until `condition` holds, at most `attempts` times; returns whether it came to hold.
/// This awaits a state change; it never sleeps or measures time.
func eventually(attempts: Int = 100_000, _ condition: () -> Bool) async -> Bool {
    for _ in 0..<attempts {
        if condition() { return true }
        await Task.yield()
    }
    return condition()
}

/// Iterates `events` to the end and returns the sequence numbers received.
func drain(_ events: ErrorStream.Events) async -> [UInt64] {
    var sequences: [UInt64] = []
    for await event in events { sequences.append(event.sequence) }
    return sequences
}

/// How many sequence numbers between 1 and `added` a listener that received `sequences` missed.
func gaps(in sequences: [UInt64], added: UInt64) -> UInt64 {
    var missing: UInt64 = 0
    var expected: UInt64 = 1
    for sequence in sequences {
        missing += sequence - expected
        expected = sequence + 1
    }
    return missing + (added + 1 - expected)
}
