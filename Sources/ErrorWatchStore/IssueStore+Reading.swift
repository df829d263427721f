import ErrorStreaming
import ErrorWatchUI
import Foundation
import GRDB

extension IssueStore {
    /// The issues written after sequence `seq` (by any process), most recently seen first, at most `limit`, with
    /// the store's sequence number they are current at. `issues(changedAfter: 0)` reads them all.
    public func issues(changedAfter seq: Int64, limit: Int = 10_000) throws(IssueStoreError)
        -> (sequence: Int64, issues: [StoredIssue])
    {
        try run {
            try pool.read { db in
                let now = try Int64.fetchOne(db, sql: "SELECT seq FROM store_clock WHERE id = 1") ?? 0
                let rows = try Row.fetchAll(
                    db, sql: "SELECT * FROM issue WHERE change_seq > ? ORDER BY last_seen DESC LIMIT ?",
                    arguments: [seq, limit])
                return (now, try rows.map { try Self.issue(from: $0, db) })
            }
        }
    }

    /// One issue by id, with its latest occurrences (newest first) and triage history.
    public func issue(id: Int64, occurrences: Int = IssueStore.latestKept) throws(IssueStoreError) -> StoredIssue {
        let found = try run {
            try pool.read { db -> StoredIssue? in
                guard let row = try Row.fetchOne(db, sql: "SELECT * FROM issue WHERE id = ?", arguments: [id])
                else { return nil }
                var issue = try Self.issue(from: row, db)
                issue.occurrences = try Self.occurrences(of: id, limit: occurrences, db)
                issue.history = try Row.fetchAll(
                    db, sql: "SELECT at, action, actor FROM triage_history WHERE issue_id = ? ORDER BY id",
                    arguments: [id]
                ).map { (Date(timeIntervalSince1970: $0["at"]), $0["action"], $0["actor"]) }
                return issue
            }
        }
        guard let found else { throw IssueStoreError(.notFound, "no issue \(id) in \(path)") }
        return found
    }

    /// The latest occurrences of the issue with `fingerprint` (or that an earlier scheme's fingerprint names), newest
    /// first.
    public func occurrences(fingerprint: String, limit: Int = IssueStore.latestKept) throws(IssueStoreError)
        -> [StoredOccurrence]
    {
        try run {
            try pool.read { db in
                // A fingerprint made by an earlier scheme names its issue through `issue_alias`.
                guard
                    let id = try Int64.fetchOne(
                        db,
                        sql: """
                            SELECT id FROM issue WHERE fingerprint = ?
                            UNION ALL SELECT issue_id FROM issue_alias WHERE fingerprint = ? LIMIT 1
                            """,
                        arguments: [fingerprint, fingerprint])
                else { return [] }
                return try Self.occurrences(of: id, limit: limit, db)
            }
        }
    }

    /// Occurrences per hour of the issue with `id`, oldest first, for the last `days` days before `now`.
    public func hourlyCounts(id: Int64, days: Int = 30, now: Date) throws(IssueStoreError) -> [(hour: Date, count: Int)]
    {
        let from = Int(now.timeIntervalSince1970 / 3_600) - days * 24
        return try run {
            try pool.read { db in
                try Row.fetchAll(
                    db, sql: "SELECT hour, count FROM issue_hour WHERE issue_id = ? AND hour > ? ORDER BY hour",
                    arguments: [id, from]
                ).map { (Date(timeIntervalSince1970: Double(($0["hour"] as Int) * 3_600)), $0["count"]) }
            }
        }
    }

    static func occurrences(of id: Int64, limit: Int, _ db: Database) throws -> [StoredOccurrence] {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return try String.fetchAll(
            db, sql: "SELECT body FROM occurrence WHERE issue_id = ? ORDER BY timestamp DESC, id DESC LIMIT ?",
            arguments: [id, limit]
        ).compactMap { try? decoder.decode(StoredOccurrence.self, from: Data($0.utf8)) }
    }

    /// An issue row as a ``StoredIssue`` (without occurrences or history).
    static func issue(from row: Row, _ db: Database) throws -> StoredIssue {
        let id: Int64 = row["id"]
        let codeText: String = row["code"]
        let severityName: String = row["severity"]
        let categoryName: String = row["category"]
        // The code is kept as shown: a local error's `N-503` reads back as its ErrorCode; anything else (a producer's
        // verbatim `L-042`, or empty when it sent none) stays the producer's text.
        let parsed = ErrorCode(parsing: codeText)
        var record = IssueRecord(
            fingerprint: row["fingerprint"], typeName: row["type_name"], qualifiedTypeName: row["qualified_type"],
            code: parsed ?? ErrorCode("X", 0),
            // Empty for an issue nobody classified; the store writes the rest from the same enum.
            category: ErrorCategory(rawValue: categoryName),
            severity: ErrorSeverity(name: severityName) ?? .error, count: row["count"], userCount: row["user_count"],
            services: decodeList(row["services"]), firstSeen: Date(timeIntervalSince1970: row["first_seen"]),
            lastSeen: Date(timeIntervalSince1970: row["last_seen"]), codeText: parsed?.description == codeText ? nil : codeText)
        record.environments = decodeList(row["environments"])
        record.storeID = id
        record.triage = IssueTriage(
            status: IssueStatus(rawValue: row["status"]) ?? .unresolved, inNextRelease: row["in_next_release"],
            resolvedThrough: row["resolved_through"],
            changedAt: (row["status_changed_at"] as Double?).map(Date.init(timeIntervalSince1970:)),
            ignoredUntil: (row["ignored_until"] as Double?).map(Date.init(timeIntervalSince1970:)),
            ignoredUntilCount: row["ignored_until_count"], opened: row["opened"])
        record.versions = try Row.fetchAll(
            db,
            sql: "SELECT version, first_seen, count FROM issue_version WHERE issue_id = ? ORDER BY first_seen LIMIT ?",
            arguments: [id, IssueRecord.versionLimit]
        ).map {
            IssueVersion(
                version: $0["version"], firstSeen: Date(timeIntervalSince1970: $0["first_seen"]), count: $0["count"])
        }
        // The title is the type and the latest occurrence's summary (StoreWriter): the row shows those words
        // before the issue occurs again in this process.
        let title: String = row["title"]
        let prefix = record.typeName + ": "
        if title.hasPrefix(prefix) { record.storedSummary = String(title.dropFirst(prefix.count)) }
        return StoredIssue(id: id, record: record, title: title)
    }
}
