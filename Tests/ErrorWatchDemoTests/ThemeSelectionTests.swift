import ErrorWatchDemo
import ErrorWatchUI
import Foundation
import Testing

struct ThemeSelectionTests {
    /// The repository's Themes folder, found from this file's path.
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    @Test func findsNamedThemesInTheThemesFolder() {
        let selection = ThemeSelection.resolve(
            requested: "solarized-dark", themesDirectory: nil, environment: [:],
            currentDirectory: Self.repositoryRoot, executableDirectory: nil)
        #expect(selection.theme.name == "solarized-dark")
        #expect(selection.themes.count >= 5)
        #expect(selection.problems.isEmpty)
    }

    @Test func environmentFolderComesBeforeTheWorkingDirectory() {
        let selection = ThemeSelection.resolve(
            requested: nil, themesDirectory: nil,
            environment: ["ERRORWATCH_THEMES": Self.repositoryRoot + "/Themes"],
            currentDirectory: "/nonexistent", executableDirectory: nil)
        #expect(selection.directory == Self.repositoryRoot + "/Themes")
        #expect(selection.theme.name == "default")
    }

    @Test func unknownNameFallsBackToDefaultAndSaysWhy() {
        let selection = ThemeSelection.resolve(
            requested: "neon", themesDirectory: nil, environment: [:], currentDirectory: Self.repositoryRoot,
            executableDirectory: nil)
        #expect(selection.theme.name == "default")
        #expect(selection.warning?.contains("neon") == true)
    }

    @Test func noFolderAnywhereStillGivesTheBuiltInDefault() {
        let selection = ThemeSelection.resolve(
            requested: nil, themesDirectory: "/nonexistent/themes", environment: [:], currentDirectory: "/nonexistent",
            executableDirectory: nil)
        #expect(selection.themes == [.default])
        #expect(selection.warning?.contains("/nonexistent/themes") == true)
    }

    @Test func malformedThemeFileKeepsTheDefaultWithLineAndColumn() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("broken-\(UUID()).json")
        try Data("{\n  \"name\": \"broken\",\n  \"roles\": {,\n}".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let selection = ThemeSelection.resolve(
            requested: file.path, themesDirectory: nil, environment: [:], currentDirectory: Self.repositoryRoot,
            executableDirectory: nil)
        #expect(selection.theme.name == "default")
        #expect(selection.warning?.contains(file.lastPathComponent) == true)
        #expect(selection.warning?.contains(":3:") == true)
    }
}

extension ThemeSelection {
    var theme: Theme { themes[index] }
}
