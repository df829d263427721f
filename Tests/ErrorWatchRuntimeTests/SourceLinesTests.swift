import ErrorStreaming
import ErrorWatchWire
import Foundation
import Testing

@testable import ErrorWatchRuntime

/// Source lines read from the local disk for frames, only under the root.
struct SourceLinesTests {
    /// A fresh folder holding `files` (relative path → contents), removed by the caller.
    static func folder(_ files: [String: Data]) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("ew-src-\(UUID().uuidString)")
        for (path, contents) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try contents.write(to: url)
        }
        return root
    }

    static let app = Data((1...20).map { "line \($0)" }.joined(separator: "\n").utf8)

    @Test func linesAroundTheFailingOne() throws {
        let root = try Self.folder(["src/app.py": Self.app])
        defer { try? FileManager.default.removeItem(at: root) }
        let lines = try #require(SourceLines(root: root.path))
        let context = try #require(lines.context(file: "src/app.py", line: 10))
        #expect(context.pre == ["line 5", "line 6", "line 7", "line 8", "line 9"])
        #expect(context.line == "line 10")
        #expect(context.post == ["line 11", "line 12", "line 13", "line 14", "line 15"])
        // Absolute paths under the root too; the first and last lines have less around them.
        let first = try #require(lines.context(file: root.path + "/src/app.py", line: 1))
        #expect(first.pre.isEmpty)
        #expect(lines.context(file: "src/app.py", line: 21) == nil)
    }

    @Test func nothingOutsideTheRootIsRead() throws {
        let root = try Self.folder(["inside.txt": Self.app])
        let outside = try Self.folder(["secret.txt": Self.app])
        defer {
            try? FileManager.default.removeItem(at: root)
            try? FileManager.default.removeItem(at: outside)
        }
        try FileManager.default.createSymbolicLink(
            atPath: root.path + "/link.txt", withDestinationPath: outside.path + "/secret.txt")
        let lines = try #require(SourceLines(root: root.path))
        #expect(lines.context(file: outside.path + "/secret.txt", line: 1) == nil)
        #expect(lines.context(file: "../" + outside.lastPathComponent + "/secret.txt", line: 1) == nil)
        // A link inside the root to a file outside it is outside.
        #expect(lines.context(file: "link.txt", line: 1) == nil)
        #expect(lines.context(file: "inside.txt", line: 1) != nil)
    }

    @Test func largeAndBinaryFilesAreNotRead() throws {
        let large = Data(repeating: UInt8(ascii: "a"), count: SourceLines.maximumFileBytes + 1)
        let binary = Data([0x7f, 0x45, 0x4c, 0x46, 0x00, 0x0a, 0x41])
        let root = try Self.folder(["large.swift": large, "binary.so": binary])
        defer { try? FileManager.default.removeItem(at: root) }
        let lines = try #require(SourceLines(root: root.path))
        #expect(lines.context(file: "large.swift", line: 1) == nil)
        #expect(lines.context(file: "binary.so", line: 1) == nil)
    }

    @Test func aPrintedTraceBecomesFramesWithTheAppsOwnSourceLines() throws {
        let root = try Self.folder(["app.py": Self.app])
        defer { try? FileManager.default.removeItem(at: root) }
        let lines = try #require(SourceLines(root: root.path))
        var event = WireEvent(
            kind: .error, time: Date(), exceptionType: "KeyError", exceptionMessage: "'bob'",
            exceptionStacktrace: """
                Traceback (most recent call last):
                  File "\(root.path)/app.py", line 12, in main
                  File "/usr/lib/python3.11/json/__init__.py", line 346, in loads
                KeyError: 'bob'
                """)
        lines.enrich(&event)
        let report = try #require(event.report)
        let frames = try #require(report.exceptions.first?.frames)
        #expect(report.exceptions.first?.type == "KeyError")
        #expect(frames.count == 2)
        #expect(frames[0].contextLine == "line 12")
        #expect(frames[0].inApp == true)
        // Outside the root: a library's frame, no lines read.
        #expect(frames[1].contextLine == nil)
        #expect(frames[1].inApp == false)
        #expect(report.about.contains { $0.name == "frames" })
        #expect(report.about.contains { $0.name == "source lines" })
    }

    @Test func sentLinesAndSentFramesAreKept() throws {
        let root = try Self.folder(["app.py": Self.app])
        defer { try? FileManager.default.removeItem(at: root) }
        let lines = try #require(SourceLines(root: root.path))
        let sent = ExceptionReport.Frame(file: "app.py", line: 3, inApp: false, contextLine: "as the SDK sent it")
        let missing = ExceptionReport.Frame(file: "app.py", line: 4)
        var event = WireEvent(kind: .error, time: Date(), exceptionType: "E")
        event.report = ExceptionReport(exceptions: [ExceptionReport.Exception(type: "E", frames: [sent, missing])])
        lines.enrich(&event)
        let frames = try #require(event.report?.exceptions.first?.frames)
        #expect(frames[0] == sent)
        #expect(frames[1].contextLine == "line 4")
    }

    @Test func aRootThatIsNoFolderIsRefused() {
        #expect(SourceLines(root: "/no/such/folder/errorwatch") == nil)
    }
}
