import Foundation
import Synchronization
import Testing

@testable import ErrorWatchIngest
@testable import ErrorWatchWire

/// Issue 26's attacks on the OTLP/HTTP receiver, in-process with small limits.
@Suite(.timeLimit(.minutes(5)))
struct OTLPHostileTests {
    @Test func oneRequestNamingThousandsOfResourcesIsOneStatusUpdateWithinTheTable() throws {
        let calls = Mutex<[(changed: Int, forgotten: Int)]>([])
        let registry = OTLPSourceRegistry(capacity: 100) { changed, forgotten in
            calls.withLock { $0.append((changed.count, forgotten.count)) }
        }
        var batch = OTLPMappedBatch()
        batch.groups = (0..<5_000).map { index in
            let identity = OTLPResourceIdentity(OTLPFixtures.resource(instance: "i-\(index)"))
            return OTLPMappedBatch.Group(identity: identity, records: 1)
        }
        let outcome = OTLPExchange.Outcome(response: OTLPExchange.status(.ok, ""), batch: batch)
        let rows = registry.record(outcome, peer: "127.0.0.1:1", host: "127.0.0.1", at: Date())
        #expect(rows.count == 5_000)
        let made = calls.withLock { $0 }
        #expect(made.count == 1)
        #expect(
            made.first?.changed == 100 && made.first?.forgotten == 0, "rows forgotten within the request are not news")
        #expect(registry.snapshot.map(\.instanceID) == (4_900..<5_000).map { "i-\($0)" }.sorted())
        // The next request forgets the least recently heard, and says so.
        batch.groups = [batch.groups[0]]
        registry.record(
            OTLPExchange.Outcome(response: OTLPExchange.status(.ok, ""), batch: batch), peer: "p", host: "h", at: Date()
        )
        #expect(calls.withLock { $0.last?.changed == 1 && $0.last?.forgotten == 1 })
    }

    @Test func theSourceTableForgetsTheLeastRecentlyHeard() {
        var table = OTLPSourceTable(capacity: 3)
        var forgotten: [String] = []
        for key in ["a", "b", "c", "a", "d", "e"] {
            table.touch(key, peer: "p", forgetting: &forgotten) { $0.requests += 1 }
        }
        #expect(forgotten == ["b", "c"])
        #expect(Set(table.rows.keys) == ["a", "d", "e"])
        #expect(table.rows["a"]?.requests == 2)
    }
}
