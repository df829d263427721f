import ErrorStreaming
import Foundation
import Testing

@testable import ErrorWatchUI

struct ThemeTests {
    func parse(_ json: String) throws(ThemeError) -> LoadedTheme {
        try ThemeParser.parse(Data(json.utf8), file: "test.json", defaultName: "test")
    }

    /// A file of `Themes/`, read here and parsed as the runtime's `ThemeFiles` does (named after the file).
    func parseFile(_ url: URL) throws -> LoadedTheme {
        try ThemeParser.parse(
            Data(contentsOf: url), file: url.path, defaultName: url.deletingPathExtension().lastPathComponent)
    }

    @Test func builtInDefaultEqualsThemesDefaultJSON() throws {
        let loaded = try parseFile(themesDirectory.appendingPathComponent("default.json"))
        #expect(loaded.problems.isEmpty)
        #expect(loaded.theme == Theme.default)
        let text = try String(contentsOf: themesDirectory.appendingPathComponent("default.json"), encoding: .utf8)
        #expect(text == Theme.defaultJSON + "\n", "Theme+Default.swift embeds the file verbatim")
    }

    /// The themes travel with the binary: every file of `Themes/` is compiled in verbatim and parses to the same
    /// theme. After editing a theme file run `scripts/embed-themes.sh`.
    @Test func builtInThemesEqualTheThemesFolder() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: themesDirectory.path)
            .filter { $0.hasSuffix(".json") && !$0.hasSuffix(".schema.json") }.sorted()
        #expect(Theme.builtInFiles.map { $0.name + ".json" } == files)
        for file in Theme.builtInFiles {
            let url = themesDirectory.appendingPathComponent(file.name + ".json")
            let text = try String(contentsOf: url, encoding: .utf8)
            #expect(text == file.json + "\n", "\(file.name): run scripts/embed-themes.sh")
            let loaded = try parseFile(url)
            #expect(Theme.builtIn.first { $0.name == loaded.theme.name } == loaded.theme, "\(file.name)")
        }
        #expect(Theme.builtIn.count == files.count)
        #expect(Theme.builtIn.first == .default)
    }

    @Test func roleIndexMatchesDeclarationOrder() {
        for (position, role) in ThemeRole.allCases.enumerated() { #expect(role.index == position) }
    }

    @Test func malformedJSONReportsLineAndColumn() {
        #expect(throws: ThemeError.self) { try parse("{\n  \"name\": \"x\",\n  \"roles\" 2\n}") }
        do {
            _ = try parse("{\n  \"name\": \"x\",\n  \"roles\" 2\n}")
        } catch {
            #expect(error.line == 3)
            #expect(error.column == 11)
            #expect(error.description.hasPrefix("test.json:3:11: malformed JSON"))
        }
    }

    @Test func unknownRolesAndInvalidColoursAreReportedAndFilledFromDefault() throws {
        let loaded = try parse(
            """
            {"name": "odd", "roles": {"blurple": "red", "text": {"fg": "chartreuse"}, "muted": 300,
             "alert": {"fg": "#12345g"}, "title": {"fg": "red", "blink": true}, "border": "#102030"}}
            """)
        let keys = loaded.problems.map { $0.key ?? "" }
        #expect(keys == ["roles.alert.fg", "roles.blurple", "roles.muted", "roles.text.fg", "roles.title.blink"])
        #expect(loaded.problems.allSatisfy { $0.file == "test.json" })
        #expect(loaded.theme.name == "odd")
        #expect(loaded.theme[.text] == Theme.default[.text])
        #expect(loaded.theme[.muted] == Theme.default[.muted])
        #expect(loaded.theme[.border] == RoleStyle(foreground: .rgb(0x10, 0x20, 0x30)))
        #expect(loaded.theme[.title].foreground == .ansi(1))
    }

    @Test func missingRolesComeFromTheDefault() throws {
        let loaded = try parse(#"{"roles": {"text": "bright-white"}}"#)
        #expect(loaded.problems.isEmpty)
        #expect(loaded.theme.name == "test")
        #expect(loaded.theme[.text].foreground == .ansi(15))
        #expect(loaded.theme[.severityError] == Theme.default[.severityError])
    }

    @Test func anyContentLoadsOrFailsClearly() {
        var generator = SeededGenerator(seed: 42)
        for _ in 0..<300 {
            let bytes = (0..<Int.random(in: 0...80, using: &generator)).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            }
            do {
                _ = try ThemeParser.parse(Data(bytes), file: "fuzz.json")
            } catch {
                #expect(!error.description.isEmpty)
            }
        }
    }

    @Test func coloursFitEachDepth() {
        let theme = Theme(
            name: "t",
            styles: [
                .text: RoleStyle(foreground: .rgb(255, 135, 0)),
                .muted: RoleStyle(foreground: .ansi(9)),
                .title: RoleStyle(foreground: .indexed(244)),
            ])
        #expect(Palette(theme: theme, depth: .truecolor)[.text].foreground == .rgb(255, 135, 0))
        #expect(Palette(theme: theme, depth: .colors256)[.text].foreground == .indexed(208))
        #expect(Palette(theme: theme, depth: .colors16)[.title].foreground == .indexed(8))
        let eight = Palette(theme: theme, depth: .colors8)[.muted]
        #expect(eight.foreground == .indexed(1) && eight.attributes.contains(.bold))
        let mono = Palette(theme: theme, depth: .monochrome)
        #expect(mono[.text].foreground == .default && mono[.muted].attributes.contains(.dim))
        #expect(mono[.selection].attributes.contains(.reverse))
    }
}
