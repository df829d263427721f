import ErrorWatchIngest
import ErrorWatchWire
import Foundation

/// One input is a whole recording file, read by `RecordingReader` (`LineFramer`, then the wire decoder per line,
/// then offsets from the earliest event). The reader reads a path, so the input is written to one temporary file
/// per process first. Every non-empty line is either an entry or a bad line, and offsets are never negative.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    // Foundation's `Data(contentsOf:)` leaks a 4 KiB buffer reading an empty file (docs/fuzzing.md): not ours,
    // and reported at every run, so the empty recording is left to the tests.
    guard size > 0 else { return 0 }
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("errorwatch-fuzz-\(getpid()).ndjson")
    guard FileManager.default.createFile(atPath: file.path, contents: Data(bytes: data, count: size)) else {
        fatalError("cannot write \(file.path)")
    }
    defer { try? FileManager.default.removeItem(at: file) }
    let recording: RecordingReader.Recording
    do {
        recording = try RecordingReader(path: file.path).readAll()
    } catch {
        fatalError("a regular file was not read: \(error)")
    }
    let buffer = UnsafeBufferPointer(start: data, count: size)
    // The framer skips empty lines and reports an overlong one once: one entry or bad line per non-empty line.
    let lines = buffer.split(separator: UInt8(ascii: "\n")).count
    precondition(recording.entries.count + recording.badLines.count == lines, "lines were lost or invented")
    precondition(recording.entries.allSatisfy { $0.offset >= .zero }, "a negative offset")
    return 0
}
