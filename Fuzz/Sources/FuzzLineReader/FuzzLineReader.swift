import ErrorWatchIngest
import ErrorWatchWire
import Foundation
import FuzzSupport

/// One input is a stretch of a log stream: the first byte picks the `--format` (`LogFormat`, `auto` most often)
/// and the chunk size the bytes arrive in, the rest is framed by `LineFramer` (with a small line limit, so long
/// lines are exercised too) and read by one `LineReader`: every JSON logger shape, logfmt, plain text with its
/// timestamps and levels (`LogTimestamp`, `TextLine`), and traceback folding (`TracebackFolder`). Every event
/// read must survive the recorder's round trip (`checkRoundTrip`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 0 else { return 0 }
    let selector = Int(data[0])
    let formats = LogFormat.allCases
    let format = selector < 128 ? LogFormat.auto : formats[selector % formats.count]
    let chunk = 1 + selector % 7 * 97
    let maximumLineBytes = 4096
    var framer = LineFramer(maximumLineBytes: maximumLineBytes)
    var reader = LineReader(format: format, maximumLineBytes: maximumLineBytes)
    let receivedAt = Date(timeIntervalSince1970: 1_795_000_000)
    func check(_ result: Result<WireEvent, WireError>) {
        if case .success(let event) = result { checkRoundTrip(event, from: "LineReader(\(format))") }
    }
    func read(_ frame: Result<[UInt8], WireError>) {
        guard case .success(let line) = frame else { return }
        precondition(line.count < maximumLineBytes, "the framer let a \(line.count)-byte line through")
        line.withUnsafeBytes { bytes in reader.read(bytes, receivedAt: receivedAt, check) }
    }
    let body = UnsafeBufferPointer(start: data + 1, count: size - 1)
    var start = 0
    while start < body.count {
        let end = min(body.count, start + chunk)
        for frame in framer.feed(Array(body[start..<end])) { read(frame) }
        start = end
    }
    if let rest = framer.finish() { read(rest) }
    reader.flush(check)
    precondition(!reader.hasPendingEvent, "a flushed reader still holds a line")
    return 0
}
