import ErrorStreaming
import ErrorWatchUI
import Foundation
import GRDB

extension IssueStore {
    /// What a write did beyond adding: whether it pruned to stay under the cap.
    public struct WriteOutcome: Sendable, Hashable {
        /// Whether old occurrences or issues were removed to stay under ``IssueStore/maxSize``.
        public var pruned: Bool
    }

    /// Writes `batch` in one transaction: counts are added to what the store has (so two dashboards on one file
    /// both count), first and last seen widen, occurrences are kept by rule (the first, one per minute, the latest
    /// ``latestKept``), triage decisions replace the stored ones and join the history. Then prunes if over the cap.
    ///
    /// A batch without file marks and with more than ``deltasPerTransaction`` issues (thousands of distinct errors
    /// in one interval, into a small store) is written in several transactions, pruning after each: a transaction's
    /// pages all go to the write-ahead log before any can be checkpointed, so one transaction of them all would take
    /// the log far past its share of `--store-max-size`. A batch with file marks stays one transaction, so a file's
    /// mark and the counts of its lines are written together or not at all.
    @discardableResult
    public func write(_ batch: StoreBatch) throws(IssueStoreError) -> WriteOutcome {
        guard !batch.isEmpty else { return WriteOutcome(pruned: false) }
        let size = batch.fileMarks.isEmpty ? deltasPerTransaction : max(1, batch.deltas.count)
        var pruned = false
        var start = 0
        repeat {
            let deltas = batch.deltas[start..<min(batch.deltas.count, start + size)]
            let marks = start + size >= batch.deltas.count ? batch.fileMarks : []
            try run {
                try pool.write { db in
                    let seq = try Self.advance(db)
                    for delta in deltas { try Self.write(delta, seq: seq, db) }
                    for mark in marks { try Self.write(mark, db) }
                }
            }
            pruned = try pruneIfNeeded() || pruned
            boundJournal()
            start += size
        } while start < batch.deltas.count
        return WriteOutcome(pruned: pruned)
    }

    /// How many issues one transaction writes at most when a batch may be split: about a sixteenth of the log's
    /// share in new pages (an issue new to the store takes 1–2 KiB with its occurrence and index entries), at
    /// least 16. 16 for a 1 MiB store; 4,096 at the default 256 MiB, which an interval's batch rarely reaches.
    var deltasPerTransaction: Int { max(16, Int(journalLimit / 16 / 1_024)) }

    /// Advances and returns the store's sequence number.
    static func advance(_ db: Database) throws -> Int64 {
        try db.execute(sql: "UPDATE store_clock SET seq = seq + 1 WHERE id = 1")
        return try Int64.fetchOne(db, sql: "SELECT seq FROM store_clock WHERE id = 1") ?? 0
    }

    private static func write(_ delta: IssueDelta, seq: Int64, _ db: Database) throws {
        let record = delta.record
        let first = delta.occurrences.first?.timestamp ?? record.firstSeen
        let last = delta.occurrences.last?.timestamp ?? record.lastSeen
        // The issue's row is updated when it exists and inserted only when it does not. (An upsert on this
        // AUTOINCREMENT key takes an id from the sequence even when it updates, so every write of a known issue
        // used one up: the sixth issue of a storm was numbered 93.)
        let firstSeen = min(first, record.firstSeen).timeIntervalSince1970
        let lastSeen = max(last, record.lastSeen).timeIntervalSince1970
        // An unclassified issue's category is stored empty, as its code when the producer sent none.
        let category = record.category?.rawValue ?? ""
        let updated = try Row.fetchOne(
            db.cachedStatement(
                sql: """
                    UPDATE issue SET
                        count = count + :count,
                        user_count = user_count + :userCount,
                        first_seen = min(first_seen, :firstSeen),
                        title = CASE WHEN :lastSeen >= last_seen THEN :title ELSE title END,
                        category = CASE WHEN :lastSeen >= last_seen THEN :category ELSE category END,
                        severity = CASE WHEN :lastSeen >= last_seen THEN :severity ELSE severity END,
                        last_seen = max(last_seen, :lastSeen),
                        change_seq = :seq
                    WHERE fingerprint = :fingerprint
                    RETURNING id, services, environments
                    """),
            arguments: [
                "count": delta.count, "userCount": delta.userCount, "firstSeen": firstSeen, "lastSeen": lastSeen,
                "title": delta.title, "category": category, "severity": record.severity.description, "seq": seq,
                "fingerprint": record.fingerprint,
            ])
        let row =
            try updated
            ?? Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        INSERT INTO issue (fingerprint, title, type_name, qualified_type, code, category, severity,
                            first_seen, last_seen, count, user_count, change_seq)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        RETURNING id, services, environments
                        """),
                arguments: [
                    record.fingerprint, delta.title, record.typeName, record.qualifiedTypeName, record.shownCode,
                    category, record.severity.description, firstSeen, lastSeen, delta.count, delta.userCount, seq,
                ])
        guard let row else { return }
        let id: Int64 = row["id"]
        // Services and environments: the stored list, then any new ones, in order of first appearance.
        let services = merged(decodeList(row["services"]), delta.record.services, limit: 16)
        let environments = merged(decodeList(row["environments"]), delta.environments, limit: 16)
        if services != decodeList(row["services"]) || environments != decodeList(row["environments"]) {
            try db.cachedStatement(
                sql: "UPDATE issue SET services = ?, environments = ? WHERE id = ?"
            ).execute(
                arguments: [encodeList(services), encodeList(environments), id])
        }
        for (hour, count) in delta.hours {
            try db.cachedStatement(
                sql: """
                    INSERT INTO issue_hour (issue_id, hour, count) VALUES (?, ?, ?)
                    ON CONFLICT (issue_id, hour) DO UPDATE SET count = count + excluded.count
                    """
            ).execute(
                arguments: [id, hour, count])
        }
        for (version, seen) in delta.versions {
            try db.cachedStatement(
                sql: """
                    INSERT INTO issue_version (issue_id, version, first_seen, count) VALUES (?, ?, ?, ?)
                    ON CONFLICT (issue_id, version) DO UPDATE SET count = count + excluded.count,
                        first_seen = min(first_seen, excluded.first_seen)
                    """
            ).execute(
                arguments: [id, version, seen.firstSeen.timeIntervalSince1970, seen.count])
        }
        if !delta.occurrences.isEmpty { try insert(delta.occurrences, issue: id, db) }
        if let (triage, action, actor) = delta.triage {
            try store(triage, issue: id, action: action, actor: actor, at: triage.changedAt ?? last, db)
        }
    }

    private static func insert(_ occurrences: [StoredOccurrence], issue id: Int64, _ db: Database) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        // The issue's first occurrence by its own time: one that happened before the kept first takes its place
        // (files read together, producers whose lines arrive late), and the old first becomes its minute's.
        var first = try Row.fetchOne(
            db.cachedStatement(
                sql: "SELECT id, timestamp FROM occurrence WHERE issue_id = ? AND kind = 'first' LIMIT 1"),
            arguments: [id]
        ).map { (id: $0["id"] as Int64, timestamp: $0["timestamp"] as Double) }
        for occurrence in occurrences {
            let minute = Int((occurrence.timestamp.timeIntervalSince1970 / 60).rounded(.down))
            let time = occurrence.timestamp.timeIntervalSince1970
            let kind: String
            if first == nil || time < first!.timestamp {
                if let previous = first {
                    try db.cachedStatement(sql: "UPDATE occurrence SET kind = 'minute' WHERE id = ?").execute(
                        arguments: [previous.id])
                }
                kind = "first"
            } else if try Bool.fetchOne(
                db.cachedStatement(
                    sql:
                        "SELECT EXISTS (SELECT 1 FROM occurrence WHERE issue_id = ? AND minute = ? AND kind != 'latest')"
                ),
                arguments: [id, minute]) == false
            {
                kind = "minute"
            } else {
                kind = "latest"
            }
            let body = String(decoding: try encoder.encode(occurrence), as: UTF8.self)
            try db.cachedStatement(
                sql: "INSERT INTO occurrence (issue_id, kind, minute, timestamp, body) VALUES (?, ?, ?, ?, ?)"
            ).execute(
                arguments: [id, kind, minute, time, body])
            if kind == "first" { first = (db.lastInsertedRowID, time) }
        }
        // The latest by their own times, not by when they were written.
        try db.cachedStatement(
            sql: """
                DELETE FROM occurrence WHERE issue_id = ? AND kind = 'latest' AND id NOT IN (
                    SELECT id FROM occurrence WHERE issue_id = ? AND kind = 'latest'
                    ORDER BY timestamp DESC, id DESC LIMIT ?)
                """
        ).execute(
            arguments: [id, id, latestKept])
    }

    /// Records how far a file is counted (the latest reading's mark replaces an earlier one).
    private static func write(_ mark: FileMark, _ db: Database) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO file_read (device, inode, prefix_length, prefix_checksum, unit, path, counted_through,
                    counted_beyond, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (device, inode, prefix_length, prefix_checksum, unit) DO UPDATE SET
                    path = excluded.path, counted_through = excluded.counted_through,
                    counted_beyond = excluded.counted_beyond, updated_at = excluded.updated_at
                """
        ).execute(
            arguments: [
                Int64(bitPattern: mark.identity.device), Int64(bitPattern: mark.identity.inode),
                mark.identity.prefixLength, Int64(mark.identity.prefixChecksum), mark.unit.rawValue, mark.path,
                mark.offset, encodeList(mark.beyond.map(String.init)), Date().timeIntervalSince1970,
            ])
    }

    /// What the store counted of the files with `device` and `inode` (one per content it met there): the reader
    /// checks each against the file's first bytes.
    public func fileMarks(device: UInt64, inode: UInt64) throws(IssueStoreError) -> [FileMark] {
        try run {
            try pool.read { db in
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT prefix_length, prefix_checksum, unit, path, counted_through, counted_beyond
                        FROM file_read WHERE device = ? AND inode = ? ORDER BY updated_at DESC LIMIT 16
                        """,
                    arguments: [Int64(bitPattern: device), Int64(bitPattern: inode)]
                ).compactMap { row in
                    guard let unit = FileMark.Unit(rawValue: row["unit"]) else { return nil }
                    return FileMark(
                        identity: FileIdentity(
                            device: device, inode: inode, prefixLength: row["prefix_length"],
                            prefixChecksum: UInt32(truncatingIfNeeded: row["prefix_checksum"] as Int64)),
                        path: row["path"], offset: row["counted_through"], unit: unit,
                        beyond: Self.decodeList(row["counted_beyond"]).compactMap { Int64($0) })
                }
            }
        }
    }

    /// Replaces issue `id`'s triage and adds a history line.
    static func store(
        _ triage: IssueTriage, issue id: Int64, action: String, actor: String, at date: Date, _ db: Database
    ) throws {
        try db.cachedStatement(
            sql: """
                UPDATE issue SET status = ?, in_next_release = ?, resolved_through = ?, status_changed_at = ?,
                    ignored_until = ?, ignored_until_count = ?, opened = ? WHERE id = ?
                """
        ).execute(
            arguments: [
                triage.status.rawValue, triage.inNextRelease, triage.resolvedThrough,
                triage.changedAt?.timeIntervalSince1970, triage.ignoredUntil?.timeIntervalSince1970,
                triage.ignoredUntilCount, triage.opened, id,
            ])
        guard action != IssueTriageAction.markOpened.summary else { return }
        try db.cachedStatement(
            sql: "INSERT INTO triage_history (issue_id, at, status, action, actor) VALUES (?, ?, ?, ?, ?)"
        ).execute(
            arguments: [id, date.timeIntervalSince1970, triage.status.rawValue, action, actor])
    }

    static func decodeList(_ text: String?) -> [String] {
        guard let data = text?.data(using: .utf8) else { return [] }
        return (try? JSONDecoder().decode([String].self, from: data)) ?? []
    }

    static func encodeList(_ list: [String]) -> String {
        (try? String(decoding: JSONEncoder().encode(list), as: UTF8.self)) ?? "[]"
    }

    private static func merged(_ stored: [String], _ more: [String], limit: Int) -> [String] {
        var list = stored
        for item in more where list.count < limit && !list.contains(item) { list.append(item) }
        return list
    }
}
