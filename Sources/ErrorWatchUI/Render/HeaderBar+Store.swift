extension HeaderBar {
    /// The store's note (`store pruning`, `store paused: disk full`, `store off: …`) at the right of the header,
    /// left of `PAUSED`, when it fits in half the bar; returns the new right edge.
    static func drawStoreNote(
        _ note: String?, right: Int, in area: Rect, into buffer: inout ScreenBuffer, palette: Palette
    ) -> Int {
        guard let note else { return right }
        let room = max(0, (right - area.x) / 2)
        guard room > 8 else { return right }
        let text = " " + DisplayWidth.truncate(note, to: room - 2) + " "
        let x = max(area.x, right - DisplayWidth.of(text))
        buffer.write(text, x: x, y: area.y, style: palette[.paused], clip: area)
        return x
    }
}
