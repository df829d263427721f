import Foundation
import Testing

@testable import ErrorWatchUI

struct KeymapDocsTests {
    /// `docs/keys.md` is generated from the keymap; regenerate with `KEYS_MD_WRITE=1 swift test --filter KeymapDocs`.
    @Test func docsKeysMarkdownMatchesTheKeymap() throws {
        let url = docsDirectory.appendingPathComponent("keys.md")
        let table = Keymap.standard.markdownTable()
        if ProcessInfo.processInfo.environment["KEYS_MD_WRITE"] == "1" {
            try table.write(to: url, atomically: true, encoding: .utf8)
        }
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(text == table)
    }

    /// The README's key table is the same text, between `<!-- keys:begin -->` and `<!-- keys:end -->`.
    @Test func readmeKeyTableMatchesTheKeymap() throws {
        let url = docsDirectory.deletingLastPathComponent().appendingPathComponent("README.md")
        let readme = try String(contentsOf: url, encoding: .utf8)
        let begin = try #require(readme.range(of: "<!-- keys:begin -->\n"))
        let end = try #require(readme.range(of: "\n<!-- keys:end -->"))
        #expect(
            String(readme[begin.upperBound..<end.lowerBound])
                == Keymap.standard.markdownTable().trimmingCharacters(in: .newlines))
    }

    @Test func helpOverlayListsEveryBinding() {
        var state = DashboardState.sample(width: 120, height: 40)
        _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.character("?")))
        let screen = Dashboard.render(state).textLines().joined(separator: "\n")
        for binding in Keymap.standard.bindings {
            #expect(screen.contains(binding.summary), "\(binding.summary)")
        }
    }

    @Test func footerHintsComeFromTheKeymap() {
        let footer = Dashboard.render(.sample(width: 200, height: 50)).text(ofRow: 49)
        for binding in Keymap.standard.bindings {
            guard let hint = binding.hint else { continue }
            #expect(footer.contains(hint), "\(hint)")
        }
    }
}
