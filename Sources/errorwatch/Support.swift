import ArgumentParser
import ErrorStreaming
import ErrorWatchRuntime
import ErrorWatchUI
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Runs async work to completion from synchronous code (the command's thread, which owns the terminal).
func runBlocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    let result = Mutex<Result<T, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
        let outcome: Result<T, any Error>
        do { outcome = .success(try await body()) } catch { outcome = .failure(error) }
        result.withLock { $0 = outcome }
        done.signal()
    }
    done.wait()
    return try result.withLock { $0! }.get()
}

/// Runs async work that cannot fail to completion from synchronous code.
func runBlocking<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
    // The body cannot throw, so neither can this.
    try! runBlocking { () async throws -> T in await body() }
}

/// Whether the current locale's character set is UTF-8 (braille sparklines, box drawing, wide glyphs).
func localeIsUTF8() -> Bool {
    guard let codeset = nl_langinfo(nl_item(CODESET)) else { return false }
    let name = String(cString: codeset).uppercased()
    return name == "UTF-8" || name == "UTF8"
}

/// Prints one message on stderr.
///
/// Messages quote paths, theme keys and system text, any of which may carry escape sequences: each line goes
/// through the same ``Sanitizer`` as the screen, so nothing printed can change the terminal's state.
func printError(_ message: String) {
    let safe = message.split(separator: "\n", omittingEmptySubsequences: false)
        .map { Sanitizer.sanitize(String($0)) }.joined(separator: "\n")
    FileHandle.standardError.write(Data((safe + "\n").utf8))
}

/// Parses `16MiB`, `512KiB`, `1GiB`, `65536` (bytes): 1 KiB to 1 GiB.
func parseByteCount(_ text: String) throws -> Int {
    let units: [(String, Int)] = [("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10), ("B", 1), ("", 1)]
    for (suffix, scale) in units where text.hasSuffix(suffix) {
        guard let value = Int(text.dropLast(suffix.count)), value > 0, value <= (1 << 30) / scale else { continue }
        let bytes = value * scale
        guard bytes >= 1024 else { break }
        return bytes
    }
    throw ValidationError("\(text.debugDescription) is not a size from 1KiB to 1GiB (like 16MiB, 512KiB or 65536)")
}

/// Parses `10s`, `500ms`, `2m`, `1.5s`.
func parseDuration(_ text: String) throws -> Duration {
    let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60)]
    for (suffix, scale) in units where text.hasSuffix(suffix) {
        let number = text.dropLast(suffix.count)
        if let value = Double(number), value >= 0, value.isFinite, value * scale <= 86_400 {
            return .milliseconds(Int64((value * scale * 1000).rounded()))
        }
    }
    throw ValidationError("\"\(text)\" is not a duration like 10s, 500ms or 2m")
}

/// The process's peak resident set size in kilobytes, from /proc/self/status (VmHWM).
func peakResidentKilobytes() -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        return Int(line.split(whereSeparator: \.isWhitespace).dropFirst().first ?? "")
    }
    return nil
}

extension Duration {
    /// The duration as seconds with three decimals, for the `--stats` report.
    var formattedSeconds: String {
        let ms = wholeMilliseconds()
        return "\(ms / 1000).\(String(format: "%03d", ms % 1000)) s"
    }
}

/// The playback speeds `replay` and `render --from` accept: from 0.01 (a hundred times slower) to 10,000. Outside
/// that range a recorded gap divided by the speed overflows or takes practically forever.
let playbackSpeeds: ClosedRange<Double> = RecordingPlayer.speeds

/// Throws a clear message for a speed outside ``playbackSpeeds`` (`1e-300` once crashed, `1e-12` hung `render`).
func validateSpeed(_ speed: Double) throws {
    guard speed.isFinite, playbackSpeeds.contains(speed) else {
        throw ValidationError("--speed must be from 0.01 to 10000 (got \(speed))")
    }
}

/// `--max-gap`: the longest silence of a recording played in full, in playback time (`5s`, `500ms`, `2m`, up to a
/// day); `none` or `0` plays every silence in full.
func parseMaximumGap(_ text: String) throws -> MaximumGap {
    if text.lowercased() == "none" || text == "0" { return MaximumGap(limit: nil) }
    do {
        let limit = try parseDuration(text)
        return MaximumGap(limit: limit > .zero ? limit : nil)
    } catch {
        throw ValidationError("\"\(text)\" is not a gap like 5s, 500ms or 2m, or none")
    }
}

/// A parsed `--max-gap`.
struct MaximumGap: Sendable {
    /// The limit, or `nil` for none.
    var limit: Duration?
}
