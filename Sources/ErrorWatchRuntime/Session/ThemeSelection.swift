import ErrorWatchUI
import Foundation

/// Finds the theme catalog and the theme to start with, never leaving the user without a usable theme.
///
/// The catalog starts with the built-in themes (``Theme/builtIn``, the files of `Themes/` compiled in); the
/// first existing folder of `--themes-dir`, `$ERRORWATCH_THEMES`, `./Themes` and a `Themes` folder beside the
/// executable adds its themes, replacing built-ins of the same name. `--theme` names a theme in the catalog, or
/// is a path to a `.json` file. Whatever fails falls back to the built-in default, and ``warning`` says why, for
/// the status line.
public struct ThemeSelection: Sendable {
    /// The themes `t` cycles through; never empty.
    public var themes: [Theme]
    /// The one to start with.
    public var index: Int
    /// The folder that added to the built-in themes, or `nil` when only the built-in themes are available.
    public var directory: String?
    /// Problems met on the way, most important first.
    public var problems: [String]

    /// The first problem, for the status line.
    public var warning: String? { problems.first }

    /// Resolves the catalog and the starting theme.
    public static func resolve(
        requested: String?, themesDirectory: String?, environment: [String: String],
        currentDirectory: String = FileManager.default.currentDirectoryPath,
        executableDirectory: String? = Bundle.main.executableURL?.deletingLastPathComponent().path
    ) -> ThemeSelection {
        var problems: [String] = []
        var candidates: [String] = []
        if let themesDirectory { candidates.append(themesDirectory) }
        if let fromEnvironment = environment["ERRORWATCH_THEMES"], !fromEnvironment.isEmpty {
            candidates.append(fromEnvironment)
        }
        candidates.append((currentDirectory as NSString).appendingPathComponent("Themes"))
        if let executableDirectory {
            candidates.append((executableDirectory as NSString).appendingPathComponent("Themes"))
        }

        var themes = Theme.builtIn
        var directory: String?
        var isDirectory: ObjCBool = false
        if let found = candidates.first(where: {
            FileManager.default.fileExists(atPath: $0, isDirectory: &isDirectory) && isDirectory.boolValue
        }) {
            let loaded = ThemeFiles.loadDirectory(at: URL(fileURLWithPath: found))
            for theme in loaded.themes {
                if let index = themes.firstIndex(where: { $0.name == theme.name }) {
                    themes[index] = theme
                } else {
                    themes.append(theme)
                }
            }
            directory = found
            problems += loaded.problems.map(\.description)
        }
        if themesDirectory != nil, directory != themesDirectory, let themesDirectory {
            problems.insert(
                "themes folder \(themesDirectory) not found; using \(directory ?? "the built-in themes")", at: 0)
        }

        var index = themes.firstIndex { $0.name == Theme.default.name } ?? 0
        if let requested, !requested.isEmpty {
            if requested.contains("/") || requested.hasSuffix(".json") {
                do {
                    let loaded = try ThemeFiles.load(contentsOf: URL(fileURLWithPath: requested))
                    themes.removeAll { $0.name == loaded.theme.name }
                    themes.append(loaded.theme)
                    index = themes.count - 1
                    problems.insert(contentsOf: loaded.problems.map(\.description), at: 0)
                } catch {
                    problems.insert("\(error.description); using the default theme", at: 0)
                }
            } else if let match = themes.firstIndex(where: { $0.name == requested }) {
                index = match
            } else {
                let names = themes.map(\.name).joined(separator: ", ")
                problems.insert("no theme named \"\(requested)\" (have: \(names)); using the default theme", at: 0)
            }
        }
        return ThemeSelection(themes: themes, index: index, directory: directory, problems: problems)
    }
}
