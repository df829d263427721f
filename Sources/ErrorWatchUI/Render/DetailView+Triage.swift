import Foundation

extension DetailView {
    /// An issue's triage and releases: its status (and what ends it), its environments, and each version it was
    /// seen in with its count and when it was first seen there.
    static func triageLines(_ issue: IssueRecord, state: DashboardState, width: Int) -> [Line] {
        let triage = issue.triage
        var status = triage.description(firstSeen: issue.firstSeen, at: state.screen.now)
        status += "  (R resolve · N next release · I ignore · Z snooze · c 100 more · U reopen)"
        var lines = labelled("Status", status, role: triage.status == .regressed ? .alert : .text, width: width)
        if !issue.environments.isEmpty {
            lines += labelled("Environments", issue.environments.joined(separator: ", "), role: .text, width: width)
        }
        if let first = issue.versions.min(by: { $0.firstSeen < $1.firstSeen }) {
            lines += labelled("First in", first.version, role: .text, width: width)
            let counts = issue.versions.map { "\($0.version) ×\(Format.count($0.count))" }.joined(separator: ", ")
            lines += labelled("Versions", counts, role: .text, width: width)
        } else {
            lines += labelled("Versions", "none sent", role: .muted, width: width)
        }
        return lines
    }
}
