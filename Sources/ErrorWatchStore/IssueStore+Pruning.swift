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

    /// How many bytes the file takes, free pages included (as the log will leave it once checkpointed).
    static func fileSize(_ db: Database) throws -> Int64 {
        let pages = try Int64.fetchOne(db, sql: "PRAGMA page_count") ?? 0
        let size = try Int64.fetchOne(db, sql: "PRAGMA page_size") ?? 4_096
        return pages * size
    }

    /// The write-ahead log's size on disk (0 when there is none).
    public func journalSize() -> Int64 {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path + "-wal")
        return (attributes?[.size] as? NSNumber)?.int64Value ?? 0
    }

    /// Over ``dataLimit`` (the file's pages, free ones included), removes the oldest occurrences (an issue's first
    /// one last), then the issues seen longest ago, until the data takes at most 90% of it, and gives the free
    /// pages back to the disk. Returns whether it removed anything.
    func pruneIfNeeded() throws(IssueStoreError) -> Bool {
        try run {
            let limit = dataLimit
            guard try pool.read({ try Self.fileSize($0) }) > limit else { return false }
            let target = limit / 10 * 9
            guard try pool.read({ try Self.dataSize($0) }) > target else {
                // Only free pages (occurrences replaced by newer ones): give them back, nothing is removed.
                giveFreePagesBack()
                return false
            }
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
                // Issue summaries last: the ones seen longest ago, as many at a time as the excess takes at the
                // average issue's size (thousands of issues over a small cap are cut in a few statements, not in
                // fifties).
                while case let size = try Self.dataSize(db), size > target {
                    let issues = try Int64.fetchOne(db, sql: "SELECT count(*) FROM issue") ?? 0
                    guard issues > 0 else { break }
                    let count = max(50, (size - target) / max(1, size / issues) + 1)
                    try db.execute(
                        sql: "DELETE FROM issue WHERE id IN (SELECT id FROM issue ORDER BY last_seen LIMIT ?)",
                        arguments: [count])
                    if db.changesCount == 0 { break }
                }
            }
            giveFreePagesBack()
            return true
        }
    }

    /// Moves the free pages to the end of the file and cuts them off. The file on disk shrinks only once the log
    /// holding the cut is checkpointed, so it is checkpointed and truncated at once: until then the old file and
    /// the log together could hold more than the cap.
    private func giveFreePagesBack() {
        _ = try? pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA incremental_vacuum")
            try db.checkpoint(.truncate)
        }
    }

    /// Keeps the write-ahead log within ``journalLimit``: when it is over (readers kept SQLite's own checkpoints
    /// from starting it again), checkpoints it and truncates it to nothing. A checkpoint that a reader still blocks
    /// (`SQLITE_BUSY` once the busy timeout passes) is tried again after the next write; nothing is lost meanwhile,
    /// the log is only larger.
    func boundJournal() {
        guard journalSize() > journalLimit else { return }
        _ = try? pool.writeWithoutTransaction { try $0.checkpoint(.truncate) }
    }
}
