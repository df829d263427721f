import ErrorStreaming
import Foundation
import Testing

@testable import ErrorWatchUI

/// Random sizes and random states never crash the renderer and never write outside their bounds.
struct PropertyTests {
    static let sentinel = Cell(grapheme: "¤", width: 1, style: CellStyle(foreground: .indexed(99)))

    func randomState(_ g: inout SeededGenerator) -> DashboardState {
        var state = DashboardState.sample(
            width: Int.random(in: 1...500, using: &g), height: Int.random(in: 1...200, using: &g),
            events: Int.random(in: 0...60, using: &g), colorDepth: ColorDepth.allCases.randomElement(using: &g)!,
            unicode: Bool.random(using: &g))
        let keys: [Key] = Keymap.standard.bindings.flatMap(\.keys) + [.character("x"), .backspace, .enter, .left]
        for _ in 0..<Int.random(in: 0...25, using: &g) {
            let action: DashboardAction
            switch Int.random(in: 0...3, using: &g) {
            case 0: action = .keyPressed(keys.randomElement(using: &g)!)
            case 1: action = .eventReceived(randomEvent(&g, at: state.screen.now))
            case 2: action = .tick(state.screen.now.addingTimeInterval(Double.random(in: 0...400, using: &g)))
            default:
                action = .alertReceived(
                    AlertRecord(
                        fingerprint: "f\(Int.random(in: 0...5, using: &g))", title: randomText(&g), code: nil,
                        severity: ErrorSeverity.allCases.randomElement(using: &g)!, category: .transient,
                        count: Int.random(in: 1...100_000, using: &g), firstSeen: state.screen.now,
                        lastSeen: state.screen.now,
                        source: randomText(&g)))
            }
            _ = DashboardReducer.reduce(into: &state, action: action)
        }
        return state
    }

    func randomText(_ g: inout SeededGenerator) -> String {
        let bytes = (0..<Int.random(in: 0...200, using: &g)).map { _ in UInt8.random(in: 0...255, using: &g) }
        return Bool.random(using: &g) ? String(decoding: bytes, as: UTF8.self) : Sanitizer.sanitize(bytes: bytes)
    }

    func randomEvent(_ g: inout SeededGenerator, at time: Date) -> DashboardEvent {
        DashboardEvent(
            sequence: g.next(), timestamp: time, kind: Bool.random(using: &g) ? .error : .log,
            level: ErrorSeverity.allCases.randomElement(using: &g)!, source: randomText(&g),
            typeName: randomText(&g), message: randomText(&g), origin: Bool.random(using: &g) ? .user : .background)
    }

    @Test func randomSizesAndStatesNeverCrashOrOverflow() {
        var g = SeededGenerator(seed: 2026)
        for _ in 0..<150 {
            let state = randomState(&g)
            let buffer = Dashboard.render(state)
            #expect(buffer.width == state.screen.width && buffer.height == state.screen.height)
            #expect(buffer.cells.count == state.screen.width * state.screen.height)
            var reused = ScreenBuffer(width: state.screen.width, height: state.screen.height, fill: Self.sentinel)
            Dashboard.draw(state, into: &reused)
            #expect(reused == buffer, "header, panes and footer cover every cell")
            for (index, cell) in buffer.cells.enumerated() {
                #expect(cell.grapheme.unicodeScalars.allSatisfy { !Sanitizer.isUnsafe($0) })
                if cell.width == 2 {
                    #expect(index % state.screen.width < state.screen.width - 1, "wide glyph at the right edge")
                    #expect(buffer.cells[index + 1].isContinuation)
                }
            }
        }
    }

    @Test func anyBytesAsAMessageStayInsideThePane() {
        var g = SeededGenerator(seed: 7)
        for _ in 0..<200 {
            var state = DashboardState(width: 120, height: 40, now: fixtureStart, unicode: Bool.random(using: &g))
            _ = DashboardReducer.reduce(into: &state, action: .eventReceived(randomEvent(&g, at: fixtureStart)))
            let area = Rect(
                x: Int.random(in: 0...30, using: &g), y: Int.random(in: 0...10, using: &g),
                width: Int.random(in: 0...80, using: &g), height: Int.random(in: 0...20, using: &g))
            var buffer = ScreenBuffer(width: 120, height: 40, fill: Self.sentinel)
            LogsPane.render(state, palette: Palette(theme: .default, depth: .colors256), in: area, into: &buffer)
            for y in 0..<40 {
                for x in 0..<120 where !(x >= area.x && x < area.maxX && y >= area.y && y < area.maxY) {
                    #expect(buffer[x, y] == Self.sentinel, "wrote outside the pane at \(x),\(y)")
                }
            }
        }
    }
}
