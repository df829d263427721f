/// A rectangular grid of cells: one frame of the dashboard, drawn in memory.
///
/// Cells are stored packed (``StoredCell``: the grapheme's bytes inline, no `String` per cell); ``cells``,
/// the subscript and ``changes(since:)`` hand them out as ``Cell`` values.
public struct ScreenBuffer: Sendable, Hashable {
    public private(set) var width: Int
    public private(set) var height: Int
    /// The cells, row by row.
    var storage: [StoredCell]
    /// The graphemes too long to store inline, by the index their cells hold.
    var overflow: [String] = []
    /// Whether a cell not one column wide (a wide glyph or its right half) was ever stored. Until one is, no wide
    /// glyph can be cut by a write, and writes skip looking for one at their edges (most frames hold none). Only
    /// `init`, `set` and `put` store such cells; every other writer stores one-column cells.
    var mayHoldWide = false

    /// A buffer of `width` × `height` cells, all `fill`. Negative sizes become 0.
    public init(width: Int, height: Int, fill: Cell = .blank) {
        self.width = max(0, width)
        self.height = max(0, height)
        self.storage = []
        let stored = store(fill)
        mayHoldWide = stored.width != 1
        self.storage = Array(repeating: stored, count: self.width * self.height)
    }

    /// Every cell, row by row.
    public var cells: [Cell] { storage.map(cell(from:)) }

    /// The whole buffer as a rectangle at the origin.
    public var area: Rect { Rect(x: 0, y: 0, width: width, height: height) }

    /// The cell at column `x`, row `y`; `nil` outside the buffer.
    public subscript(x: Int, y: Int) -> Cell? {
        guard x >= 0, y >= 0, x < width, y < height else { return nil }
        return cell(from: storage[y * width + x])
    }

    /// Replaces the cell at (`x`, `y`); writes outside the buffer are ignored.
    public mutating func set(_ cell: Cell, x: Int, y: Int) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        if cell.width != 1 { mayHoldWide = true }
        storage[y * width + x] = store(cell)
    }

    /// Changes the style of the cells of `rect` (clipped to the buffer), keeping their text.
    public mutating func restyle(_ rect: Rect, _ change: (inout CellStyle) -> Void) {
        let r = rect.intersection(area)
        guard !r.isEmpty else { return }
        for row in r.y..<r.maxY {
            for index in (row * width + r.x)..<(row * width + r.maxX) { change(&storage[index].style) }
        }
    }

    /// The cells that differ between `previous` and `self`, row by row. When the sizes differ every cell is returned.
    public func changes(since previous: ScreenBuffer) -> [CellChange] {
        var result: [CellChange] = []
        if previous.width != width || previous.height != height {
            result.reserveCapacity(storage.count)
            for y in 0..<height {
                for x in 0..<width { result.append(CellChange(x: x, y: y, cell: cell(from: storage[y * width + x]))) }
            }
            return result
        }
        for index in storage.indices where !sameCell(storage[index], previous.storage[index], previous) {
            result.append(CellChange(x: index % width, y: index / width, cell: cell(from: storage[index])))
        }
        return result
    }

    public static func == (lhs: ScreenBuffer, rhs: ScreenBuffer) -> Bool {
        guard lhs.width == rhs.width, lhs.height == rhs.height else { return false }
        for index in lhs.storage.indices where !lhs.sameCell(lhs.storage[index], rhs.storage[index], rhs) {
            return false
        }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(width)
        hasher.combine(height)
        for stored in storage {
            if stored.isOverflow {
                hasher.combine(overflow[stored.overflowIndex])
                hasher.combine(stored.width)
                hasher.combine(stored.style)
            } else {
                hasher.combine(stored)
            }
        }
    }

    /// Whether `mine` (of this buffer) and `theirs` (of `other`) are the same cell.
    @inline(__always)
    func sameCell(_ mine: StoredCell, _ theirs: StoredCell, _ other: ScreenBuffer) -> Bool {
        if mine == theirs, !mine.isOverflow { return true }
        guard mine.isOverflow || theirs.isOverflow, mine.looksLike(theirs) else {
            return false
        }
        return grapheme(of: mine) == other.grapheme(of: theirs)
    }

    /// The grapheme of a cell of this buffer.
    func grapheme(of stored: StoredCell) -> String {
        stored.isOverflow ? overflow[stored.overflowIndex] : stored.inlineGrapheme
    }

    /// A cell of this buffer as a ``Cell``.
    func cell(from stored: StoredCell) -> Cell {
        Cell(grapheme: grapheme(of: stored), width: stored.width, style: stored.style)
    }

    /// `cell` as this buffer stores it, its grapheme added to the overflow list when it is too long to store inline.
    mutating func store(_ cell: Cell) -> StoredCell {
        StoredCell(glyph: glyph(cell.grapheme), width: cell.width, style: cell.style)
    }

    /// The glyph of `grapheme`: inline, or an index into the overflow list.
    mutating func glyph(_ grapheme: String) -> UInt64 {
        if let inline = StoredCell.inlineGlyph(grapheme) { return inline }
        if overflow.count >= 2 * storage.count + 64 { compactOverflow() }
        overflow.append(grapheme)
        return (StoredCell.overflowTag << 56) | UInt64(overflow.count - 1)
    }

    /// Drops the overflow graphemes no cell holds any more, so a buffer drawn into many times stays bounded.
    private mutating func compactOverflow() {
        var kept: [String] = []
        var moved: [Int: Int] = [:]
        for index in storage.indices where storage[index].isOverflow {
            let old = storage[index].overflowIndex
            let new: Int
            if let known = moved[old] {
                new = known
            } else {
                new = kept.count
                kept.append(overflow[old])
                moved[old] = new
            }
            storage[index].glyph = (StoredCell.overflowTag << 56) | UInt64(new)
        }
        overflow = kept
    }
}
