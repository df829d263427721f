import ErrorStreaming
import GRDB

extension IssueStore {
    /// How the fingerprints this build keys issues on are made: a producer's own `fingerprint` when it sent one,
    /// else `<type>#<code>#<source>#<message template>` (``ErrorStreaming/Fingerprint``), and for this process's own
    /// errors their type and code. Recorded in `store_meta`; a change is a migration (`v3` made this one).
    public static let fingerprintScheme = Fingerprint.scheme

    /// The schema's migrations, in order. A migration is never edited once released; a change is a new one (a
    /// change of fingerprint composition included: `docs/store.md` says how).
    static var schemaMigrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: "PRAGMA application_id = \(applicationID)")
            try db.execute(
                sql: """
                    CREATE TABLE store_clock (id INTEGER PRIMARY KEY CHECK (id = 1), seq INTEGER NOT NULL);
                    INSERT INTO store_clock (id, seq) VALUES (1, 0);
                    CREATE TABLE store_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
                    INSERT INTO store_meta (key, value) VALUES ('fingerprint_scheme', 'type-code/1');
                    CREATE TABLE issue (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        fingerprint TEXT NOT NULL UNIQUE,
                        title TEXT NOT NULL,
                        type_name TEXT NOT NULL,
                        qualified_type TEXT NOT NULL,
                        code TEXT NOT NULL,
                        category TEXT NOT NULL,
                        severity TEXT NOT NULL,
                        services TEXT NOT NULL DEFAULT '[]',
                        environments TEXT NOT NULL DEFAULT '[]',
                        first_seen REAL NOT NULL,
                        last_seen REAL NOT NULL,
                        count INTEGER NOT NULL,
                        user_count INTEGER NOT NULL,
                        status TEXT NOT NULL DEFAULT 'unresolved',
                        in_next_release INTEGER NOT NULL DEFAULT 0,
                        resolved_through TEXT,
                        status_changed_at REAL,
                        ignored_until REAL,
                        ignored_until_count INTEGER,
                        opened INTEGER NOT NULL DEFAULT 0,
                        change_seq INTEGER NOT NULL
                    );
                    CREATE INDEX issue_by_change ON issue (change_seq);
                    CREATE INDEX issue_by_last_seen ON issue (last_seen);
                    CREATE TABLE issue_hour (
                        issue_id INTEGER NOT NULL REFERENCES issue (id) ON DELETE CASCADE,
                        hour INTEGER NOT NULL,
                        count INTEGER NOT NULL,
                        PRIMARY KEY (issue_id, hour)
                    ) WITHOUT ROWID;
                    CREATE TABLE issue_version (
                        issue_id INTEGER NOT NULL REFERENCES issue (id) ON DELETE CASCADE,
                        version TEXT NOT NULL,
                        first_seen REAL NOT NULL,
                        count INTEGER NOT NULL,
                        PRIMARY KEY (issue_id, version)
                    ) WITHOUT ROWID;
                    CREATE TABLE occurrence (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        issue_id INTEGER NOT NULL REFERENCES issue (id) ON DELETE CASCADE,
                        kind TEXT NOT NULL,
                        minute INTEGER NOT NULL,
                        timestamp REAL NOT NULL,
                        body TEXT NOT NULL
                    );
                    CREATE INDEX occurrence_by_issue ON occurrence (issue_id, kind, id);
                    CREATE TABLE triage_history (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        issue_id INTEGER NOT NULL REFERENCES issue (id) ON DELETE CASCADE,
                        at REAL NOT NULL,
                        status TEXT NOT NULL,
                        action TEXT NOT NULL,
                        actor TEXT NOT NULL
                    );
                    CREATE INDEX triage_history_by_issue ON triage_history (issue_id, id);
                    """)
        }
        // v1 named the scheme `type-code/1`, but the build that shipped it (issues 24 and 25 landed together)
        // already keyed remote errors on their message templates (`RemoteError.fingerprint`): every store ever
        // written holds that scheme, so it is renamed, with nothing to recompute.
        migrator.registerMigration("v2") { db in
            try db.execute(
                sql: "UPDATE store_meta SET value = ? WHERE key = 'fingerprint_scheme'",
                arguments: ["type-code-template/1"])
        }
        // Fingerprints gained the reporting component and a masking that reads hex ids (`q-12f76`), mixed ids and
        // short-prefixed numbers (`u640`) as variable: issues are keyed again, and those that now share a key are
        // merged (IssueStore+Regrouping.swift).
        // And files are remembered with how far they were counted, so reading one again counts only what is new.
        migrator.registerMigration("v3") { db in
            try regroup(db, scheme: Fingerprint.scheme)
            try db.execute(
                sql: """
                    CREATE TABLE file_read (
                        device INTEGER NOT NULL,
                        inode INTEGER NOT NULL,
                        prefix_length INTEGER NOT NULL,
                        prefix_checksum INTEGER NOT NULL,
                        unit TEXT NOT NULL,
                        path TEXT NOT NULL,
                        counted_through INTEGER NOT NULL,
                        counted_beyond TEXT NOT NULL DEFAULT '[]',
                        updated_at REAL NOT NULL,
                        PRIMARY KEY (device, inode, prefix_length, prefix_checksum, unit)
                    ) WITHOUT ROWID;
                    CREATE INDEX file_read_by_update ON file_read (updated_at);
                    """)
        }
        return migrator
    }
}
