/// A grid of cells to plot lines on: in braille each cell holds 2 × 4 dots, in ASCII one mark. Points of one line
/// are joined by straight segments; a missing value breaks the line. Where lines cross, a cell keeps the dots of
/// both and the colour of the one drawn last.
///
/// ```swift
/// var canvas = ChartCanvas(width: 20, height: 4, unicode: true)
/// canvas.plot([0, 1, 4, nil, 2], range: 0...4, line: 0)
/// canvas.text(row: 0)   // the top row's glyphs
/// ```
struct ChartCanvas {
    /// Cells across and down.
    let width: Int
    let height: Int
    /// Braille (2 × 4 dots a cell) or ASCII (one mark a cell).
    let unicode: Bool
    /// Each cell's braille dots (bits of U+2800), or in ASCII its mark.
    private(set) var dots: [UInt8]
    /// Each cell's line (the last drawn into it), or -1.
    private(set) var lines: [Int]

    /// The marks of lines 0, 1, 2… in ASCII.
    static let marks: [UInt8] = Array("*+o#x".utf8)

    /// An empty canvas of `width` × `height` cells.
    init(width: Int, height: Int, unicode: Bool) {
        self.width = max(0, width)
        self.height = max(0, height)
        self.unicode = unicode
        dots = Array(repeating: 0, count: self.width * self.height)
        lines = Array(repeating: -1, count: self.width * self.height)
    }

    /// Dots across and down.
    var dotWidth: Int { unicode ? width * 2 : width }
    var dotHeight: Int { unicode ? height * 4 : height }

    /// Plots `values` (evenly spaced from the left edge to the right, oldest first) scaled to `range` as line
    /// number `line`.
    mutating func plot(_ values: [Double?], range: ClosedRange<Double>, line: Int) {
        guard dotWidth > 0, dotHeight > 0, !values.isEmpty else { return }
        let span = range.upperBound - range.lowerBound
        func point(_ index: Int, _ value: Double) -> (x: Int, y: Int) {
            let x =
                values.count == 1
                ? dotWidth - 1 : (index * (dotWidth - 1) + (values.count - 1) / 2) / (values.count - 1)
            let share = span > 0 ? (value - range.lowerBound) / span : 0.5
            let clamped = min(1, max(0, share.isFinite ? share : 0))
            let y = Int(((1 - clamped) * Double(dotHeight - 1)).rounded())
            return (x, y)
        }
        var previous: (x: Int, y: Int)?
        for (index, value) in values.enumerated() {
            guard let value, value.isFinite else {
                previous = nil
                continue
            }
            let current = point(index, value)
            if let previous {
                segment(from: previous, to: current, line: line)
            } else {
                set(current.x, current.y, line: line)
            }
            previous = current
        }
    }

    /// A straight run of dots (Bresenham's) from `a` to `b`, both ends included.
    private mutating func segment(from a: (x: Int, y: Int), to b: (x: Int, y: Int), line: Int) {
        var (x, y) = a
        let dx = abs(b.x - a.x)
        let dy = -abs(b.y - a.y)
        let sx = a.x < b.x ? 1 : -1
        let sy = a.y < b.y ? 1 : -1
        var error = dx + dy
        while true {
            set(x, y, line: line)
            if x == b.x && y == b.y { return }
            let doubled = 2 * error
            if doubled >= dy {
                error += dy
                x += sx
            }
            if doubled <= dx {
                error += dx
                y += sy
            }
        }
    }

    private mutating func set(_ x: Int, _ y: Int, line: Int) {
        guard x >= 0, y >= 0, x < dotWidth, y < dotHeight else { return }
        let cell = unicode ? (y / 4) * width + x / 2 : y * width + x
        if unicode {
            // Braille's dot numbering: the left column is bits 0, 1, 2 and 6, the right 3, 4, 5 and 7.
            let bits: [[UInt8]] = [[0x01, 0x02, 0x04, 0x40], [0x08, 0x10, 0x20, 0x80]]
            dots[cell] |= bits[x % 2][y % 4]
        } else {
            dots[cell] = Self.marks[line % Self.marks.count]
        }
        lines[cell] = line
    }

    /// The glyph of the cell at (`x`, `y`), `nil` when nothing was drawn there.
    func glyph(x: Int, y: Int) -> (text: String, line: Int)? {
        let cell = y * width + x
        guard x >= 0, y >= 0, x < width, y < height, lines[cell] >= 0 else { return nil }
        if unicode { return (String(Unicode.Scalar(0x2800 + UInt32(dots[cell]))!), lines[cell]) }
        return (String(Unicode.Scalar(dots[cell])), lines[cell])
    }

    /// Row `row` as text, blanks where nothing was drawn.
    func text(row: Int) -> String {
        (0..<width).map { glyph(x: $0, y: row)?.text ?? " " }.joined()
    }
}
