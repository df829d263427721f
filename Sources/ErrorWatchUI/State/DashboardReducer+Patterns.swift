/// Selection in the Patterns view: `j`/`k`, PgUp/PgDn, `g`/`G` move it through the templates by count.
extension DashboardReducer {
    static func movePatternSelection(_ command: DashboardCommand, state: inout DashboardState) {
        let rows = state.patterns.visible(state.filter)
        guard !rows.isEmpty else { return }
        let page = max(1, DashboardLayout(for: state).errorRows)
        var index = state.patterns.selectedID.flatMap { id in rows.firstIndex { $0.id == id } } ?? 0
        switch command {
        case .scrollUp: index -= 1
        case .scrollDown: index += 1
        case .pageUp: index -= page
        case .pageDown: index += page
        case .scrollTop: index = 0
        default: index = rows.count - 1
        }
        index = min(max(0, index), rows.count - 1)
        state.patterns.selectedID = rows[index].id
        if index < state.patterns.scroll { state.patterns.scroll = index }
        if index >= state.patterns.scroll + page { state.patterns.scroll = index - page + 1 }
        state.patterns.scroll = min(max(0, state.patterns.scroll), max(0, rows.count - page))
    }
}
