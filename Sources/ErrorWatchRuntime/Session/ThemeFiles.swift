import ErrorWatchUI
import Foundation

/// Reads theme files and folders and hands their bytes to ``ThemeParser``: the file I/O that the pure UI module
/// does not do.
///
/// ```swift
/// let loaded = try ThemeFiles.load(contentsOf: URL(filePath: "Themes/light.json"))
/// let catalog = ThemeFiles.loadDirectory(at: URL(filePath: "Themes"))   // never throws
/// ```
///
/// An unreadable file throws a ``ThemeError`` ("cannot read the file"), as do the parser's fatal problems;
/// nothing here leaves the caller without a usable theme.
public enum ThemeFiles {
    /// Loads one theme file; its name without `.json` names the theme unless the file says otherwise.
    public static func load(contentsOf url: URL) throws(ThemeError) -> LoadedTheme {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ThemeError(file: url.path, message: "cannot read the file")
        }
        let name = url.deletingPathExtension().lastPathComponent
        return try ThemeParser.parse(data, file: url.path, defaultName: name)
    }

    /// Loads one theme file, or returns the built-in default with the reason when it cannot be loaded.
    public static func loadOrDefault(contentsOf url: URL) -> LoadedTheme {
        do {
            return try load(contentsOf: url)
        } catch {
            return LoadedTheme(theme: .default, problems: [error])
        }
    }

    /// Every `*.json` theme in `directory` (schema files skipped), sorted by name with `default` first; the
    /// built-in default is added when the directory has none. Files that fail are left out and reported.
    public static func loadDirectory(at directory: URL) -> (themes: [Theme], problems: [ThemeError]) {
        var themes: [Theme] = []
        var problems: [ThemeError] = []
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            return ([.default], [ThemeError(file: directory.path, message: "cannot list the directory")])
        }
        for name in names.sorted() where name.hasSuffix(".json") && !name.hasSuffix(".schema.json") {
            do {
                let loaded = try load(contentsOf: directory.appendingPathComponent(name))
                themes.append(loaded.theme)
                problems += loaded.problems
            } catch {
                problems.append(error)
            }
        }
        if !themes.contains(where: { $0.name == Theme.default.name }) { themes.append(.default) }
        themes.sort {
            ($0.name == Theme.default.name ? 0 : 1, $0.name) < ($1.name == Theme.default.name ? 0 : 1, $1.name)
        }
        return (themes, problems)
    }
}
