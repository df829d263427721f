import ErrorWatchRuntime
import ErrorWatchUI
import Foundation
import Testing

@testable import errorwatch

/// `docs/keys.md` and the README's key table are generated from the dashboard's keymap, the demo's bindings as the
/// demo attaches them and `errorwatch run`'s as its command's; regenerate with
/// `KEYS_MD_WRITE=1 swift test --filter KeysDocs`.
struct KeysDocsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static var table: String {
        Keymap.markdownTable(apps: [DemoAttachment.attachedApp, RunCommand.attachedApp])
            + "\n### Query, after `/`\n\nTerms are ANDed; the query applies to Logs, Alerts, Issues, Patterns and Traces.\n\n"
            + QuerySyntax.markdownTable()
    }

    @Test func docsKeysMarkdownMatchesTheKeymap() throws {
        let url = Self.root.appendingPathComponent("docs/keys.md")
        if ProcessInfo.processInfo.environment["KEYS_MD_WRITE"] == "1" {
            try Self.table.write(to: url, atomically: true, encoding: .utf8)
        }
        #expect(try String(contentsOf: url, encoding: .utf8) == Self.table)
    }

    /// The README's key table is the same text, between `<!-- keys:begin -->` and `<!-- keys:end -->`.
    @Test func readmeKeyTableMatchesTheKeymap() throws {
        let url = Self.root.appendingPathComponent("README.md")
        var readme = try String(contentsOf: url, encoding: .utf8)
        let begin = try #require(readme.range(of: "<!-- keys:begin -->\n"))
        let end = try #require(readme.range(of: "\n<!-- keys:end -->"))
        let table = Self.table.trimmingCharacters(in: .newlines)
        if ProcessInfo.processInfo.environment["KEYS_MD_WRITE"] == "1" {
            readme.replaceSubrange(begin.upperBound..<end.lowerBound, with: table)
            try readme.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        #expect(String(readme[begin.upperBound..<end.lowerBound]) == table)
    }
}

/// Absurd playback speeds are refused with a message instead of crashing or hanging (issue 14).
struct PlaybackSpeedTests {
    @Test func speedsOutsideTheExactRangeAreRefused() {
        for bad in [1e-300, 1e-12, 0, -1, 0.009, 10_001, .infinity, .nan] {
            #expect(throws: (any Error).self, "\(bad)") { try validateSpeed(bad) }
        }
        for good in [0.01, 0.5, 1, 4, 10_000] {
            #expect(throws: Never.self, "\(good)") { try validateSpeed(good) }
        }
        #expect(playbackSpeeds == RecordingPlayer.speeds)
    }

    /// `--max-gap`: a duration up to a day, or `none` (or 0) for every silence in full.
    @Test func maximumGapsParseOrAreRefusedWithAMessage() throws {
        #expect(try parseMaximumGap("5s").limit == .seconds(5))
        #expect(try parseMaximumGap("250ms").limit == .milliseconds(250))
        #expect(try parseMaximumGap("2m").limit == .seconds(120))
        for none in ["none", "NONE", "0", "0s", "0ms"] { #expect(try parseMaximumGap(none).limit == nil, "\(none)") }
        for bad in ["-1s", "5", "5h", "soon", "1e9s", ""] {
            #expect(throws: (any Error).self, "\(bad)") { try parseMaximumGap(bad) }
        }
        do {
            _ = try parseMaximumGap("soon")
        } catch {
            #expect("\(error)" == "\"soon\" is not a gap like 5s, 500ms or 2m, or none")
        }
    }
}
