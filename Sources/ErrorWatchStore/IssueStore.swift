import ErrorStreaming
import ErrorWatchUI
import Foundation
import GRDB

/// The embedded store: every issue the dashboard counted, its triage and history, counts per hour and per
/// version, and its latest occurrences in full, in one SQLite file in WAL mode (`docs/store.md` has the schema).
///
/// Several processes may open one file (two dashboards, `errorwatch issues`): SQLite's locks serialise the writes,
/// each write is one short transaction that adds its counts, and every write advances one sequence number that
/// readers poll (``sequence()``, ``issues(changedAfter:)``).
///
/// ```swift
/// let store = try IssueStore.open(at: "/tmp/store.sqlite")
/// try store.write(batch)                        // from a background thread, batched
/// let issues = try store.issues(changedAfter: 0).issues
/// ```
public final class IssueStore: Sendable {
    /// The file.
    public let path: String
    /// The most the store may take on disk, in bytes: the file and its write-ahead log together. The log gets
    /// ``journalLimit`` of it (checkpointed and truncated beyond), the data the rest; beyond that the oldest
    /// occurrences go, then the oldest issues.
    public let maxSize: Int64
    /// What happened when it was opened, for the user: a file moved aside, or `nil`.
    public let openingNotice: String?
    let pool: DatabasePool

    /// The store's mark in the file header (`PRAGMA application_id`, "EWST"), telling its files from others'.
    static let applicationID: Int32 = 0x4557_5354
    /// The default cap: 256 MiB.
    public static let defaultMaxSize: Int64 = 256 * 1_024 * 1_024
    /// How many of the latest occurrences are kept per issue, besides its first and one per minute.
    public static let latestKept = 20

    /// The part of ``maxSize`` the write-ahead log may take: a quarter, at least 64 KiB.
    public var journalLimit: Int64 { Self.journalLimit(for: maxSize) }
    /// The part of ``maxSize`` the data may take: the rest.
    public var dataLimit: Int64 { max(0, maxSize - journalLimit) }

    static func journalLimit(for maxSize: Int64) -> Int64 { max(64 * 1_024, maxSize / 4) }

    private init(path: String, maxSize: Int64, notice: String?, pool: DatabasePool) {
        self.path = path
        self.maxSize = maxSize
        self.openingNotice = notice
        self.pool = pool
    }

    /// `$XDG_STATE_HOME/errorwatch/store.sqlite`, or `~/.local/state/errorwatch/store.sqlite`.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return state + "/errorwatch/store.sqlite"
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return home + "/.local/state/errorwatch/store.sqlite"
    }

    /// Opens (or creates) the store at `path`. A file that is not a usable store (corrupt, another program's, a
    /// newer schema) is renamed `PATH.unusable-DATE` and a fresh store is created, and ``openingNotice`` says so;
    /// a folder or disk that refuses throws ``IssueStoreError/Kind/unavailable``.
    public static func open(at path: String, maxSize: Int64 = defaultMaxSize, now: Date = Date())
        throws(IssueStoreError)
        -> IssueStore
    {
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw IssueStoreError(.unavailable, "cannot create \(folder): \(Self.reason(error))")
            }
        }
        do {
            return try IssueStore(path: path, maxSize: maxSize, notice: nil, pool: openPool(path, maxSize: maxSize))
        } catch let unusable where unusable.kind == .unusableFile {
            let aside = path + ".unusable-" + Self.stamp(now)
            do {
                for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
                    try FileManager.default.moveItem(atPath: path + suffix, toPath: aside + suffix)
                }
            } catch {
                throw IssueStoreError(
                    .unavailable, "\(unusable.description), and cannot move it aside: \(Self.reason(error))")
            }
            let notice = "store \(path): \(unusable.description); moved to \(aside), started a fresh one"
            return try IssueStore(path: path, maxSize: maxSize, notice: notice, pool: openPool(path, maxSize: maxSize))
        }
    }

    /// Opens the pool, checks the file is ours and not newer, and migrates it.
    private static func openPool(_ path: String, maxSize: Int64) throws(IssueStoreError) -> DatabasePool {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        // The log is checkpointed once it holds half its share, and cut back to its share after a checkpoint
        // (SQLite otherwise keeps a log at its largest size): ``boundJournal()`` truncates it when readers kept it
        // from being reset.
        let journal = journalLimit(for: maxSize)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA journal_size_limit = \(journal)")
            try db.execute(sql: "PRAGMA wal_autocheckpoint = \(max(4, journal / 2 / 4_096))")
        }
        configuration.label = "errorwatch.store"
        do {
            let pool = try DatabasePool(path: path, configuration: configuration)
            let (application, tables) = try pool.read { db in
                (
                    try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0,
                    try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") ?? 0
                )
            }
            if tables > 0, application != applicationID {
                throw IssueStoreError(.unusableFile, "not an errorwatch store (another program's file)")
            }
            let migrator = schemaMigrator
            if try pool.read({ try migrator.hasBeenSuperseded($0) }) {
                throw IssueStoreError(.unusableFile, "written by a newer errorwatch (unknown schema)")
            }
            if tables == 0 {
                // Only an empty file takes this; it lets pruning give space back to the disk.
                try pool.writeWithoutTransaction { try $0.execute(sql: "PRAGMA auto_vacuum = INCREMENTAL") }
            }
            try migrator.migrate(pool)
            return pool
        } catch let error as IssueStoreError {
            throw error
        } catch let error as DatabaseError {
            switch error.resultCode {
            case .SQLITE_NOTADB, .SQLITE_CORRUPT:
                throw IssueStoreError(.unusableFile, "not a database or damaged (\(error.resultCode))")
            default:
                throw IssueStoreError(.unavailable, "cannot open \(path): \(Self.reason(error))")
            }
        } catch {
            throw IssueStoreError(.unavailable, "cannot open \(path): \(Self.reason(error))")
        }
    }

    /// The store's sequence number: it advances with every write, by any process.
    public func sequence() throws(IssueStoreError) -> Int64 {
        try run { try pool.read { try Int64.fetchOne($0, sql: "SELECT seq FROM store_clock WHERE id = 1") ?? 0 } }
    }

    /// Runs `body`, turning database errors into ``IssueStoreError``s that say what happened.
    func run<T>(_ body: () throws -> T) throws(IssueStoreError) -> T {
        do {
            return try body()
        } catch let error as IssueStoreError {
            throw error
        } catch {
            throw IssueStoreError(.unavailable, Self.reason(error))
        }
    }

    /// A short reason: SQLite's words for a database error (`disk full`, `read-only`), else the error's.
    static func reason(_ error: any Error) -> String {
        if let error = error as? DatabaseError {
            switch error.resultCode {
            case .SQLITE_FULL: return "disk full"
            case .SQLITE_READONLY: return "read-only"
            case .SQLITE_CANTOPEN: return "cannot open the file (folder missing or not writable)"
            case .SQLITE_PERM, .SQLITE_AUTH: return "permission denied"
            case .SQLITE_IOERR: return "I/O error"
            case .SQLITE_BUSY, .SQLITE_LOCKED: return "busy (another process holds the store)"
            default: return error.message ?? "\(error.resultCode)"
            }
        }
        return (error as NSError).localizedDescription
    }

    /// `20261127T093005Z`: a moment in UTC, to the second, for a file name (the house's civil calendar, no
    /// Foundation formatter).
    static func stamp(_ date: Date) -> String {
        guard let (second, _) = CivilDate.parts(of: date) else { return "unknown-time" }
        let days = second >= 0 ? second / 86_400 : (second - 86_399) / 86_400
        let (year, month, day) = CivilDate.civil(fromDays: days)
        let time = second - days * 86_400
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(year)\(two(month))\(two(day))T\(two(time / 3_600))\(two(time / 60 % 60))\(two(time % 60))Z"
    }
}
