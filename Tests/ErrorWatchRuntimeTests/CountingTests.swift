import ErrorStreaming
import ErrorStreamingTesting
import ErrorWatchUI
import Foundation
import Testing

@testable import ErrorWatchRuntime

struct RecentTableTests {
    @Test func aFullTableForgetsItsOldestEntriesNotAllOfThem() {
        var table = RecentTable<Int, String>(capacity: 16)
        for key in 0..<16 { table[key] = "v\(key)" }
        #expect(table.count == 16)
        table[16] = "v16"
        // The oldest eighth (two) went; the rest, and the new key, stay.
        #expect(table.count == 15)
        #expect(table[0] == nil && table[1] == nil)
        #expect(table[2] == "v2" && table[15] == "v15" && table[16] == "v16")
        // Updating a known key never evicts.
        table[5] = "five"
        #expect(table.count == 15 && table[5] == "five")
        // A value made once is the one returned after.
        var made = 0
        for _ in 0..<3 { _ = table.value(for: 99) { made += 1; return "made" } }
        #expect(made == 1 && table[99] == "made")
    }
}

struct TopKCountsTests {
    @Test func theTableAndOtherAlwaysAddUpToTheTotal() {
        var counts = TopKCounts<Int>(capacity: 10)
        var exact: [Int: Int] = [:]
        var seed: UInt64 = 42
        for _ in 0..<50_000 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            // A few names are frequent, most are seen once or twice.
            let name = seed >> 60 < 8 ? Int(seed >> 61) : Int(seed >> 33) % 20_000 + 100
            counts.add(name)
            exact[name, default: 0] += 1
        }
        #expect(counts.total == 50_000)
        #expect(counts.top.count == 10)
        #expect(counts.top.reduce(0) { $0 + $1.count } + counts.other == counts.total)
        // Every listed count is exact since the name was listed, so never more than its true count...
        for entry in counts.top { #expect(entry.count <= exact[entry.name]!) }
        // ...and the frequent names are the ones listed, with their true counts (they were never pushed out).
        let frequent = Set(exact.filter { $0.value > 1_000 }.keys)
        #expect(!frequent.isEmpty)
        for name in frequent {
            #expect(counts.top.first { $0.name == name }?.count == exact[name])
        }
    }

    @Test func theSmallestIsTheOneLeftBehindAfterManyRaises() {
        var heap = IndexedMinHeap<String>()
        heap.insert(.init(name: "a", count: 1, order: 0))
        heap.insert(.init(name: "b", count: 2, order: 1))
        heap.insert(.init(name: "c", count: 3, order: 2))
        // Raising "a" many times leaves stale keys behind; none of them is ever taken for the minimum.
        var raised = 0
        for _ in 0..<1_000 where heap.increase("a", by: 1) { raised += 1 }
        #expect(raised == 1_000)
        #expect(heap.min?.name == "b")
        #expect(heap.sum == 1_001 + 2 + 3)
        heap.remove("b")
        #expect(heap.popMin()?.name == "c")
        #expect(heap.popMin()?.count == 1_001)
        #expect(heap.popMin() == nil && heap.count == 0 && heap.sum == 0)
        let raisedGone = heap.increase("a", by: 1)
        #expect(!raisedGone)
    }

    @Test func aTypeThatBecomesFrequentLateIsListed() {
        var counts = TopKCounts<String>(capacity: 3)
        for name in ["a", "b", "c"] { for _ in 0..<5 { counts.add(name) } }
        for n in 0..<1_000 { counts.add("noise\(n)") }  // each once: never displaces a, b, c
        #expect(Set(counts.top.map(\.name)) == ["a", "b", "c"])
        for _ in 0..<10 { counts.add("late") }
        #expect(counts.top.contains { $0.name == "late" && $0.count == 10 })
        #expect(counts.top.reduce(0) { $0 + $1.count } + counts.other == counts.total)
        #expect(counts.total == 15 + 1_000 + 10)
    }
}

struct ExactCountingTests {
    struct Distinct: ClassifiedError {
        var typeName: String
        var code: ErrorCode { ErrorCode("X", 0) }
        var category: ErrorCategory { .unrecoverable }
        var userMessage: String { "failed" }
        var technicalMessage: String { "failed" }
    }

    /// 200,000 distinct types: the total and the `other` row are exact the moment the last one is added, and the
    /// table stays at its thousand names.
    @Test func manyDistinctTypesAreCountedExactlyInBoundedTables() async {
        let clock = ManualClock()
        let runtime = DashboardRuntime(clock: ErasedClock(clock), startDate: Date(timeIntervalSince1970: 1_800_000_000))
        runtime.start()
        for n in 0..<200_000 { runtime.stream.add(Distinct(typeName: "Module.Type\(n)")) }
        for _ in 0..<3 { runtime.stream.add(Distinct(typeName: "Module.Type7")) }
        let snapshot = runtime.sampleMetrics()
        #expect(snapshot.totalErrors == 200_003)
        #expect(snapshot.errorsByType.count == ErrorCounter.typeTableCapacity)
        #expect(snapshot.errorsByType.reduce(0) { $0 + $1.count } + snapshot.otherTypeErrors == 200_003)
        #expect(snapshot.errorsByType.first { $0.name == "Type7" }?.count == 4)
        #expect(snapshot.errorsByCategory[.unrecoverable] == 200_003)
        runtime.stop()
    }
}
