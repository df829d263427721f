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
