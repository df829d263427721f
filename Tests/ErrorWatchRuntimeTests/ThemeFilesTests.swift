import ErrorWatchRuntime
import ErrorWatchUI
import Foundation
import Testing

/// Theme files read from disk (the I/O the UI module leaves to the runtime), then parsed by ``ThemeParser``.
struct ThemeFilesTests {
    /// The repository's `Themes/` folder, found from this file's path.
    static let themesDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Themes")

    @Test func everyShippedThemeLoadsCleanlyAndCoversEveryRole() throws {
        let (themes, problems) = ThemeFiles.loadDirectory(at: Self.themesDirectory)
        #expect(problems.isEmpty, "\(problems)")
        #expect(themes.map(\.name) == ["default", "high-contrast", "light", "monochrome", "solarized-dark"])
        let schema =
            try JSONSerialization.jsonObject(
                with: Data(
                    contentsOf:
                        Self.themesDirectory.appendingPathComponent("theme.schema.json"))) as? [String: Any]
        let roles =
            ((schema?["properties"] as? [String: Any])?["roles"] as? [String: Any])?["properties"]
            as? [String: Any]
        #expect(Set(roles?.keys.map { $0 } ?? []) == Set(ThemeRole.allCases.map(\.rawValue)), "schema lists every role")
    }

    @Test func aMissingFileFallsBackToTheDefaultAndSaysWhy() {
        let missing = ThemeFiles.loadOrDefault(contentsOf: URL(fileURLWithPath: "/nonexistent/theme.json"))
        #expect(missing.theme == .default)
        #expect(missing.problems.first?.message == "cannot read the file")
    }
}

struct HeldThemeInputTests {
    /// A named pipe, a directory and /dev/zero given as a theme fail at once with a message; nothing waits or grows.
    @Test func specialFilesAreRefusedAtOnce() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ew-theme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("pipe.json")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        for url in [fifo, directory, URL(fileURLWithPath: "/dev/zero")] {
            let loaded = ThemeFiles.loadOrDefault(contentsOf: url)
            #expect(loaded.theme == .default)
            #expect(loaded.problems.first?.message == "cannot read the file", "\(url.path)")
        }
    }
}
