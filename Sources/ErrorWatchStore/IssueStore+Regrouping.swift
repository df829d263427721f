import ErrorStreaming
import Foundation
import GRDB

/// Keying the stored issues again when the way fingerprints are made changes (docs/store.md, "Migrations and
/// fingerprints"): each issue keyed by a template is given the fingerprint its newest kept occurrence makes today;
/// issues that now share one are merged; every fingerprint that changed stays findable through `issue_alias`.
extension IssueStore {
    /// Re-keys every issue under ``Fingerprint/make(typeName:code:source:logMessage:message:)``, in the migration's
    /// transaction, and records `scheme`.
    static func regroup(_ db: Database, scheme: String) throws {
        try db.execute(
            sql: """
                CREATE TABLE issue_alias (
                    fingerprint TEXT PRIMARY KEY,
                    issue_id INTEGER NOT NULL REFERENCES issue (id) ON DELETE CASCADE
                ) WITHOUT ROWID;
                CREATE INDEX issue_alias_by_issue ON issue_alias (issue_id);
                """)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        let rows = try Row.fetchAll(db, sql: "SELECT id, fingerprint, qualified_type, code FROM issue ORDER BY id")
        for row in rows {
            let id: Int64 = row["id"]
            let old: String = row["fingerprint"]
            let type: String = row["qualified_type"]
            let code: String = row["code"]
            // A producer's own key, or this process's `TYPE#CODE`, stays as it is.
            guard Fingerprint.isTemplateMade(old, typeName: type, code: code) else { continue }
            guard
                let body = try String.fetchOne(
                    db, sql: "SELECT body FROM occurrence WHERE issue_id = ? ORDER BY timestamp DESC, id DESC LIMIT 1",
                    arguments: [id]),
                let occurrence = try? decoder.decode(StoredOccurrence.self, from: Data(body.utf8))
            else { continue }
            // Stores before v3 wrote the service, or `remote`, where the producer named no component.
            let source = occurrence.source.flatMap { $0 == "remote" || $0 == occurrence.service ? nil : $0 }
            let new = Fingerprint.make(
                typeName: type, code: code.isEmpty ? nil : code, source: source, logMessage: occurrence.logMessage,
                message: occurrence.message)
            guard new != old else { continue }
            if let kept = try Int64.fetchOne(db, sql: "SELECT id FROM issue WHERE fingerprint = ?", arguments: [new]) {
                try merge(id, into: kept, db)
                try alias(old, to: kept, db)
            } else {
                try db.execute(sql: "UPDATE issue SET fingerprint = ? WHERE id = ?", arguments: [new, id])
                try alias(old, to: id, db)
            }
        }
        try db.execute(
            sql: "UPDATE store_meta SET value = ? WHERE key = 'fingerprint_scheme'", arguments: [scheme])
    }

    /// Records that `fingerprint` now names issue `id`.
    private static func alias(_ fingerprint: String, to id: Int64, _ db: Database) throws {
        try db.execute(
            sql: "INSERT OR REPLACE INTO issue_alias (fingerprint, issue_id) VALUES (?, ?)", arguments: [fingerprint, id])
    }

    /// Folds issue `dropped` into `kept`: counts added, first and last seen widened, the words, category and
    /// severity of the one seen last, services and environments joined, hourly and per-version counts added,
    /// occurrences, history and aliases moved, the triage of the one changed last; then `dropped` is deleted.
    static func merge(_ dropped: Int64, into kept: Int64, _ db: Database) throws {
        guard let a = try Row.fetchOne(db, sql: "SELECT * FROM issue WHERE id = ?", arguments: [kept]),
            let b = try Row.fetchOne(db, sql: "SELECT * FROM issue WHERE id = ?", arguments: [dropped])
        else { return }
        let later = (b["last_seen"] as Double) > (a["last_seen"] as Double) ? b : a
        let changedA = (a["status_changed_at"] as Double?) ?? -Double.infinity
        let changedB = (b["status_changed_at"] as Double?) ?? -Double.infinity
        let triage = changedB > changedA ? b : a
        var services = decodeList(a["services"])
        for name in decodeList(b["services"]) where services.count < 16 && !services.contains(name) {
            services.append(name)
        }
        var environments = decodeList(a["environments"])
        for name in decodeList(b["environments"]) where environments.count < 16 && !environments.contains(name) {
            environments.append(name)
        }
        try db.execute(
            sql: """
                UPDATE issue SET count = count + ?, user_count = user_count + ?,
                    first_seen = min(first_seen, ?), last_seen = max(last_seen, ?),
                    title = ?, category = ?, severity = ?, services = ?, environments = ?,
                    status = ?, in_next_release = ?, resolved_through = ?, status_changed_at = ?, ignored_until = ?,
                    ignored_until_count = ?, opened = max(opened, ?), change_seq = max(change_seq, ?)
                WHERE id = ?
                """,
            arguments: [
                b["count"] as Int64, b["user_count"] as Int64, b["first_seen"] as Double, b["last_seen"] as Double,
                later["title"] as String, later["category"] as String, later["severity"] as String,
                encodeList(services), encodeList(environments), triage["status"] as String,
                triage["in_next_release"] as Int64, triage["resolved_through"] as String?,
                triage["status_changed_at"] as Double?, triage["ignored_until"] as Double?,
                triage["ignored_until_count"] as Int64?, b["opened"] as Int64, b["change_seq"] as Int64, kept,
            ])
        try db.execute(
            sql: """
                INSERT INTO issue_hour (issue_id, hour, count) SELECT ?, hour, count FROM issue_hour WHERE issue_id = ?
                    ON CONFLICT (issue_id, hour) DO UPDATE SET count = count + excluded.count
                """,
            arguments: [kept, dropped])
        try db.execute(
            sql: """
                INSERT INTO issue_version (issue_id, version, first_seen, count)
                    SELECT ?, version, first_seen, count FROM issue_version WHERE issue_id = ?
                    ON CONFLICT (issue_id, version) DO UPDATE SET count = count + excluded.count,
                        first_seen = min(first_seen, excluded.first_seen)
                """,
            arguments: [kept, dropped])
        try db.execute(sql: "UPDATE occurrence SET issue_id = ? WHERE issue_id = ?", arguments: [kept, dropped])
        // One first occurrence: the earliest; the other becomes its minute's.
        try db.execute(
            sql: """
                UPDATE occurrence SET kind = 'minute' WHERE issue_id = ? AND kind = 'first' AND id != (
                    SELECT id FROM occurrence WHERE issue_id = ? AND kind = 'first' ORDER BY timestamp, id LIMIT 1)
                """,
            arguments: [kept, kept])
        try db.execute(sql: "UPDATE triage_history SET issue_id = ? WHERE issue_id = ?", arguments: [kept, dropped])
        try db.execute(sql: "UPDATE issue_alias SET issue_id = ? WHERE issue_id = ?", arguments: [kept, dropped])
        // Migrations run with foreign keys off (checked at the end): the children go explicitly, not by cascade.
        try db.execute(sql: "DELETE FROM issue_hour WHERE issue_id = ?", arguments: [dropped])
        try db.execute(sql: "DELETE FROM issue_version WHERE issue_id = ?", arguments: [dropped])
        try db.execute(sql: "DELETE FROM issue WHERE id = ?", arguments: [dropped])
    }
}
