/// A theme and the non-fatal problems met while loading it (unknown roles, invalid colours: those roles were
/// taken from the default theme).
public struct LoadedTheme: Sendable, Hashable {
    /// The usable theme, missing or invalid roles filled from the default.
    public var theme: Theme
    /// Non-fatal problems, in key order; empty for a clean file.
    public var problems: [ThemeError]

    /// A theme and the problems met while loading it.
    public init(theme: Theme, problems: [ThemeError]) {
        self.theme = theme
        self.problems = problems
    }
}
