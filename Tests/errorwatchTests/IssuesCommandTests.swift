import ErrorStreaming
import ErrorWatchStore
import ErrorWatchUI
import Foundation
import Testing

@testable import errorwatch

/// `errorwatch issues` says what the dashboard says (issue 32, item 4), and never writes a producer's bytes to the
/// terminal (issue 34, item 5).
struct IssuesCommandTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func issue(
        _ status: IssueStatus, firstSeen: TimeInterval = -3_600, title: String = "PaymentError: card declined",
        versions: [String] = ["1.4.0"]
    ) -> StoredIssue {
        var record = IssueRecord(
            fingerprint: "Shop.PaymentError#P-402##card declined", typeName: "PaymentError",
            qualifiedTypeName: "Shop.PaymentError", code: ErrorCode("P", 402), category: .transient, severity: .error,
            count: 3, firstSeen: now.addingTimeInterval(firstSeen), lastSeen: now.addingTimeInterval(-60))
        record.triage.status = status
        record.versions = versions.map { IssueVersion(version: $0, firstSeen: now.addingTimeInterval(-120), count: 1) }
        return StoredIssue(id: 7, record: record, title: title)
    }

    /// A regressed issue first seen an hour ago is `regressed` in the table and in `show`, as in the dashboard's
    /// badge and detail view; only an unresolved one is `new`.
    @Test func theStatusIsTheDashboards() {
        let regressed = Self.issue(.regressed)
        #expect(IssueJSON.table([regressed], at: Self.now).contains("7      regressed"))
        #expect(IssueJSON.details(regressed, at: Self.now).contains("  status       regressed\n"))
        #expect(!IssueJSON.details(regressed, at: Self.now).contains("new"))
        #expect(
            IssueJSON.details(regressed, at: Self.now).contains(
                regressed.record.triage.description(firstSeen: regressed.record.firstSeen, at: Self.now)))
        let fresh = Self.issue(.unresolved)
        #expect(IssueJSON.table([fresh], at: Self.now).contains("7      new"))
        #expect(IssueJSON.details(fresh, at: Self.now).contains("  status       unresolved, new\n"))
        let old = Self.issue(.unresolved, firstSeen: -3 * 86_400)
        #expect(IssueJSON.table([old], at: Self.now).contains("7      unresolved"))
        let json = IssueJSON(regressed, at: Self.now)
        #expect(json.status == "regressed" && !json.new && json.status_text == "regressed")
    }

    @Test func theGateNamesWhatFailedIt() {
        let line = IssueJSON.gateLine(Self.issue(.regressed), at: Self.now)
        #expect(line == "errorwatch: issue 7 is regressed in 1.4.0: PaymentError: card declined")
    }

    /// Every field a producer chose is shown with its controls visible: escapes, OSC 52 and 8, DCS, CSI 6n, clear
    /// screen, BEL, a raw C1 CSI, NUL, CR and BS never reach the terminal.
    @Test func noControlByteReachesTheTerminal() {
        let hostile =
            "a\u{1B}]52;c;cHduZWQ=\u{07}b\u{1B}]8;;http://x\u{1B}\\c\u{1B}P1$r\u{1B}\\d\u{1B}[6n\u{1B}[2J\u{07}"
            + "\u{9B}31m\u{00}\r\u{08}e"
        var issue = Self.issue(.unresolved, title: hostile, versions: [hostile])
        issue.record.services = [hostile]
        issue.record.environments = [hostile]
        issue.record.fingerprint = hostile
        issue.record.qualifiedTypeName = hostile
        issue.history = [(Self.now, hostile, hostile)]
        issue.occurrences = [
            StoredOccurrence(
                timestamp: Self.now, message: hostile, logMessage: hostile, userMessage: hostile, service: hostile,
                version: hostile, environment: hostile, host: hostile, source: hostile, stack: hostile + "\n" + hostile,
                attributes: [hostile: hostile])
        ]
        for text in [
            IssueJSON.table([issue], at: Self.now), IssueJSON.details(issue, at: Self.now),
            IssueJSON.gateLine(issue, at: Self.now),
        ] {
            let controls = text.unicodeScalars.filter { scalar in
                (scalar.value < 0x20 && scalar != "\n") || (0x7F...0x9F).contains(scalar.value)
            }
            #expect(controls.isEmpty, "\(controls.map { String($0.value, radix: 16) })")
            #expect(text.contains("␛]52;c;"), "the escapes are shown, not dropped")
        }
    }
}
