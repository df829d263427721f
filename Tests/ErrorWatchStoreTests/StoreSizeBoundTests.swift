import ErrorStreaming
import Foundation
import Testing

@testable import ErrorWatchStore

/// `--store-max-size` bounds what the store takes on disk: the file and its write-ahead log together (issue 34,
/// item 6; a 1M store had ended as 6.1 MB, most of it log).
struct StoreSizeBoundTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    static func onDisk(_ path: String) -> Int64 {
        ["", "-wal"].reduce(Int64(0)) { total, suffix in
            let attributes = try? FileManager.default.attributesOfItem(atPath: path + suffix)
            return total + ((attributes?[.size] as? NSNumber)?.int64Value ?? 0)
        }
    }

    /// Many writes of large occurrences, each followed by the read-back the dashboard's writer does: after every
    /// one, the file and its log together stay within the cap, and every issue keeps its exact count.
    @Test func theFileAndItsLogStayWithinTheCap() throws {
        let path = scratchFolder() + "/store.sqlite"
        let cap: Int64 = 1_024 * 1_024
        let store = try IssueStore.open(at: path, maxSize: cap)
        #expect(store.journalLimit + store.dataLimit == cap)
        let long = String(repeating: "y", count: 3_000)
        var largest: Int64 = 0
        var changed: Int64 = 0
        for round in 0..<400 {
            let at = start.addingTimeInterval(Double(round) * 61)  // a new minute each round: every one is kept
            try store.write(
                StoreBatch(deltas: (0..<8).map { delta("W-\($0)", count: 1, at: at, message: long + "\(round)") }))
            changed = try store.issues(changedAfter: changed).sequence
            largest = max(largest, Self.onDisk(path))
        }
        #expect(largest <= cap, "largest on disk: \(largest) bytes")
        #expect(store.journalSize() <= store.journalLimit)
        let issues = try store.issues(changedAfter: 0).issues
        #expect(issues.count == 8)
        #expect(issues.allSatisfy { $0.record.count == 400 })
    }

    /// Thousands of issues new to a small store in one batch (5,000 distinct types in one interval, issue 34's
    /// report): the batch is written a few dozen issues per transaction, pruning after each, so the file and its log
    /// stay within the cap when it is done; the newest issues are kept with their exact counts.
    @Test func aBatchOfThousandsOfNewIssuesStaysWithinTheCap() throws {
        let path = scratchFolder() + "/store.sqlite"
        let cap: Int64 = 1_024 * 1_024
        let store = try IssueStore.open(at: path, maxSize: cap)
        let deltas = (0..<3_000).map { n in
            delta("T-\(n)", count: 2, at: start.addingTimeInterval(Double(n)), message: "type \(n) went wrong")
        }
        let outcome = try store.write(StoreBatch(deltas: deltas))
        #expect(outcome.pruned)
        #expect(Self.onDisk(path) <= cap, "on disk: \(Self.onDisk(path)) bytes")
        let read = try store.issues(changedAfter: 0)
        let kept = Set(read.issues.map(\.record.fingerprint))
        #expect(kept.count < 3_000)
        #expect(kept.contains("T-2999"))
        #expect(read.issues.allSatisfy { $0.record.count == 2 })
        // Split: more than one transaction advanced the store's sequence.
        #expect(read.sequence > 1)
    }

    /// A batch that carries a file's mark stays one transaction however many issues it holds, so the mark and the
    /// counts of its lines are written together.
    @Test func aBatchWithAFileMarkIsOneTransaction() throws {
        let store = try IssueStore.open(at: scratchFolder() + "/store.sqlite", maxSize: 1_024 * 1_024)
        let deltas = (0..<100).map { delta("M-\($0)", count: 1, at: start) }
        let mark = FileMark(
            identity: FileIdentity(device: 1, inode: 2, prefixLength: 0, prefixChecksum: 0), path: "/tmp/a.log",
            offset: 4_096)
        try store.write(StoreBatch(deltas: deltas, fileMarks: [mark]))
        #expect(try store.issues(changedAfter: 0).sequence == 1)
        #expect(try store.fileMarks(device: 1, inode: 2).map(\.offset) == [4_096])
    }
}
