import ErrorWatchDemo
import ErrorWatchRuntime
import ErrorWatchUI
import Foundation
import Testing

@testable import errorwatch

/// The README's screen capture is what `errorwatch render` prints for the command the README names. When the
/// screen changes on purpose, rewrite it with `README_CAPTURE_WRITE=1 swift test --filter ReadmeCapture` and
/// read the diff.
struct ReadmeCaptureTests {
    static let command = #"errorwatch render --size 110x34 --seed 7 --keys "l i l x s" --duration 14s"#

    @Test func readmeCaptureMatchesTheRenderer() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let begin = try #require(readme.range(of: "<!-- capture:begin -->\n"))
        let end = try #require(readme.range(of: "<!-- capture:end -->"))
        let block = String(readme[begin.upperBound..<end.lowerBound])
        #expect(block.contains(Self.command), "the capture should name the command that made it")
        let captured = block.split(separator: "\n", omittingEmptySubsequences: false)
            .drop { !$0.hasPrefix("```") }.dropFirst().prefix { !$0.hasPrefix("```") }
            .map { $0.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) }

        let keys = try Key.parseSequence("l i l x s").get()
        let outcome = HeadlessRenderer(
            options: .init(
                width: 110, height: 34, app: { DemoAttachment.make(in: $0, configuration: DemoConfiguration(seed: 7)) },
                keys: keys, duration: .seconds(14),
                themes: [.default])
        ).run()
        let rendered = outcome.screen.snapshotText(styles: false).split(
            separator: "\n", omittingEmptySubsequences: false
        )
        .map { $0.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) }
        .prefix(34)
        if ProcessInfo.processInfo.environment["README_CAPTURE_WRITE"] == "1" {
            let fresh = "<!-- \(Self.command) -->\n```text\n" + rendered.joined(separator: "\n") + "\n```\n"
            try readme.replacingCharacters(in: begin.upperBound..<end.lowerBound, with: fresh)
                .write(to: root.appendingPathComponent("README.md"), atomically: true, encoding: .utf8)
            return
        }
        #expect(Array(captured) == Array(rendered.prefix(captured.count)))
        #expect(captured.count == 34)
    }
}
