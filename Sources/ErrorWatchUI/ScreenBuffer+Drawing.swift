/// Text and box drawing into a ``ScreenBuffer``, clipped to a rectangle.
///
/// Every writer clips: nothing is ever written outside the buffer or outside the `clip` rectangle, a wide glyph
/// that does not fit before the right edge is replaced by a blank, and a control character is written as its
/// control picture (`␛`), so even unsanitised text cannot reach the terminal as an escape sequence.
extension ScreenBuffer {
    /// Writes `text` starting at (`x`, `y`), at most up to `clip`'s right edge (and the buffer's).
    /// Returns the column after the last written cell.
    ///
    /// ```swift
    /// var buffer = ScreenBuffer(width: 10, height: 1)
    /// buffer.write("漢字 ok", x: 0, y: 0, style: .plain)   // returns 7
    /// ```
    @discardableResult
    public mutating func write(
        _ text: some StringProtocol, x: Int, y: Int, style: CellStyle, clip: Rect? = nil
    ) -> Int {
        writeCells(text, x: x, y: y, style: style, clip: clip).end
    }

    /// Writes `text` truncated with `…` to `width` columns, then pads with blanks to exactly `width` columns.
    /// One pass over the text, stopping at the edge: a long message costs no more than a short one.
    public mutating func write(
        _ text: some StringProtocol, x: Int, y: Int, width: Int, style: CellStyle, padding: Bool = true
    ) {
        guard width > 0 else { return }
        let clip = Rect(x: x, y: y, width: width, height: 1)
        let (end, truncated) = writeCells(text, x: x, y: y, style: style, clip: clip)
        if truncated {
            put(Cell(grapheme: "…", width: 1, style: style), x: x + width - 1, y: y)
        } else if padding, end < x + width {
            fill(Rect(x: end, y: y, width: x + width - end, height: 1), style: style)
        }
    }

    /// The writer behind both `write`s: returns the column after the last cell and whether text was cut.
    mutating func writeCells(
        _ text: some StringProtocol, x: Int, y: Int, style: CellStyle, clip: Rect?
    ) -> (end: Int, truncated: Bool) {
        let bounds = clip.map { $0.intersection(area) } ?? area
        guard y >= bounds.y, y < bounds.maxY else { return (x, false) }
        var column = x
        let limit = bounds.maxX
        if column >= bounds.x, let ascii = Self.printableASCII(text) {
            // Fast path: printable ASCII needs no grapheme breaking, width lookup or escaping.
            for byte in ascii {
                if column >= limit { return (column, true) }
                put(Cell(grapheme: String(Unicode.Scalar(byte)), width: 1, style: style), x: column, y: y)
                column += 1
            }
            return (column, false)
        }
        // Cells as ncurses places them (see ``DisplayWidth``): a scalar that takes columns with the zero-width
        // scalars after it, so the buffer's columns are the terminal's, whatever the graphemes.
        var cell = ""
        var cellWidth = 0
        var scalars = text.unicodeScalars.makeIterator()
        var next = scalars.next()
        while let scalar = next {
            next = scalars.next()
            if Sanitizer.isUnsafe(scalar) {
                // Unsanitised control text: show its picture (or a replacement), never the control itself.
                let picture = Sanitizer.sanitize(String(scalar))
                cell = picture.unicodeScalars.count == 1 ? picture : "\u{FFFD}"
                cellWidth = 1
            } else {
                let width = DisplayWidth.width(of: scalar)
                // A zero-width scalar with no cell before it in this text cannot be placed: leave it out.
                guard width > 0 else { continue }
                cell = String(scalar)
                cellWidth = width
            }
            // The zero-width scalars that follow join this cell, as ncurses joins them.
            while let following = next, !Sanitizer.isUnsafe(following), following.value >= 0x300,
                DisplayWidth.width(of: following) == 0
            {
                // Joiners and variation selectors are left out: the terminal must not join what ncurses placed apart.
                if !Sanitizer.isShaping(following.value) { cell.unicodeScalars.append(following) }
                next = scalars.next()
            }
            if column >= limit { return (column, true) }
            if column < bounds.x {
                column += cellWidth
                continue
            }
            if cellWidth == 2 && column + 1 >= limit {
                put(Cell(grapheme: " ", width: 1, style: style), x: column, y: y)
                return (column + 1, true)
            }
            put(Cell(grapheme: cell, width: UInt8(cellWidth), style: style), x: column, y: y)
            if cellWidth == 2 {
                put(Cell(grapheme: "", width: 0, style: style), x: column + 1, y: y)
            }
            column += cellWidth
        }
        return (column, false)
    }

    /// The UTF-8 of `text` when it is all printable ASCII, else `nil`.
    static func printableASCII(_ text: some StringProtocol) -> String.UTF8View? {
        let utf8 = String(text).utf8
        for byte in utf8 where byte < 0x20 || byte >= 0x7F { return nil }
        return utf8
    }

    /// Fills `rect` with blanks in `style`.
    public mutating func fill(_ rect: Rect, style: CellStyle) {
        let r = rect.intersection(area)
        guard !r.isEmpty else { return }
        let blank = Cell(grapheme: " ", width: 1, style: style)
        for row in r.y..<r.maxY {
            fixWideGlyphEdges(row: row, from: r.x, to: r.maxX)
            let start = row * width
            for column in r.x..<r.maxX { cells[start + column] = blank }
        }
    }

    /// Draws a box border around `rect` with `title` in its top edge: `┌ Errors ───┐`, or `+ Errors ---+`
    /// without Unicode.
    public mutating func drawBox(
        _ rect: Rect, title: String, borderStyle: CellStyle, titleStyle: CellStyle, unicode: Bool
    ) {
        guard rect.width >= 2, rect.height >= 2 else { return }
        let glyphs: (h: String, v: String, tl: String, tr: String, bl: String, br: String) =
            unicode ? ("─", "│", "┌", "┐", "└", "┘") : ("-", "|", "+", "+", "+", "+")
        // Cells are set directly: borders are most of a frame's cells, and going through the text writer would
        // run grapheme breaking over every one of them.
        func cell(_ glyph: String) -> Cell { Cell(grapheme: glyph, width: 1, style: borderStyle) }
        let horizontal = cell(glyphs.h)
        let vertical = cell(glyphs.v)
        let left = max(0, rect.x)
        let right = min(width, rect.maxX)
        for (row, corners) in [(rect.y, (glyphs.tl, glyphs.tr)), (rect.maxY - 1, (glyphs.bl, glyphs.br))] {
            guard row >= 0, row < height else { continue }
            if left < right { for column in left..<right { put(horizontal, x: column, y: row) } }
            put(cell(corners.0), x: rect.x, y: row)
            put(cell(corners.1), x: rect.maxX - 1, y: row)
        }
        if rect.height > 2 {
            for row in (rect.y + 1)..<(rect.maxY - 1) {
                put(vertical, x: rect.x, y: row)
                put(vertical, x: rect.maxX - 1, y: row)
            }
        }
        if rect.width >= 6, !title.isEmpty {
            write(
                " \(DisplayWidth.truncate(title, to: rect.width - 4)) ", x: rect.x + 1, y: rect.y,
                width: rect.width - 2,
                style: titleStyle, padding: false)
        }
    }

    /// The text of row `y`, continuation cells skipped.
    public func text(ofRow y: Int) -> String {
        guard y >= 0, y < height else { return "" }
        var line = ""
        for x in 0..<width where !cells[y * width + x].isContinuation { line += cells[y * width + x].grapheme }
        return line
    }

    /// Sets one cell, keeping wide glyphs whole: overwriting half of a wide glyph blanks its other half.
    mutating func put(_ cell: Cell, x: Int, y: Int) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        let index = y * width + x
        let old = cells[index]
        if old.width == 0, x > 0, cells[index - 1].width == 2 {
            cells[index - 1] = Cell(grapheme: " ", width: 1, style: cells[index - 1].style)
        }
        if old.width == 2, cell.width != 2, x + 1 < width, cells[index + 1].width == 0 {
            cells[index + 1] = Cell(grapheme: " ", width: 1, style: cells[index + 1].style)
        }
        cells[index] = cell
    }

    private mutating func fixWideGlyphEdges(row: Int, from: Int, to: Int) {
        let start = row * width
        if from > 0, cells[start + from].width == 0, cells[start + from - 1].width == 2 {
            cells[start + from - 1] = Cell(grapheme: " ", width: 1, style: cells[start + from - 1].style)
        }
        if to < width, cells[start + to].width == 0 {
            cells[start + to] = Cell(grapheme: " ", width: 1, style: cells[start + to].style)
        }
    }
}

extension Rect {
    /// The overlap of two rectangles; empty (at `self`'s origin) when they do not overlap.
    public func intersection(_ other: Rect) -> Rect {
        let left = max(x, other.x)
        let top = max(y, other.y)
        let right = min(maxX, other.maxX)
        let bottom = min(maxY, other.maxY)
        guard right > left, bottom > top else { return Rect(x: left, y: top, width: 0, height: 0) }
        return Rect(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// The rectangle shrunk by `margin` on every side.
    public func inset(by margin: Int) -> Rect {
        Rect(x: x + margin, y: y + margin, width: width - 2 * margin, height: height - 2 * margin)
    }
}
