import ErrorStreaming
import Testing

@testable import ErrorWatchUI

struct TextTests {
    @Test func widths() {
        #expect(DisplayWidth.of("abc") == 3)
        #expect(DisplayWidth.of("漢字") == 4)
        #expect(DisplayWidth.of("한국어") == 6)
        #expect(DisplayWidth.of("🔥") == 2)
        // ncurses places a zero-width-joined sequence by its parts' widths (wcwidth), so it takes their columns.
        #expect(DisplayWidth.of("👩‍💻") == 4)
        #expect(Sanitizer.sanitize("👩‍💻") == "👩💻", "the joiner is dropped; both parts show, side by side")
        #expect(DisplayWidth.of("🇫🇷") == 2)
        #expect(DisplayWidth.of("e\u{301}") == 1, "combining mark stays attached")
        #expect(DisplayWidth.of("ＡＢ") == 4)
    }

    @Test func invisibleAndLoneCharactersAreShownOrDropped() {
        #expect(Sanitizer.sanitize(String(repeating: "\u{200B}", count: 3)) == "\\u{200B}\\u{200B}\\u{200B}")
        #expect(Sanitizer.sanitize("a\u{FEFF}b\u{2060}c") == "a\\u{FEFF}b\\u{2060}c")
        #expect(Sanitizer.sanitize("flag\u{E0067}\u{E007F}") == "flag\\u{E0067}\\u{E007F}")
        #expect(Sanitizer.sanitize("\u{301}x") == "\u{25CC}\u{301}x", "a lone combining mark sits on a dotted circle")
        #expect(Sanitizer.sanitize("\u{FE0F}") == "")
        #expect(Sanitizer.sanitize("e\u{301}") == "e\u{301}")
        #expect(Sanitizer.sanitize("line\u{2028}break") == "line\\u{2028}break")
        #expect(Sanitizer.sanitize("\u{378}") == "\\u{378}", "unassigned: ncurses could not place it")
    }

    /// Random text made safe never keeps a control, joiner or invisible character, never starts with a zero-width
    /// scalar, and takes in a screen buffer exactly the columns ``DisplayWidth`` says (so ncurses agrees).
    @Test func sanitizedTextDrawsInTheColumnsItMeasures() {
        var generator = SeededGenerator(seed: 0xC0FFEE)
        func next() -> UInt64 { generator.next() }
        let interesting: [UInt32] = [
            0x1B, 0x9B, 0x200B, 0x200D, 0xFE0F, 0x301, 0x1F469, 0x1F4BB, 0x4DC0, 0x1F1EB, 0xE0067, 0x2028, 0x202E,
            0x1160, 0xAC00, 0x0915, 0x093F, 0x1F3FD, 0x16FF0, 0x378, 0xFEFF, 0x61, 0x20,
        ]
        for _ in 0..<2_000 {
            var text = String.UnicodeScalarView()
            for _ in 0..<Int(next() % 24) {
                let value =
                    next() % 3 == 0 ? interesting[Int(next() % UInt64(interesting.count))] : UInt32(next() % 0x110000)
                if let scalar = Unicode.Scalar(value) { text.append(scalar) }
            }
            let safe = Sanitizer.sanitize(String(text))
            #expect(!safe.unicodeScalars.contains { Sanitizer.isUnsafe($0) || Sanitizer.isShaping($0.value) })
            if let first = safe.unicodeScalars.first { #expect(DisplayWidth.width(of: first) > 0) }
            let width = DisplayWidth.of(safe)
            var buffer = ScreenBuffer(width: 400, height: 1)
            let (end, truncated) = buffer.writeCells(safe, x: 0, y: 0, style: .plain, clip: nil)
            #expect(!truncated)
            #expect(end == width, "\(safe.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }

    @Test func truncation() {
        #expect(DisplayWidth.truncate("hello world", to: 5) == "hell…")
        #expect(DisplayWidth.truncate("hello", to: 5) == "hello")
        #expect(DisplayWidth.truncate("漢字漢字", to: 5) == "漢字…")
        #expect(DisplayWidth.truncate("漢字漢字", to: 4) == "漢…")
        #expect(DisplayWidth.truncate("abc", to: 0) == "")
    }

    @Test func sanitiserEscapesControlsAndSequences() {
        #expect(Sanitizer.sanitize("\u{1B}[31mred") == "␛[31mred")
        #expect(Sanitizer.sanitize("a\u{1B}]0;title\u{07}b") == "a␛]0;title␇b")
        #expect(Sanitizer.sanitize("tab\there\r\n") == "tab␉here␍␊")
        #expect(Sanitizer.sanitize("del\u{7F}") == "del␡")
        #expect(Sanitizer.sanitize("c1\u{9B}2J") == "c1\\u{9B}2J")
        #expect(Sanitizer.sanitize("rtl\u{202E}txt") == "rtl\\u{202E}txt")
        #expect(Sanitizer.sanitize("plain ✓ 漢字") == "plain ✓ 漢字")
        #expect(Sanitizer.sanitize("abcdef", limit: 3) == "abc…")
    }

    @Test func sanitiserShowsInvalidUTF8AsHex() {
        #expect(Sanitizer.sanitize(bytes: [0x66, 0xFF, 0x6F]) == "f\\xFFo")
        #expect(Sanitizer.sanitize(bytes: [0xC0, 0xAF]) == "\\xC0\\xAF", "overlong")
        #expect(Sanitizer.sanitize(bytes: [0xED, 0xA0, 0x80]) == "\\xED\\xA0\\x80", "surrogate")
        #expect(Sanitizer.sanitize(bytes: Array("漢\u{1B}".utf8)) == "漢␛")
        #expect(Sanitizer.sanitize(bytes: [0xE6, 0xBC]) == "\\xE6\\xBC", "truncated sequence")
    }

    @Test func wideGlyphNeverSplitsAtTheEdge() {
        var buffer = ScreenBuffer(width: 5, height: 1)
        buffer.write("ab漢字", x: 0, y: 0, style: .plain)
        #expect(buffer.text(ofRow: 0) == "ab漢 ")
        #expect(buffer[2, 0]?.width == 2 && buffer[3, 0]?.isContinuation == true)
        #expect(buffer[4, 0]?.grapheme == " ")
    }

    @Test func overwritingHalfAWideGlyphBlanksTheOtherHalf() {
        var buffer = ScreenBuffer(width: 4, height: 1)
        buffer.write("漢字", x: 0, y: 0, style: .plain)
        buffer.write("x", x: 1, y: 0, style: .plain)
        #expect(buffer.text(ofRow: 0) == " x字")
        #expect(buffer.cells.allSatisfy { !$0.isContinuation || $0.width == 0 })
    }

    /// A buffer looks for wide glyphs cut at a write's edges only once it has held one (most frames hold none). Cells
    /// stored by `set`, by the writers and by a wide fill all count: each cut below is mended.
    @Test func wideGlyphsCutByFillsRunsAndSetsAreMended() {
        var filled = ScreenBuffer(width: 4, height: 1)
        filled.write("漢字", x: 0, y: 0, style: .plain)
        filled.fill(Rect(x: 0, y: 0, width: 3, height: 1), style: .plain)
        #expect(filled.text(ofRow: 0) == "    " && filled.cells.allSatisfy { $0.width == 1 })
        var set = ScreenBuffer(width: 4, height: 1)
        set.set(Cell(grapheme: "漢", width: 2), x: 0, y: 0)
        set.set(Cell(grapheme: "", width: 0), x: 1, y: 0)
        set.write("x", x: 1, y: 0, style: .plain)
        #expect(set.text(ofRow: 0) == " x  " && set.cells.allSatisfy { $0.width == 1 })
        var run = ScreenBuffer(width: 6, height: 1)
        run.write("ab漢", x: 2, y: 0, style: .plain)
        Sparkline.draw([1, 2, 3, 4], width: 1, unicode: true, x: 5, y: 0, style: .plain, into: &run)
        #expect(run[4, 0]?.grapheme == " " && run.cells.allSatisfy { $0.width == 1 })
        var halves = ScreenBuffer(width: 4, height: 1, fill: Cell(grapheme: "", width: 0))
        halves.write("ab", x: 1, y: 0, style: .plain)
        #expect(halves.mayHoldWide && halves[3, 0]?.grapheme == " ")
        #expect(!ScreenBuffer(width: 4, height: 1).mayHoldWide)
    }

    @Test func writeWithWidthTruncatesAndPads() {
        var buffer = ScreenBuffer(width: 12, height: 1, fill: Cell(grapheme: "#"))
        buffer.write("hello world", x: 1, y: 0, width: 8, style: .plain)
        #expect(buffer.text(ofRow: 0) == "#hello w…###")
        buffer.write("hi", x: 1, y: 0, width: 8, style: .plain)
        #expect(buffer.text(ofRow: 0) == "#hi      ###")
    }

    /// The ASCII writer reads only what fits and the byte after it: a combining mark right after the edge still
    /// joins the last cell, and text past the edge (ASCII or not) changes nothing drawn.
    @Test func asciiCutAtTheEdgeIsDrawnAsTheGeneralWriterDrawsIt() {
        var buffer = ScreenBuffer(width: 6, height: 1)
        let edge = Rect(x: 0, y: 0, width: 4, height: 1)
        let marked = buffer.writeCells("abce\u{301}xyz", x: 0, y: 0, style: .plain, clip: edge)
        #expect(marked.end == 4 && marked.truncated)
        #expect(buffer[3, 0]?.grapheme == "e\u{301}")
        for text in ["abcdef漢字", "abcdef\u{1B}", "abcd"] {
            var cut = ScreenBuffer(width: 6, height: 1, fill: Cell(grapheme: "#"))
            let result = cut.writeCells(text, x: 1, y: 0, style: .plain, clip: Rect(x: 1, y: 0, width: 4, height: 1))
            #expect(cut.text(ofRow: 0) == "#abcd#")
            #expect(result.end == 5 && result.truncated == (text != "abcd"), "\(text)")
        }
    }

    /// A run written in pieces draws what one `write(_:x:y:width:style:)` of the joined pieces draws: the same cells,
    /// the same cut and padding, over random pieces (ASCII, wide, marked, controls), widths and what was there.
    @Test func aRunOfPiecesDrawsTheJoinedText() {
        var generator = SeededGenerator(seed: 0x7E47)
        func next(_ bound: Int) -> Int { Int(generator.next() % UInt64(bound)) }
        let tokens = ["a", "bc", " ", "漢", "字x", "e\u{301}", "\u{1B}[1m", "…", "🔥", "ab cd ef", "", "[N-503] "]
        for _ in 0..<3_000 {
            let pieces = (0..<next(6)).map { _ in (0..<next(4)).map { _ in tokens[next(tokens.count)] }.joined() }
            let (x, width) = (next(4), next(24))
            var before = ScreenBuffer(width: 30, height: 1, fill: Cell(grapheme: "#"))
            before.write(String(repeating: "字", count: next(16)), x: next(3), y: 0, style: .plain)
            var joined = before
            joined.write(pieces.joined(), x: x, y: 0, width: width, style: .plain)
            var run = TextRun(x: x, y: 0, width: width, style: .plain)
            var pieced = before
            for piece in pieces { run.append(piece, into: &pieced) }
            run.finish(into: &pieced)
            #expect(pieced == joined, "\(pieces) at \(x), \(width)")
        }
    }

    @Test func rawControlCharactersNeverReachCells() {
        var buffer = ScreenBuffer(width: 20, height: 1)
        buffer.write("a\u{1B}[2Jb\u{9B}", x: 0, y: 0, style: .plain)
        #expect(buffer.text(ofRow: 0).hasPrefix("a␛[2Jb"))
        #expect(buffer.cells.allSatisfy { $0.grapheme.unicodeScalars.allSatisfy { !Sanitizer.isUnsafe($0) } })
    }

    @Test func formats() {
        #expect(Format.age(3.9) == "3s")
        #expect(Format.age(150) == "2m")
        #expect(Format.age(-5) == "now")
        #expect(Format.uptime(754) == "00:12:34")
        #expect(Format.count(1_284_000) == "1,284,000")
        #expect(Format.duration(.milliseconds(142)) == "142ms")
        #expect(Format.duration(.milliseconds(1250)) == "1.25s")
        #expect(Format.clock(fixtureStart) == "09:26:53")
    }

    @Test func sparklines() {
        #expect(Sparkline.render([0, 1, 2, 3, 4, 8], width: 10, unicode: false) == " :-=+@")
        #expect(Sparkline.render([0, 0, 4, 4], width: 2, unicode: true) == "⠀⣿")
        #expect(Sparkline.render(Array(repeating: 1, count: 60), width: 10, unicode: true).count == 10)
        #expect(Sparkline.render([], width: 10, unicode: true).isEmpty)
        #expect(Sparkline.render([-3, 5, 0], width: 10, unicode: false) == " @ ")
        #expect(Sparkline.render([4, 0, 4], width: 10, unicode: true) == "⢸⢸")
    }

    /// The list rows put a sparkline's cells straight into the buffer: the same cells, in the same style, as writing
    /// its text padded to the width.
    @Test func drawnSparklinesAreTheWrittenText() {
        let style = CellStyle(foreground: .indexed(1), background: .indexed(4))
        let series: [[Int]] = [[], [0], [7], [1, 2, 3], [-4, 9, 0, 3], Array(0..<60), Array(repeating: 0, count: 60)]
        for values in series {
            for width in [1, 2, 5, 12, 20, 40] {
                for unicode in [true, false] {
                    var written = ScreenBuffer(width: 50, height: 1)
                    written.write(
                        Sparkline.render(values, width: width, unicode: unicode), x: 3, y: 0, width: width,
                        style: style)
                    var drawn = ScreenBuffer(width: 50, height: 1)
                    Sparkline.draw(values, width: width, unicode: unicode, x: 3, y: 0, style: style, into: &drawn)
                    #expect(drawn == written, "\(values) in \(width) columns, unicode \(unicode)")
                }
            }
        }
        // At the buffer's right edge nothing is written past it.
        var edge = ScreenBuffer(width: 10, height: 1)
        Sparkline.draw(Array(1...20), width: 20, unicode: false, x: 6, y: 0, style: style, into: &edge)
        #expect(edge.text(ofRow: 0) == "      ..::")
    }

    @Test func countsGroupThousandsByBytes() {
        #expect(Format.count(0) == "0")
        #expect(Format.count(999) == "999")
        #expect(Format.count(1_000) == "1,000")
        #expect(Format.count(-1_234_567) == "-1,234,567")
        #expect(Format.count(-12) == "-12")
        #expect(Format.count(UInt64.max) == "18,446,744,073,709,551,615")
        #expect(Format.count(Int64.min) == "-9,223,372,036,854,775,808")
        // Past 64 bits, grouped alike; zeros inside a group are kept.
        #expect(Format.count(Int128(UInt64.max) * 1000 + 5) == "18,446,744,073,709,551,615,005")
        #expect(Format.count(-Int128(UInt64.max) * 1000) == "-18,446,744,073,709,551,615,000")
        // Every width of number, against grouping its decimal text by hand.
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let value = Int64.random(in: Int64.min...Int64.max, using: &generator) >> Int.random(in: 0..<63)
            let digits = Array(String(value.magnitude))
            var grouped = ""
            for (index, digit) in digits.enumerated() {
                if index > 0, (digits.count - index) % 3 == 0 { grouped.append(",") }
                grouped.append(digit)
            }
            #expect(Format.count(value) == (value < 0 ? "-" : "") + grouped)
        }
    }
}

/// A producer's numbers are drawn whatever their size: a regression test for a trap converting 1e300 to Int64.
struct HugeNumberTests {
    @Test func hugeAndTinyValuesFormatWithoutTrapping() {
        for value in [1e300, -1e300, 9.3e18, 1e15, 123_456.789, 0.000_1, -2.5, Double.greatestFiniteMagnitude] {
            #expect(!Format.number(value).isEmpty)
            #expect(!Format.measurement(value, unit: "ms").isEmpty)
            #expect(!Format.measurement(value, unit: "By").isEmpty)
            #expect(!Format.measurement(value, unit: "req").isEmpty)
        }
        #expect(Format.number(1e300) == "1.00e300")
        #expect(Format.number(2.5e15) == "2.50e15")
        #expect(Format.number(1_500_000) == "1.5M")
    }
}

struct MetricsSeriesRowsTests {
    /// With room for a single series line, the pane shows the most recent series rather than a bare `+N more`.
    @Test func aSingleRowShowsASeries() {
        var buffer = ScreenBuffer(width: 60, height: 3)
        let end = MetricsPane.drawSeries(
            MetricSeries.fixtures, x: 0, y: 0, width: 60, bottom: 2, into: &buffer,
            palette: Palette(theme: .default, depth: .colors256))
        #expect(end == 2)
        #expect(buffer.text(ofRow: 1).hasPrefix("auth.login.duration"))
    }
}
