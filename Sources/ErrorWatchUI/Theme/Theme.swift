/// A colour theme: a style for every ``ThemeRole``.
///
/// Themes come from JSON files (see ``ThemeParser`` and `Themes/theme.schema.json`); ``Theme/default`` is
/// built in and equals `Themes/default.json`. At render time a theme is fitted to the terminal's
/// ``ColorDepth`` by a ``Palette``.
public struct Theme: Sendable, Hashable {
    /// The name shown in the header and used by `--theme`.
    public var name: String
    /// One style per role, indexed by the role's position in `ThemeRole.allCases`.
    public private(set) var styles: [RoleStyle]

    /// A theme named `name`; roles missing from `styles` come from `fallback` (the built-in default if `nil`).
    public init(name: String, styles: [ThemeRole: RoleStyle], fallback: Theme? = nil) {
        self.name = name
        let base = fallback?.styles
        self.styles = ThemeRole.allCases.enumerated().map { index, role in
            styles[role] ?? base?[index] ?? RoleStyle()
        }
    }

    /// The style of `role`.
    public subscript(role: ThemeRole) -> RoleStyle {
        get { styles[role.index] }
        set { styles[role.index] = newValue }
    }
}

extension ThemeRole {
    /// Position in `allCases`, used to index style tables.
    var index: Int {
        // A payload-free enum is stored as its declaration-order discriminator (one byte for fewer than 256
        // cases), which is exactly its position in `allCases`; `ThemeTests` checks the two agree. This keeps
        // the per-cell palette lookup free of string hashing.
        Int(unsafeBitCast(self, to: UInt8.self))
    }
}

/// How many colours the terminal can show. The caller decides it (from terminfo, `COLORTERM`, and `NO_COLOR`,
/// which means `.monochrome`) and passes it in the state.
public enum ColorDepth: String, Sendable, Hashable, CaseIterable {
    case truecolor
    case colors256
    case colors16
    case colors8
    case monochrome

    /// Short text for the header: `256 colours`.
    public var label: String {
        switch self {
        case .truecolor: "truecolor"
        case .colors256: "256 colours"
        case .colors16: "16 colours"
        case .colors8: "8 colours"
        case .monochrome: "no colour"
        }
    }
}

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

/// Colour depths order from `.monochrome` (least) to `.truecolor` (most), so a caller can cap one by another.
extension ColorDepth: Comparable {
    private var rank: Int {
        switch self {
        case .monochrome: 0
        case .colors8: 1
        case .colors16: 2
        case .colors256: 3
        case .truecolor: 4
        }
    }

    public static func < (lhs: ColorDepth, rhs: ColorDepth) -> Bool { lhs.rank < rhs.rank }
}
