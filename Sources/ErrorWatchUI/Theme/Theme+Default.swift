import Foundation

extension Theme {
    /// The built-in theme, used when no theme file is found and to fill roles a theme file leaves out.
    /// It is `Themes/default.json`, compiled in by `scripts/embed-themes.sh` (`ThemeTests` checks).
    public static let `default`: Theme = {
        do {
            return try ThemeParser.parse(
                Data(defaultJSON.utf8), file: "<built-in default>", defaultName: "default", fallback: nil
            ).theme
        } catch {
            preconditionFailure("the built-in default theme does not parse: \(error)")
        }
    }()

    /// Every theme of `Themes/`, compiled in (``builtInFiles``), default first: an installed binary run from any
    /// folder can cycle all of them. A file that does not parse is left out (`ThemeTests` checks none is).
    public static let builtIn: [Theme] = {
        let parsed = builtInFiles.compactMap { file in
            try? ThemeParser.parse(Data(file.json.utf8), file: "<built-in \(file.name)>", defaultName: file.name).theme
        }
        return [Theme.default] + parsed.filter { $0.name != Theme.default.name }
    }()

    /// The text of `Themes/default.json`, compiled in (``builtInFiles``).
    static var defaultJSON: String { builtInFiles.first { $0.name == "default" }?.json ?? "{}" }
}
