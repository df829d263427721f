import ErrorWatchRuntime
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

    @Test func noFolderAnywhereStillGivesEveryBuiltInTheme() {
        let selection = ThemeSelection.resolve(
            requested: "light", themesDirectory: "/nonexistent/themes", environment: [:],
            currentDirectory: "/nonexistent", executableDirectory: nil)
        #expect(selection.themes.map(\.name) == ["default", "high-contrast", "light", "monochrome", "solarized-dark"])
        #expect(selection.theme.name == "light")
        #expect(selection.warning?.contains("/nonexistent/themes") == true)
    }

    @Test func anInstalledBinaryWithoutAnyFolderSaysNothingAndCyclesAll() {
        let selection = ThemeSelection.resolve(
            requested: nil, themesDirectory: nil, environment: [:], currentDirectory: "/nonexistent",
            executableDirectory: nil)
        #expect(selection.problems.isEmpty)
        #expect(selection.themes.count == 5)
        #expect(selection.theme.name == "default")
    }

    @Test func aFolderOverridesBuiltInsByNameAndAddsItsOwn() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("themes-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(#"{"name": "light", "description": "mine", "roles": {"text": {"fg": "red"}}}"#.utf8)
            .write(to: folder.appendingPathComponent("light.json"))
        try Data(#"{"name": "neon", "roles": {}}"#.utf8).write(to: folder.appendingPathComponent("neon.json"))
        let selection = ThemeSelection.resolve(
            requested: "neon", themesDirectory: folder.path, environment: [:], currentDirectory: "/nonexistent",
            executableDirectory: nil)
        #expect(
            selection.themes.map(\.name) == [
                "default", "high-contrast", "light", "monochrome", "solarized-dark", "neon",
            ])
        #expect(selection.themes.first { $0.name == "light" } != Theme.builtIn.first { $0.name == "light" })
        #expect(selection.theme.name == "neon")
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
