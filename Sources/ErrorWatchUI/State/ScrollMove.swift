/// How a key moves a list's view or selection: `k` and `j` (or the arrows) one row up or down, PgUp and PgDn a page,
/// `g` and `G` to the top and the bottom. The root reducer translates the keymap's commands into it; each slice
/// decides what a move means for its list.
enum ScrollMove: Sendable, Hashable {
    case up, down, pageUp, pageDown, top, bottom

    /// Where a selection at row `index` of `count` rows goes, `page` rows a page: a row or a page up or down, or to
    /// row `top` (`g`) or `bottom` (`G`); always one of the rows.
    func selection(from index: Int, page: Int, count: Int, top: Int, bottom: Int) -> Int {
        var index = index
        switch self {
        case .up: index -= 1
        case .down: index += 1
        case .pageUp: index -= page
        case .pageDown: index += page
        case .top: index = top
        case .bottom: index = bottom
        }
        return min(max(0, index), count - 1)
    }

    /// The first row shown of `count` rows in a view of `page` rows, moved from `first` just enough that row `index`
    /// is in view.
    static func firstRow(showing index: Int, from first: Int, page: Int, count: Int) -> Int {
        var first = first
        if index < first { first = index }
        if index >= first + page { first = index - page + 1 }
        return min(max(0, first), max(0, count - page))
    }
}
