/// A colour as the terminal will show it, already reduced to what the terminal supports.
public enum TerminalColor: Sendable, Hashable {
    /// The terminal's own default foreground or background.
    case `default`
    /// A palette index: 0–7 the basic ANSI colours, 8–15 their bright variants, 16–255 the xterm cube and greys.
    case indexed(UInt8)
    /// A 24-bit colour, only produced for truecolor terminals.
    case rgb(UInt8, UInt8, UInt8)
}

/// Text attributes of a cell.
public struct CellAttributes: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let bold = CellAttributes(rawValue: 1 << 0)
    public static let dim = CellAttributes(rawValue: 1 << 1)
    public static let underline = CellAttributes(rawValue: 1 << 2)
    public static let reverse = CellAttributes(rawValue: 1 << 3)
}

/// Foreground, background and attributes of a cell.
public struct CellStyle: Sendable, Hashable {
    public var foreground: TerminalColor
    public var background: TerminalColor
    public var attributes: CellAttributes

    public init(
        foreground: TerminalColor = .default, background: TerminalColor = .default,
        attributes: CellAttributes = []
    ) {
        self.foreground = foreground
        self.background = background
        self.attributes = attributes
    }

    /// The terminal's default colours, no attributes.
    public static let plain = CellStyle()
}

/// One terminal cell: a grapheme and its style.
///
/// A wide grapheme (CJK, most emoji) occupies two cells: the first holds the grapheme with `width == 2`,
/// the second is a continuation cell with an empty grapheme and `width == 0`.
public struct Cell: Sendable, Hashable {
    public var grapheme: String
    public var width: UInt8
    public var style: CellStyle

    public init(grapheme: String = " ", width: UInt8 = 1, style: CellStyle = .plain) {
        self.grapheme = grapheme
        self.width = width
        self.style = style
    }

    /// A blank cell in the plain style.
    public static let blank = Cell()

    /// Whether this cell is the right half of a wide grapheme.
    public var isContinuation: Bool { width == 0 }
}

/// A cell that changed between two frames, at column `x`, row `y`.
public struct CellChange: Sendable, Hashable {
    public var x: Int
    public var y: Int
    public var cell: Cell

    public init(x: Int, y: Int, cell: Cell) {
        self.x = x
        self.y = y
        self.cell = cell
    }
}

/// A rectangular grid of cells: one frame of the dashboard, drawn in memory.
public struct ScreenBuffer: Sendable, Hashable {
    public private(set) var width: Int
    public private(set) var height: Int
    public internal(set) var cells: [Cell]

    /// A buffer of `width` × `height` cells, all `fill`. Negative sizes become 0.
    public init(width: Int, height: Int, fill: Cell = .blank) {
        self.width = max(0, width)
        self.height = max(0, height)
        self.cells = Array(repeating: fill, count: self.width * self.height)
    }

    /// The whole buffer as a rectangle at the origin.
    public var area: Rect { Rect(x: 0, y: 0, width: width, height: height) }

    /// The cell at column `x`, row `y`; `nil` outside the buffer.
    public subscript(x: Int, y: Int) -> Cell? {
        get {
            guard x >= 0, y >= 0, x < width, y < height else { return nil }
            return cells[y * width + x]
        }
    }

    /// Replaces the cell at (`x`, `y`); writes outside the buffer are ignored.
    public mutating func set(_ cell: Cell, x: Int, y: Int) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        cells[y * width + x] = cell
    }

    /// The cells that differ between `previous` and `self`, row by row. When the sizes differ every cell is returned.
    public func changes(since previous: ScreenBuffer) -> [CellChange] {
        var result: [CellChange] = []
        if previous.width != width || previous.height != height {
            result.reserveCapacity(cells.count)
            for y in 0..<height {
                for x in 0..<width { result.append(CellChange(x: x, y: y, cell: cells[y * width + x])) }
            }
            return result
        }
        for index in cells.indices where cells[index] != previous.cells[index] {
            result.append(CellChange(x: index % width, y: index / width, cell: cells[index]))
        }
        return result
    }
}

/// A rectangle of cells: origin at the top-left, sizes never negative.
public struct Rect: Sendable, Hashable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    public var isEmpty: Bool { width == 0 || height == 0 }
    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
}
