import ErrorStreaming
import Foundation
import SnapshotTesting
import Testing

@testable import ErrorWatchUI

/// The Patterns view: the template miner's properties, the `v` cycle, `Enter` on a template, and a snapshot.
@MainActor
struct PatternsTests {
    static func line(_ message: String, level: ErrorSeverity = .info, at offset: TimeInterval = 0) -> DashboardEvent {
        DashboardEvent(
            sequence: 0, timestamp: fixtureStart.addingTimeInterval(offset), kind: level >= .error ? .error : .log,
            level: level, source: "app", typeName: "", message: message)
    }

    /// Templates are split into words at their spaces as bytes when ASCII: the same words as splitting characters.
    @Test func wordsAreTheCharacterSplits() {
        let messages = [
            "", "   ", "one", "two  words", "row 12 changed on both sides", "tab\tand space", "ends with space ",
            "cr\r\nlf inside", "é accents ü", "漢字 and ascii", "a \u{301}mark after a space",
            (0..<100).map { "w\($0 % 7 == 0 ? "x" : "y")" }.joined(separator: " "),
        ]
        for message in messages {
            let expected = TemplateMask.template(of: message).split(separator: " ").prefix(PatternsState.maximumTokens)
                .map(String.init)
            #expect(PatternsState.tokens(of: message) == expected, "\(message)")
        }
    }

    @Test func linesThatDifferOnlyInMaskedPartsShareATemplate() {
        var random = SeededGenerator(seed: 7)
        var patterns = PatternsState()
        for _ in 0..<1_000 {
            let row = Int.random(in: 0...100_000, using: &random)
            let host = "10.0.\(Int.random(in: 0...255, using: &random)).\(Int.random(in: 1...254, using: &random))"
            patterns.add(
                message: "row \(row) changed on both sides", level: .warning, at: fixtureStart, sequence: 1,
                now: fixtureStart)
            patterns.add(
                message: "connection to \(host):5432 reset after \(row) ms", level: .error, at: fixtureStart,
                sequence: 2, now: fixtureStart)
        }
        #expect(patterns.patterns.map(\.template).sorted() == [
            "connection to <ip> reset after <num> ms", "row <num> changed on both sides",
        ])
        #expect(patterns.patterns.map(\.count) == [1_000, 1_000])
    }

    /// Lines that share fewer than half their words, or differ in length, never share a template; no two templates
    /// are alike; every line is counted once.
    @Test func differentLinesGetDifferentTemplates() {
        var random = SeededGenerator(seed: 8)
        let words = ["cache", "disk", "queue", "socket", "worker", "lease", "index", "token"]
        var patterns = PatternsState()
        for _ in 0..<300 {
            // Lines of different lengths, or whose words mostly differ, never share a template.
            let count = Int.random(in: 1...6, using: &random)
            let sentence = (0..<count).map { _ in words.randomElement(using: &random)! }
            let message = sentence.joined(separator: " ") + " " + String(repeating: "x", count: count)
            patterns.add(message: message, level: .info, at: fixtureStart, sequence: 1, now: fixtureStart)
        }
        #expect(Set(patterns.patterns.map(\.template)).count == patterns.patterns.count)
        var fresh = PatternsState()
        fresh.add(message: "cache disk queue", level: .info, at: fixtureStart, sequence: 1, now: fixtureStart)
        fresh.add(message: "socket worker lease", level: .info, at: fixtureStart, sequence: 2, now: fixtureStart)
        fresh.add(message: "cache disk", level: .info, at: fixtureStart, sequence: 3, now: fixtureStart)
        #expect(fresh.patterns.count == 3)
        #expect(patterns.patterns.reduce(0) { $0 + $1.count } == 300)
    }

    /// Issue 32, item 3: a pattern never holds two levels, and a word that differs between a few lines stays a
    /// word until its position has shown ``PatternsState/variableAfter`` words; then the templates fold into one.
    @Test func levelsNeverMergeAndAWordStaysUntilItProvesVariable() {
        var patterns = PatternsState()
        func add(_ message: String, _ level: ErrorSeverity) {
            patterns.add(message: message, level: level, at: fixtureStart, sequence: 1, now: fixtureStart)
        }
        add("checkout started for order 64084", .info)
        add("checkout failed for order 64085", .warning)
        add("checkout started for order 64086", .info)
        add("checkout failed for order 64087", .info)
        add("checkout retried for order 64088", .info)
        #expect(Set(patterns.byCount.map { "\($0.levelsSeen.first!) \($0.template)" }) == [
            "info checkout started for order <num>", "warning checkout failed for order <num>",
            "info checkout failed for order <num>", "info checkout retried for order <num>",
        ])
        // A fourth word at that position proves it variable: the info lines fold into one template, the warning
        // line stays apart.
        add("checkout queued for order 64089", .info)
        #expect(Set(patterns.byCount.map { "\($0.levelsSeen.first!) \($0.template) \($0.count)" }) == [
            "info checkout <*> for order <num> 5", "warning checkout failed for order <num> 1",
        ])
        #expect(patterns.liveCount == 2)
        #expect(patterns.byCount.reduce(0) { $0 + $1.count } == 6)
    }

    /// A template's lines per second, kept in a ring of ``PatternRecord/secondsKept`` seconds up to its latest line:
    /// against counting every line's second, with lines out of order, long gaps, lines older than the ring and
    /// clocks ahead of the dashboard's. And when templates fold into one, their seconds add up.
    @Test func linesPerSecondAreCountedAsTheyHappened() {
        var random = SeededGenerator(seed: 35)
        for _ in 0..<40 {
            var patterns = PatternsState()
            var seconds: [Int: Int] = [:]
            var base = 0
            for _ in 0..<Int.random(in: 1...400, using: &random) {
                // Mostly near the newest line, sometimes a jump ahead (past the whole ring) or a line from long ago.
                switch Int.random(in: 0..<20, using: &random) {
                case 0: base += Int.random(in: 100...400, using: &random)
                case 1: base -= Int.random(in: 0...300, using: &random)
                default: break
                }
                let second = base + Int.random(in: -70...5, using: &random)
                let fraction = Double.random(in: 0..<1, using: &random)
                let at = fixtureStart.addingTimeInterval(TimeInterval(second) + fraction)
                patterns.add(message: "cache miss", level: .info, at: at, sequence: 1, now: fixtureStart)
                let whole = Int(at.timeIntervalSince1970.rounded(.down))
                seconds[whole, default: 0] += 1
            }
            let record = patterns.patterns[0]
            let latest = seconds.keys.max()!
            for end in [latest, latest - 3, latest + 30, latest - 100, latest + 200] {
                let now = Date(timeIntervalSince1970: TimeInterval(end) + 0.5)
                let expected = (end - 59...end).map { second in
                    second > latest - PatternRecord.secondsKept ? seconds[second] ?? 0 : 0
                }
                #expect(record.perSecond(endingAt: now) == expected)
            }
        }
        // Four templates, each with lines in seconds of its own, fold into one that has all their seconds.
        var patterns = PatternsState()
        for (offset, word) in ["started", "failed", "retried", "queued"].enumerated() {
            for repeat_ in 0...offset {
                patterns.add(
                    message: "checkout \(word) for order 6408\(offset)", level: .info,
                    at: fixtureStart.addingTimeInterval(TimeInterval(offset * 10 + repeat_)), sequence: 1,
                    now: fixtureStart)
            }
        }
        let folded = patterns.byCount
        #expect(folded.count == 1 && folded[0].count == 10)
        let perSecond = folded[0].perSecond(endingAt: fixtureStart.addingTimeInterval(59))
        #expect(perSecond.reduce(0, +) == 10)
        #expect(perSecond.indices.filter { perSecond[$0] > 0 } == [0, 10, 11, 20, 21, 22, 30, 31, 32, 33])
    }

    /// Issue 35: the rows' order is kept as lines are counted, not sorted per frame. After every line it must be
    /// the order sorting the live templates gives (more lines first, then the later latest line, then the first
    /// found), through templates starting, overtaking each other, lines older than a template's latest, and
    /// templates folding into one (which leave the order) — and at the capacity, where lines are only counted.
    @Test func theRowsOrderIsTheSortedOrderAfterEveryLine() {
        var random = SeededGenerator(seed: 3_535)
        let words = ["started", "failed", "retried", "queued", "parked", "dropped", "resumed"]
        for capacity in [3, 500] {
            var patterns = PatternsState(capacity: capacity)
            for line in 0..<1_500 {
                let message: String
                switch Int.random(in: 0..<4, using: &random) {
                case 0:
                    message = "checkout \(words.randomElement(using: &random)!) for order \(line)"
                case 1:
                    message = "cache miss on shard \(Int.random(in: 0..<40, using: &random))"
                case 2:
                    message = "worker \(words.randomElement(using: &random)!)"
                default:
                    message = "job \(words.randomElement(using: &random)!) \(words.randomElement(using: &random)!)"
                }
                let at = fixtureStart.addingTimeInterval(TimeInterval(Int.random(in: -30...line, using: &random)))
                let level: ErrorSeverity = Bool.random(using: &random) ? .info : .error
                patterns.add(message: message, level: level, at: at, sequence: UInt64(line + 1), now: fixtureStart)
                let sorted = patterns.patterns.indices.filter { patterns.patterns[$0].mergedInto == nil }.sorted {
                    let (a, b) = (patterns.patterns[$0], patterns.patterns[$1])
                    return (a.count, a.lastSeen, $1) > (b.count, b.lastSeen, $0)
                }
                #expect(patterns.indicesByCount == sorted)
                if patterns.indicesByCount != sorted { return }
            }
            #expect(patterns.patterns.contains { $0.mergedInto != nil } || capacity == 3)
            #expect(patterns.liveCount == patterns.indicesByCount.count)
        }
    }

    /// Issue 32, item 3: hex ids (`q-12f76`, also when they happen to hold only digits) are masked alike in the
    /// Patterns view and in the issues' fingerprints: 25 timeouts are one template and one key.
    @Test func hexIdTimeoutsAreOneTemplateAndOneFingerprint() {
        var random = SeededGenerator(seed: 12)
        var patterns = PatternsState()
        var keys: Set<String> = []
        for index in 0..<25 {
            let digits = index % 5 == 0 ? "0123456789" : "0123456789abcdef"
            let id = String((0..<5).map { _ in digits.randomElement(using: &random)! })
            let message = "db query timed out after \(Int.random(in: 1_000...4_000, using: &random)) ms (query id q-\(id))"
            patterns.add(message: message, level: .error, at: fixtureStart, sequence: 1, now: fixtureStart)
            keys.insert(
                Fingerprint.make(typeName: "Error", code: nil, source: "shop.db", logMessage: nil, message: message))
        }
        #expect(patterns.liveCount == 1)
        #expect(keys.count == 1)
    }

    /// Issue 32, item 7: the query reaches the Patterns view: `service:` keeps the templates of that service's
    /// lines, and the title says `N of M`.
    @Test func theQueryFiltersPatterns() {
        var state = DashboardState.sample(width: 120, height: 40, events: 0)
        var lines: [DashboardEvent] = []
        for (index, service) in ["syncd", "shop", "shop"].enumerated() {
            var line = Self.line(["sync pass \(index) done", "order \(index) paid", "cart \(index) saved"][index])
            line.provenance = Provenance(time: line.timestamp, service: service)
            lines.append(line)
        }
        _ = DashboardReducer.reduce(into: &state, action: .eventsReceived(lines))
        _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.character("v")))
        _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.character("v")))
        for key in "/service:syncd" { _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.character(key))) }
        _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.enter))
        #expect(state.patterns.visible(state.filter).map(\.template) == ["sync pass <num> done"])
        let top = Dashboard.render(state).textLines().prefix(3).joined(separator: "\n")
        #expect(top.contains("1 of 3 templates"))
    }

    @Test func memoryIsBoundedUnderAMillionDistinctLines() {
        var patterns = PatternsState(capacity: 200)
        var random = SeededGenerator(seed: 9)
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz")
        for index in 0..<1_000_000 {
            // Every line distinct, and no two alike once masked: random words, no digits.
            let word = String((0..<6).map { _ in alphabet.randomElement(using: &random)! })
            let other = String((0..<5).map { _ in alphabet.randomElement(using: &random)! })
            patterns.add(
                message: "\(word) \(other)", level: .info, at: fixtureStart, sequence: UInt64(index + 1),
                now: fixtureStart)
        }
        #expect(patterns.patterns.count <= 200)
        #expect(patterns.patterns.allSatisfy { $0.recent.count <= PatternRecord.recentLimit })
        #expect(patterns.patterns.reduce(0) { $0 + $1.count } + patterns.otherCount == 1_000_000)
    }

    @Test func vCyclesAlertsIssuesPatternsTracesServicesAndEnterOpensATemplatesLines() {
        var state = DashboardState.sample(width: 120, height: 40)
        let views = (0..<5).map { _ -> ErrorsView in
            _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.character("v")))
            return state.errors.view
        }
        #expect(views == [.issues, .patterns, .traces, .services, .alerts])
        _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.character("v")))
        _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.character("v")))
        #expect(state.errors.view == .patterns)
        _ = DashboardReducer.reduce(
            into: &state,
            action: .eventsReceived([Self.line("row 12 changed"), Self.line("row 31 changed"), Self.line("other")]))
        _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.enter))
        guard case .pattern(let id)? = state.detail.target else {
            Issue.record("Enter did not open a pattern: \(String(describing: state.detail.target))")
            return
        }
        let opened = state.patterns.patterns[id]
        #expect(opened.count == state.patterns.byCount.first?.count)
        let lines = DetailView.patternOccurrences(id, in: state)
        #expect(lines.count == min(opened.count, opened.recent.count))
        #expect(lines.allSatisfy { line in state.logs.lines.contains { $0.sequence == line.sequence } })
    }

    @Test func snapshot() {
        var state = DashboardState(width: 100, height: 30, now: fixtureStart.addingTimeInterval(30))
        var events: [DashboardEvent] = []
        for index in 0..<12 { events.append(Self.line("row \(index * 7) changed on both sides", at: Double(index))) }
        for index in 0..<4 {
            events.append(Self.line("request \(index) failed: upstream 10.0.0.\(index):443 closed", level: .error))
        }
        events.append(Self.line("cache warmed in 120 ms", level: .notice, at: -120))
        events.append(Self.line("disk /var/data is 91% full", level: .warning, at: 5))
        _ = DashboardReducer.reduce(into: &state, action: .eventsReceived(events))
        _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.character("v")))
        _ = DashboardReducer.reduce(into: &state, action: .keyPressed(.character("v")))
        var buffer = ScreenBuffer(width: 100, height: 8)
        PatternsPane.render(
            state, palette: Palette(theme: state.screen.theme, depth: state.screen.colorDepth), in: buffer.area,
            into: &buffer)
        assertSnapshot(of: buffer, as: .screen, named: "patterns")
    }

    /// A template longer than its room is cut with `…` where `DisplayWidth.truncate` cuts it, ASCII (written from
    /// its bytes) or not (a wide glyph at the edge is dropped), at every pane width, after the count and levels.
    @Test func longTemplatesAreCutWhereTruncateCutsThem() {
        let long = (0..<30).map { "word\($0)" }.joined(separator: " ")
        let wide = (0..<30).map { "漢字\($0)" }.joined(separator: " ")
        for message in [long, wide, "short line"] {
            var state = DashboardState(width: 200, height: 30, now: fixtureStart.addingTimeInterval(300))
            _ = DashboardReducer.reduce(into: &state, action: .eventsReceived([Self.line(message)]))
            let pattern = state.patterns.patterns[0]
            for width in [22, 30, 59, 60, 79, 80, 99, 100, 150] {
                var buffer = ScreenBuffer(width: width, height: 1)
                PatternsPane.drawRow(
                    pattern, screen: state.screen, x: 0, y: 0, width: width, into: &buffer,
                    palette: Palette(theme: state.screen.theme, depth: state.screen.colorDepth))
                let right = (width >= 100 ? 21 : width >= 80 ? 13 : 0) + (width >= 60 ? 5 : 0) + 5
                let room = max(4, width - 13 - right - " new".count)
                let expected = DisplayWidth.truncate(pattern.template, to: room)
                let row = buffer.text(ofRow: 0)
                let drawn = String(row.dropFirst(13))
                #expect(drawn.hasPrefix(expected), "\(width) columns: \(row)")
                #expect(buffer[0, 0]?.grapheme == " " && row.hasPrefix("      1 I"), "\(row)")
            }
        }
    }
}
