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
