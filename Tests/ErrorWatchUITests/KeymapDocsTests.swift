import Foundation
import Testing

@testable import ErrorWatchUI

struct KeymapDocsTests {
    @Test func helpOverlayListsEveryBinding() {
        var state = DashboardState.sample(width: 120, height: 40)
        _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.character("?")))
        let screen = Dashboard.render(state).textLines().joined(separator: "\n")
        for binding in state.keymap.bindings {
            #expect(screen.contains(binding.summary), "\(binding.summary)")
        }
        #expect(screen.contains(AttachedApp.fixture.title))
    }

    @Test func footerHintsComeFromTheKeymap() {
        let footer = Dashboard.render(.sample(width: 200, height: 50)).text(ofRow: 49)
        for binding in DashboardState.sample().keymap.bindings {
            guard let hint = binding.hint else { continue }
            #expect(footer.contains(hint), "\(hint)")
        }
    }
}

extension KeymapDocsTests {
    /// Without an attached app, the footer offers no app keys and the help overlay shows the legend beside the
    /// dashboard's keys.
    @Test func withoutAnAppNoAppKeysAreOffered() {
        var state = DashboardState(width: 200, height: 50, now: fixtureStart)
        let footer = Dashboard.render(state).text(ofRow: 49)
        #expect(!footer.contains("bad login"))
        _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.character("?")))
        let screen = Dashboard.render(state).textLines().joined(separator: "\n")
        #expect(screen.contains("Legend"))
        #expect(!screen.contains("Demo app"))
    }
}
