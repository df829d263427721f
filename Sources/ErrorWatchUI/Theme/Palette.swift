/// A theme fitted to a colour depth: a ready-made ``CellStyle`` per role.
///
/// Fitting goes truecolor → 256 (nearest of the xterm cube and grey ramp) → 16 (nearest ANSI colour) → 8 (bright
/// foregrounds become bold, mid greys dim white, dark greys black) → monochrome (no colours; each role's
/// ``ThemeRole/monochromeAttributes``).
public struct Palette: Sendable, Hashable {
    private var styles: [CellStyle]

    /// Fits every role of `theme` to `depth`.
    public init(theme: Theme, depth: ColorDepth) {
        styles = ThemeRole.allCases.enumerated().map { index, role in
            let style = theme.styles[index]
            var attributes = style.attributes
            if depth == .monochrome { attributes.formUnion(role.monochromeAttributes) }
            var foreground = ColorFitting.fit(style.foreground, to: depth)
            let background = ColorFitting.fit(style.background, to: depth)
            if depth == .colors8 {
                let (color, extra) = ColorFitting.foreground8(style.foreground)
                foreground = color
                attributes.formUnion(extra)
            }
            return CellStyle(foreground: foreground, background: background, attributes: attributes)
        }
    }

    /// The style for `role`.
    public subscript(role: ThemeRole) -> CellStyle { styles[role.index] }
}
