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
