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
            put(StoredCell(glyph: Self.ellipsis, width: 1, style: style), x: x + width - 1, y: y)
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
        let limit = bounds.maxX
        if x >= bounds.x {
            // Fast path: printable ASCII needs no grapheme breaking, width lookup or escaping; its cells are stored
            // straight from the bytes.
            let written = text.utf8.withContiguousStorageIfAvailable { bytes in
                writeASCII(bytes, x: x, y: y, limit: limit, style: style)
            }
            switch written {
            case .some(.some(let result)): return result
            case .some(.none): break  // not all printable ASCII
            case .none:
                if let result = writeASCII(Array(text.utf8), x: x, y: y, limit: limit, style: style) { return result }
            }
        }
        return writeScalars(text, x: x, y: y, style: style, bounds: bounds)
    }

    /// Writes `bytes` from `x` (inside the clip) up to `limit` when those that fit are all printable ASCII and the
    /// first that does not is ASCII too; `nil`, and nothing written, otherwise.
    ///
    /// Bytes past the edge are never drawn, so they are not read: a long message costs what its visible part costs.
    /// The one right after the edge is, since a combining mark there would join the last cell (as the general writer
    /// places it).
    private mutating func writeASCII(
        _ bytes: some Collection<UInt8>, x: Int, y: Int, limit: Int, style: CellStyle
    ) -> (end: Int, truncated: Bool)? {
        let room = max(0, limit - x)
        var count = 0
        var truncated = false
        for byte in bytes {
            if count == room {
                guard byte < 0x80 else { return nil }
                truncated = true
                break
            }
            guard byte >= 0x20, byte < 0x7F else { return nil }
            count += 1
        }
        guard count > 0 else { return (x, truncated) }
        fixWideGlyphEdges(row: y, from: x, to: x + count)
        // The style is packed once for the run; each cell takes its byte.
        var cell = StoredCell(ascii: 0x20, style: style)
        // `x..<x + count` is inside row `y` (the clip is inside the buffer): one uniqueness check for the run.
        storage.withUnsafeMutableBufferPointer { cells in
            var index = y * width + x
            for byte in bytes.prefix(count) {
                cell.glyph = StoredCell.asciiGlyph(byte)
                cells[index] = cell
                index += 1
            }
        }
        return (x + count, truncated)
    }

    /// The general writer: cells as ncurses places them (see ``DisplayWidth``): a scalar that takes columns with the
    /// zero-width scalars after it, so the buffer's columns are the terminal's, whatever the graphemes.
    private mutating func writeScalars(
        _ text: some StringProtocol, x: Int, y: Int, style: CellStyle, bounds: Rect
    ) -> (end: Int, truncated: Bool) {
        var column = x
        let limit = bounds.maxX
        var cell = GlyphPacker()
        // The cell's text when it does not fit inline (a letter with many combining marks).
        var long: String?
        var cellWidth = 0
        var scalars = text.unicodeScalars.makeIterator()
        var next = scalars.next()
        while let scalar = next {
            next = scalars.next()
            cell = GlyphPacker()
            long = nil
            if scalar.value >= 0x20, scalar.value < 0x7F {
                // Printable ASCII: one column, safe as it is.
                _ = cell.append(UInt8(truncatingIfNeeded: scalar.value))
                cellWidth = 1
            } else if Sanitizer.isUnsafe(scalar) {
                // Unsanitised control text: show its picture (or a replacement), never the control itself.
                let picture = Sanitizer.sanitize(String(scalar))
                let shown = picture.unicodeScalars.count == 1 ? picture.unicodeScalars.first! : "\u{FFFD}"
                _ = cell.append(shown)
                cellWidth = 1
            } else {
                let width = DisplayWidth.width(of: scalar)
                // A zero-width scalar with no cell before it in this text cannot be placed: leave it out.
                guard width > 0 else { continue }
                _ = cell.append(scalar)
                cellWidth = width
            }
            // The zero-width scalars that follow join this cell, as ncurses joins them.
            while let following = next, following.value >= 0x300, !Sanitizer.isUnsafe(following),
                DisplayWidth.width(of: following) == 0
            {
                // Joiners and variation selectors are left out: the terminal must not join what ncurses placed apart.
                if !Sanitizer.isShaping(following.value) {
                    if long != nil {
                        long?.unicodeScalars.append(following)
                    } else if !cell.append(following) {
                        long = StoredCell(glyph: cell.glyph, width: 1, style: style).inlineGrapheme
                        long?.unicodeScalars.append(following)
                    }
                }
                next = scalars.next()
            }
            if column >= limit { return (column, true) }
            if column < bounds.x {
                column += cellWidth
                continue
            }
            if cellWidth == 2 && column + 1 >= limit {
                put(StoredCell(ascii: 0x20, style: style), x: column, y: y)
                return (column + 1, true)
            }
            var packed = cell.glyph
            if let long { packed = glyph(long) }
            put(StoredCell(glyph: packed, width: UInt8(cellWidth), style: style), x: column, y: y)
            if cellWidth == 2 {
                put(StoredCell(glyph: 0, width: 0, style: style), x: column + 1, y: y)
            }
            column += cellWidth
        }
        return (column, false)
    }

    /// Fills `rect` with blanks in `style`.
    public mutating func fill(_ rect: Rect, style: CellStyle) {
        fill(rect, with: StoredCell(ascii: 0x20, style: style))
    }

    /// Fills `rect` with copies of the one-column `cell`, mending wide glyphs cut at its edges.
    mutating func fill(_ rect: Rect, with cell: StoredCell) {
        let r = rect.intersection(area)
        guard !r.isEmpty else { return }
        for row in r.y..<r.maxY { fixWideGlyphEdges(row: row, from: r.x, to: r.maxX) }
        // `r` is inside the buffer: each row's run is filled in one go.
        let width = width
        storage.withUnsafeMutableBufferPointer { cells in
            for row in r.y..<r.maxY {
                let start = row * width
                UnsafeMutableBufferPointer(rebasing: cells[(start + r.x)..<(start + r.maxX)]).update(repeating: cell)
            }
        }
    }

    /// Writes one-column cells of `glyphs` in `style` from (`x`, `y`) rightwards, clipped to the buffer: one edge
    /// mending and one uniqueness check for the run, where ``put(_:x:y:)`` does both for each cell. The caller
    /// vouches that each glyph is one safe, one-column character (a sparkline's).
    mutating func writeRun(_ glyphs: UnsafeBufferPointer<UInt64>, x: Int, y: Int, style: CellStyle) {
        let run = Rect(x: x, y: y, width: glyphs.count, height: 1).intersection(area)
        guard !run.isEmpty else { return }
        fixWideGlyphEdges(row: y, from: run.x, to: run.maxX)
        var cell = StoredCell(ascii: 0x20, style: style)
        let width = width
        storage.withUnsafeMutableBufferPointer { cells in
            for column in run.x..<run.maxX {
                cell.glyph = glyphs[column - x]
                cells[y * width + column] = cell
            }
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
        func cell(_ glyph: String) -> StoredCell {
            StoredCell(glyph: StoredCell.inlineGlyph(glyph) ?? 0, width: 1, style: borderStyle)
        }
        let horizontal = cell(glyphs.h)
        let vertical = cell(glyphs.v)
        let left = max(0, rect.x)
        let right = min(width, rect.maxX)
        for (row, corners) in [(rect.y, (glyphs.tl, glyphs.tr)), (rect.maxY - 1, (glyphs.bl, glyphs.br))] {
            guard row >= 0, row < height else { continue }
            if left < right { fill(Rect(x: left, y: row, width: right - left, height: 1), with: horizontal) }
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
        for x in 0..<width where storage[y * width + x].width != 0 { line += grapheme(of: storage[y * width + x]) }
        return line
    }

    /// The glyph of `…`.
    static let ellipsis = StoredCell.inlineGlyph("…") ?? 0

    /// Sets one cell, keeping wide glyphs whole: overwriting half of a wide glyph blanks its other half.
    mutating func put(_ cell: StoredCell, x: Int, y: Int) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        if cell.width != 1 { mayHoldWide = true }
        let index = y * width + x
        let old = storage[index]
        if old.width == 0, x > 0, storage[index - 1].width == 2 {
            storage[index - 1] = StoredCell(ascii: 0x20, style: storage[index - 1].style)
        }
        if old.width == 2, cell.width != 2, x + 1 < width, storage[index + 1].width == 0 {
            storage[index + 1] = StoredCell(ascii: 0x20, style: storage[index + 1].style)
        }
        storage[index] = cell
    }

    private mutating func fixWideGlyphEdges(row: Int, from: Int, to: Int) {
        guard mayHoldWide else { return }
        let start = row * width
        if from > 0, storage[start + from].width == 0, storage[start + from - 1].width == 2 {
            storage[start + from - 1] = StoredCell(ascii: 0x20, style: storage[start + from - 1].style)
        }
        if to < width, storage[start + to].width == 0 {
            storage[start + to] = StoredCell(ascii: 0x20, style: storage[start + to].style)
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
