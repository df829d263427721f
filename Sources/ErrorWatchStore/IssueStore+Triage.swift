import ErrorWatchUI
import Foundation
import GRDB

extension IssueStore {
    /// Applies a triage decision to issue `id` (from `errorwatch issues`), at `now`, as `actor`; returns the issue
    /// as it is afterwards. A running dashboard sees it at its next poll.
    @discardableResult
    public func triage(id: Int64, _ action: IssueTriageAction, at now: Date, actor: String) throws(IssueStoreError)
        -> StoredIssue
    {
        let done = try run {
            try pool.write { db -> Bool in
                guard let row = try Row.fetchOne(db, sql: "SELECT * FROM issue WHERE id = ?", arguments: [id])
                else { return false }
                var issue = try Self.issue(from: row, db)
                issue.record.triage.apply(
                    action, count: issue.record.count,
                    newestVersion: IssueVersion.newest(in: issue.record.versions)?.version, at: now)
                let seq = try Self.advance(db)
                try Self.store(issue.record.triage, issue: id, action: action.summary, actor: actor, at: now, db)
                try db.execute(sql: "UPDATE issue SET change_seq = ? WHERE id = ?", arguments: [seq, id])
                return true
            }
        }
        guard done else { throw IssueStoreError(.notFound, "no issue \(id) in \(path)") }
        return try issue(id: id)
    }
}
