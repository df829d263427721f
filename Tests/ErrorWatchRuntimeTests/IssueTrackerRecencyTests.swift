import ErrorStreaming
import Foundation
import Testing

@testable import ErrorWatchRuntime

/// Issue 35: an issue counted again right after itself is not touched again (a log read from its start counts long
/// runs of one issue); which issue is forgotten when the tracker is full must not change for it.
struct IssueTrackerRecencyTests {
    static let t0 = Date(timeIntervalSince1970: 1_795_000_000)

    /// An error of type `type` (its own issue), the `sequence`th added, a second after the one before.
    static func event(_ type: String, _ sequence: UInt64) -> ErrorEvent {
        let error = RemoteError(typeName: type, message: "order failed", provenance: Provenance(time: t0))
        return ErrorEvent(error: error, sequence: sequence, timestamp: t0.addingTimeInterval(Double(sequence)))
    }

    /// Counts `types` in order into a tracker of `capacity` and returns the types of the issues it forgot.
    static func forgotten(counting types: [String], capacity: Int) -> [String] {
        let tracker = IssueTracker(capacity: capacity)
        for (index, type) in types.enumerated() { tracker.count(event(type, UInt64(index + 1))) }
        let fingerprints = Dictionary(uniqueKeysWithValues: Set(types).map { (event($0, 0).fingerprintForTest, $0) })
        return tracker.sample(at: t0.addingTimeInterval(3_600)).evicted.map { fingerprints[$0] ?? $0 }
    }

    @Test func aRunOfOneIssueKeepsItTheMostRecent() {
        // A, then B, then A again in a run: B is the least recently counted when C arrives.
        #expect(Self.forgotten(counting: ["A", "A", "A", "B", "A", "A", "C"], capacity: 2) == ["B"])
    }

    @Test func theIssueBeforeARunIsForgottenFirst() {
        // A, then a run of B: A is the least recently counted, however long B's run.
        #expect(Self.forgotten(counting: ["A"] + Array(repeating: "B", count: 1_000) + ["C"], capacity: 2) == ["A"])
    }

    @Test func runsCountEveryError() {
        let tracker = IssueTracker(capacity: 4)
        let types = ["A", "A", "B", "B", "B", "A"]
        for (index, type) in types.enumerated() { tracker.count(Self.event(type, UInt64(index + 1))) }
        let counts = Dictionary(
            uniqueKeysWithValues: tracker.sample(at: Self.t0.addingTimeInterval(60)).changed.map {
                ($0.typeName, $0.count)
            })
        #expect(counts == ["A": 3, "B": 3])
    }
}

extension ErrorEvent {
    /// The fingerprint its issue is tracked by.
    fileprivate var fingerprintForTest: String { ErrorFacts(self).fingerprint }
}
