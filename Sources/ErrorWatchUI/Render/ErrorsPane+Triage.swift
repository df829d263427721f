import Foundation

extension ErrorsPane {
    /// What an Issues row says of its triage before the type: `[regressed] `, `[resolved] `, `[ignored] `, or
    /// `[new] ` for a new issue nobody has opened yet; nothing for the rest. Only a kept issue (one with a store id)
    /// is marked new: without a store every issue is this session's, and the mark would say nothing.
    static func triageBadge(_ issue: IssueRecord, now: Date) -> String {
        switch issue.triage.status {
        case .regressed: return "[regressed] "
        case .resolved: return "[resolved] "
        case .ignored: return "[ignored] "
        case .unresolved:
            let marked = issue.storeID != nil && !issue.triage.opened
            return marked && issue.triage.isNew(firstSeen: issue.firstSeen, at: now) ? "[new] " : ""
        }
    }
}
