import ErrorStreaming
import Testing

@testable import ErrorWatchUI

/// The buffer stores cells packed (``StoredCell``: up to 7 UTF-8 bytes inline, longer graphemes in an overflow list);
/// what it hands out, compares and diffs must be what was drawn, whatever the grapheme.
struct PackedCellTests {
    /// A letter with four combining marks: 9 UTF-8 bytes, more than a cell holds inline.
    let long = "a\u{301}\u{302}\u{303}\u{304}"

    @Test func graphemesOfEveryLengthComeBackAsDrawn() {
        let graphemes = ["x", "é", "e\u{301}", "漢", "🔥", "─", "…", long, "e\u{301}\u{302}\u{303}", ""]
        var buffer = ScreenBuffer(width: graphemes.count, height: 1)
        for (x, grapheme) in graphemes.enumerated() {
            buffer.set(Cell(grapheme: grapheme, width: 1, style: .plain), x: x, y: 0)
        }
        #expect(buffer.cells.map(\.grapheme) == graphemes)
        for (x, grapheme) in graphemes.enumerated() { #expect(buffer[x, 0]?.grapheme == grapheme) }
        #expect(StoredCell.inlineGlyph("e\u{301}\u{302}\u{303}") != nil, "7 bytes fit")
        #expect(StoredCell.inlineGlyph("e\u{301}\u{302}\u{303}x") == nil, "8 do not")
    }

    /// Width and style share one word: every colour case, attribute and width comes back as stored, and a cell is
    /// two words.
    @Test(arguments: [
        CellStyle.plain,
        CellStyle(foreground: .indexed(0), background: .indexed(255), attributes: [.bold, .reverse]),
        CellStyle(foreground: .rgb(255, 0, 128), background: .default, attributes: [.dim, .underline]),
        CellStyle(foreground: .default, background: .rgb(1, 2, 3), attributes: CellAttributes(rawValue: 0xFF)),
        CellStyle(foreground: .rgb(255, 255, 255), background: .rgb(255, 255, 255), attributes: []),
    ])
    func widthAndStyleComeBackAsStored(style: CellStyle) {
        #expect(MemoryLayout<StoredCell>.stride == 16)
        for width: UInt8 in [0, 1, 2] {
            var cell = StoredCell(glyph: 0x0100_0000_0000_0078, width: width, style: style)
            #expect(cell.width == width)
            #expect(cell.style == style)
            #expect(cell.looksLike(StoredCell(glyph: 0, width: width, style: style)))
            #expect(!cell.looksLike(StoredCell(glyph: 0, width: width, style: .plain)) || style == .plain)
            cell.style = .plain
            #expect(cell.width == width, "a new style keeps the width")
            cell.width = 2
            cell.style = style
            #expect(cell.width == 2 && cell.style == style, "and a new width the style")
        }
    }

    @Test func theWriterKeepsLongGraphemesWhole() {
        var buffer = ScreenBuffer(width: 8, height: 1)
        let end = buffer.write("\(long)b\(long)", x: 0, y: 0, style: .plain)
        #expect(end == 3)
        #expect(buffer.text(ofRow: 0) == "\(long)b\(long)     ")
        #expect(buffer.cells[0].grapheme == long)
        #expect(buffer.cells[2].grapheme == long)
    }

    /// Two buffers whose long graphemes sit at different overflow indices are equal when they show the same, and
    /// hash alike; the diff sees no change.
    @Test func equalityAndDiffReadThroughTheOverflowList() {
        var first = ScreenBuffer(width: 4, height: 1)
        first.write("\(long)\(long)", x: 0, y: 0, style: .plain)
        var second = ScreenBuffer(width: 4, height: 1)
        second.set(Cell(grapheme: "a\u{301}\u{302}\u{303}\u{305}", width: 1), x: 0, y: 0)
        second.write("\(long)\(long)", x: 0, y: 0, style: .plain)
        #expect(second.overflow.count > first.overflow.count, "the same text at other overflow indices")
        #expect(first == second)
        #expect(first.hashValue == second.hashValue)
        #expect(second.changes(since: first).isEmpty)
        second.write("e\u{301}\u{302}\u{303}\u{306}", x: 1, y: 0, style: .plain)
        #expect(first != second)
        #expect(second.changes(since: first).map(\.x) == [1])
        #expect(second.changes(since: first).first?.cell.grapheme == "e\u{301}\u{302}\u{303}\u{306}")
    }

    /// A buffer drawn into over and over keeps its overflow list bounded, and its cells right.
    @Test func theOverflowListStaysBounded() {
        var buffer = ScreenBuffer(width: 3, height: 2)
        for round in 0..<2_000 {
            let marks = String(repeating: "\u{301}", count: 4 + round % 3)
            buffer.write("a\(marks)b", x: round % 2, y: round % 2, style: .plain)
        }
        #expect(buffer.overflow.count <= 2 * 6 + 64)
        #expect(buffer.cells.filter { $0.grapheme.unicodeScalars.count > 4 }.count == 2)
        #expect(buffer[1, 1]?.grapheme == "a" + String(repeating: "\u{301}", count: 4 + 1999 % 3))
    }

    @Test func restyleKeepsTheText() {
        var buffer = ScreenBuffer(width: 6, height: 2)
        buffer.write("ab漢\(long)", x: 0, y: 1, style: .plain)
        let before = buffer.textLines()
        buffer.restyle(Rect(x: -2, y: 1, width: 20, height: 5)) { $0 = $0.adding(.bold) }
        #expect(buffer.textLines() == before)
        #expect(buffer.cells[6..<12].allSatisfy { $0.style.attributes.contains(.bold) })
        #expect(buffer.cells[0..<6].allSatisfy { $0.style == .plain })
    }

    /// The ASCII fast path of `truncate` cuts where the general one does.
    @Test func asciiTruncationMatchesTheGeneralRule() {
        let samples = ["", "a", "abc", "hello world", "tab\there", "cr\r\nlf", String(repeating: "x", count: 40)]
        for text in samples {
            for width in 0...12 {
                #expect(DisplayWidth.truncate(text, to: width) == reference(text, to: width), "\(text) \(width)")
            }
        }
    }

    /// The box-drawing and braille ranges the sanitizer passes without looking them up are safe by the table too.
    @Test func drawingRangesAreSafeByTheTable() {
        for v in UInt32(0x2500)...0x259F { #expect(WidthTable.width(v) >= 0 && !Sanitizer.isInvisible(v)) }
        for v in UInt32(0x2800)...0x28FF { #expect(WidthTable.width(v) >= 0 && !Sanitizer.isInvisible(v)) }
    }

    /// `truncate`'s rule, scalar by scalar: cut before the scalar that would pass `width - 1` columns, then `…`.
    private func reference(_ text: String, to width: Int) -> String {
        guard width > 0 else { return "" }
        let scalars = Array(text.unicodeScalars)
        guard scalars.count > width else { return text }
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars.prefix(width - 1))
        return String(view) + "…"
    }
}
