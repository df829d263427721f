/// Where a detail view is scrolled, as the keys asked: from its top or from its last page (`G`), then the moves
/// since, in rows. How many lines the view has depends on its width and on everything it shows, which only
/// drawing knows, so the reducer keeps the moves and ``offset(lines:rows:)`` replays them at draw time, each kept
/// within the content as if it had been when pressed: `k` after `G` moves at once, and so does PgUp after paging
/// past the end.
///
/// ```swift
/// var scroll = DetailScroll()
/// scroll.apply(.bottom, page: 20)          // G
/// scroll.apply(.up, page: 20)              // k
/// scroll.offset(lines: 100, rows: 20)      // 79: one line above the last page
/// ```
public struct DetailScroll: Sendable, Hashable {
    /// Where the moves start from.
    public enum Anchor: Sendable, Hashable {
        /// The first line (a view opens there; `g`).
        case top
        /// The last page (`G`).
        case end
    }

    /// Where the moves start from.
    public private(set) var anchor: Anchor = .top
    /// The moves since the anchor, in rows, down positive. Moves one way in a row are summed (keeping them within
    /// the content one by one or together comes to the same), and a first move towards the anchor is dropped (it
    /// goes nowhere), so there is one entry per change of direction, at most ``turnLimit``.
    public private(set) var moves: [Int] = []

    /// How many changes of direction are kept since the anchor. Past it, the two oldest moves are summed: a view
    /// turned this often without `g` or `G` may then stand a little off where clamping each key would have left it,
    /// if one of those first moves ran past an end.
    static let turnLimit = 64

    /// At the top, unmoved.
    public init() {}

    /// Applies a scroll key, `page` rows a page.
    mutating func apply(_ move: ScrollMove, page: Int) {
        switch move {
        case .up: step(by: -1)
        case .down: step(by: 1)
        case .pageUp: step(by: -page)
        case .pageDown: step(by: page)
        case .top: (anchor, moves) = (.top, [])
        case .bottom: (anchor, moves) = (.end, [])
        }
    }

    /// Moves `rows` rows, down when positive.
    mutating func step(by rows: Int) {
        guard rows != 0 else { return }
        if let last = moves.last, (last > 0) == (rows > 0) {
            moves[moves.count - 1] += rows
        } else if !moves.isEmpty || (anchor == .top) == (rows > 0) {
            moves.append(rows)
        }
        if moves.count > Self.turnLimit {
            moves.replaceSubrange(0..<2, with: [moves[0] + moves[1]])
        }
    }

    /// The first line shown of `lines` in a view of `rows` rows: the moves replayed from the anchor, each kept
    /// between the first line and the last page.
    public func offset(lines: Int, rows: Int) -> Int {
        let last = max(0, lines - rows)
        var offset = anchor == .top ? 0 : last
        for move in moves { offset = min(max(0, offset + move), last) }
        return offset
    }
}
