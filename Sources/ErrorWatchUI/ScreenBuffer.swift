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

