/// Text written into one row in pieces, as ``ScreenBuffer/write(_:x:y:width:style:padding:)`` writes the pieces
/// joined: each piece after the one before, the whole cut with `…` at the run's end, then padded to it, without
/// joining the pieces into a new string first (a Logs row's code, messages and attempt were copied into one string
/// per row and frame).
///
/// ```swift
/// var run = TextRun(x: 0, y: 0, width: 8, style: .plain)
/// run.append("[N-503] ", into: &buffer)
/// run.append("timeout", into: &buffer)
/// run.finish(into: &buffer)   // "[N-503]…"
/// ```
struct TextRun {
    /// The row.
    let y: Int
    /// The run's first column.
    let start: Int
    /// The column after the run's last.
    let end: Int
    let style: CellStyle
    /// Where the next piece starts.
    private(set) var column: Int
    /// Whether the text was cut: nothing more is written.
    private(set) var isCut = false

    /// A run of `width` columns from (`x`, `y`).
    init(x: Int, y: Int, width: Int, style: CellStyle) {
        self.y = y
        self.start = x
        self.end = x + max(0, width)
        self.style = style
        self.column = x
    }

    /// Writes `piece` where the text has reached; cuts the text with `…` in the last column when it does not fit.
    mutating func append(_ piece: some StringProtocol, into buffer: inout ScreenBuffer) {
        guard !isCut, !piece.isEmpty, end > start else { return }
        guard column < end else { return cut(&buffer) }
        let written = buffer.writeCells(
            piece, x: column, y: y, style: style, clip: Rect(x: column, y: y, width: end - column, height: 1))
        column = written.end
        if written.truncated { cut(&buffer) }
    }

    /// Pads the rest of the run with blanks, unless the text was cut.
    mutating func finish(into buffer: inout ScreenBuffer) {
        guard !isCut, column < end else { return }
        buffer.fill(Rect(x: column, y: y, width: end - column, height: 1), style: style)
        column = end
    }

    private mutating func cut(_ buffer: inout ScreenBuffer) {
        isCut = true
        buffer.put(StoredCell(glyph: ScreenBuffer.ellipsis, width: 1, style: style), x: end - 1, y: y)
    }
}
