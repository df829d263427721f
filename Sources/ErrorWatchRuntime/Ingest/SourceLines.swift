import ErrorStreaming
import ErrorWatchIngest
import ErrorWatchWire
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Shows the source lines around a stack frame from the local disk, for a service whose source is here
/// (`errorwatch run`, `--source-root`): the lines around the failing line, as Sentry's `context_line` shows them.
///
/// A printed trace (a Swift crash, a Python traceback, an OpenTelemetry `exception.stacktrace`) is first read into
/// frames (``StackFrames``); then every frame without source lines whose file is under ``root`` gets them. Nothing
/// outside the root is read (paths are resolved, symbolic links included, before they are checked), nor a file over
/// ``maximumFileBytes`` or one that holds a NUL byte (binary). Files are read once and kept (the last 64).
public final class SourceLines: Sendable {
    /// The folder source files may be read from, resolved.
    public let root: String
    /// Larger files are not read.
    public static let maximumFileBytes = 1 << 20
    /// Lines shown before and after the failing one.
    public static let contextLines = 5

    private let files = Mutex<(lines: [String: [Substring]?], order: [String])>(([:], []))
    private static let filesKept = 64

    /// Source lines under `root`; `nil` when it is not a folder.
    public init?(root: String) {
        guard let resolved = Self.resolve(root) else { return nil }
        var info = stat()
        guard stat(resolved, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { return nil }
        self.root = resolved == "/" ? "" : resolved
    }

    /// The lines around `line` (1-based) of `file` (absolute, or relative to the root), or `nil` when the file is
    /// outside the root, missing, too large, binary or shorter than `line`.
    public func context(file: String, line: Int) -> (pre: [String], line: String, post: [String])? {
        guard line >= 1, let path = path(of: file), let lines = lines(of: path), line <= lines.count else { return nil }
        let index = line - 1
        let pre = lines[max(0, index - Self.contextLines)..<index].map(String.init)
        let post = lines[(index + 1)..<min(lines.count, index + 1 + Self.contextLines)].map(String.init)
        return (pre, String(lines[index]), post)
    }

    /// Gives an error's frames their source lines: a report made from its printed trace when it has none, then
    /// the lines of each frame under the root. Frames read from a printed trace are the app's own when their file
    /// is under the root (library frames fold in the detail view).
    public func enrich(_ event: inout WireEvent) {
        if event.report == nil, let stack = event.exceptionStacktrace, let parsed = StackFrames.parse(stack) {
            event.report = ExceptionReport(
                exceptions: [
                    ExceptionReport.Exception(
                        type: event.exceptionType, value: event.exceptionMessage, frames: parsed.frames,
                        framesOmitted: parsed.omitted)
                ],
                about: [ExceptionReport.Field("frames", "read from the printed stack trace")])
        }
        guard var report = event.report else { return }
        var read = 0
        for exception in report.exceptions.indices {
            for index in report.exceptions[exception].frames.indices {
                var frame = report.exceptions[exception].frames[index]
                guard frame.contextLine == nil, frame.preContext.isEmpty, let file = frame.file, let line = frame.line
                else { continue }
                let found = context(file: file, line: line)
                if frame.inApp == nil { frame.inApp = found != nil }
                if let found {
                    frame.preContext = found.pre
                    frame.contextLine = found.line
                    frame.postContext = found.post
                    read += 1
                }
                report.exceptions[exception].frames[index] = frame
            }
        }
        if read > 0 {
            report.about.append(ExceptionReport.Field("source lines", "read from \(root.isEmpty ? "/" : root) here"))
        }
        event.report = report
    }

    /// The resolved path of `file` when it is under the root.
    private func path(of file: String) -> String? {
        let joined = file.hasPrefix("/") ? file : root + "/" + file
        guard let resolved = Self.resolve(joined), resolved.hasPrefix(root + "/") else { return nil }
        return resolved
    }

    private func lines(of path: String) -> [Substring]? {
        if let known = files.withLock({ $0.lines[path] }) { return known }
        let read = Self.read(path)
        files.withLock { cache in
            if cache.lines.updateValue(read, forKey: path) == nil { cache.order.append(path) }
            if cache.order.count > Self.filesKept { cache.lines[cache.order.removeFirst()] = nil }
        }
        return read
    }

    private static func read(_ path: String) -> [Substring]? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) <= maximumFileBytes,
            let data = FileManager.default.contents(atPath: path), data.count <= maximumFileBytes,
            !data.contains(0)
        else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasSuffix("\r") ? line.dropLast() : line
        }
    }

    private static func resolve(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
