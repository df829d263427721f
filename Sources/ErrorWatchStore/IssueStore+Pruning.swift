import Foundation
import GRDB

extension IssueStore {
    /// How many bytes the store's data takes: its pages in use (free pages not counted).
    public func dataSize() throws(IssueStoreError) -> Int64 {
        try run { try pool.read { try Self.dataSize($0) } }
    }

    static func dataSize(_ db: Database) throws -> Int64 {
        let pages = try Int64.fetchOne(db, sql: "PRAGMA page_count") ?? 0
        let free = try Int64.fetchOne(db, sql: "PRAGMA freelist_count") ?? 0
        let size = try Int64.fetchOne(db, sql: "PRAGMA page_size") ?? 4_096
        return (pages - free) * size
    }

    /// Over ``maxSize``, removes the oldest occurrences (an issue's first one last), then the issues seen longest
    /// ago, until the data takes at most 90% of the cap, and gives the space back to the disk. Returns whether it
    /// removed anything.
    func pruneIfNeeded() throws(IssueStoreError) -> Bool {
        try run {
            guard try pool.read({ try Self.dataSize($0) }) > maxSize else { return false }
            let target = maxSize / 10 * 9
            try pool.write { db in
                // Oldest occurrences first, in chunks; the first occurrence of each issue goes only when nothing
                // else is left.
                for kinds in ["kind != 'first'", "1"] {
                    while try Self.dataSize(db) > target {
                        try db.execute(
                            sql: """
                                DELETE FROM occurrence WHERE id IN (
                                    SELECT id FROM occurrence WHERE \(kinds) ORDER BY timestamp LIMIT 500)
                                """)
                        if db.changesCount == 0 { break }
                    }
                }
                // Files not read for 90 days are forgotten: reading one again counts it as new.
                try db.execute(
                    sql: "DELETE FROM file_read WHERE updated_at < ?",
                    arguments: [Date().timeIntervalSince1970 - 90 * 86_400])
                // Hours older than 30 days are past what the store promises.
                let cutoff = Int(Date().timeIntervalSince1970 / 3_600) - 30 * 24
                try db.execute(sql: "DELETE FROM issue_hour WHERE hour < ?", arguments: [cutoff])
                // Issue summaries last: the ones seen longest ago.
                while try Self.dataSize(db) > target {
                    try db.execute(
                        sql: "DELETE FROM issue WHERE id IN (SELECT id FROM issue ORDER BY last_seen LIMIT 50)")
                    if db.changesCount == 0 { break }
                }
            }
            try pool.writeWithoutTransaction { try $0.execute(sql: "PRAGMA incremental_vacuum") }
            return true
        }
    }
}
