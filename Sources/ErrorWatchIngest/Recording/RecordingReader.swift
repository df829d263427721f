import ErrorStreaming
import ErrorWatchWire
import Foundation

/// Reads a recording (an NDJSON file of wire events) for `replay` and `render --from FILE`, streaming: lines come
/// from a ``RecordingFile`` (one chunk at a time) through a ``ReorderWindow`` of ``reorderCapacity`` events, so
/// memory stays bounded whatever the file's size and the whole file is never scanned first.
///
/// Each event comes with its offset from the recording's start, which is the earliest event of the first window
/// (the first one to leave it). Events leave in time order within the window; one that comes later in the file
/// than the window allows (earlier than an event already returned) is returned at once, at the current offset,
/// in file order, and counted in ``lateCount``. Offsets therefore never decrease.
///
/// ```swift
/// let reader = try RecordingReader(path: "session.ndjson")
/// while let entry = try reader.next() { schedule(entry.event, after: entry.offset) }
/// print(reader.badLineCount)
/// ```
///
/// Not `Sendable`: it owns an open file; one pass uses it.
public final class RecordingReader {
    /// One recorded event and when it happens relative to the recording's start.
    public struct Entry: Sendable, Equatable {
        /// The event.
        public var event: WireEvent
        /// Time since the recording's start; never negative and never less than the previous entry's.
        public var offset: Duration
        /// The event's place among the recording's events, in file order from 0 (bad lines not counted): what a
        /// store remembers of a recording played into it (``FileMark/Unit/events``).
        public var position: Int64

        /// An event at `offset`, the `position`th of its recording.
        public init(event: WireEvent, offset: Duration, position: Int64 = 0) {
            self.event = event
            self.offset = offset
            self.position = position
        }
    }

    /// A whole recording read into memory (``RecordingReader/readAll()``): for tests and small files only.
    public struct Recording: Sendable, Equatable {
        /// The good events, in the order they play.
        public var entries: [Entry]
        /// Lines that could not be decoded, by problem.
        public var badLines: [WireError]

        /// The events without their offsets.
        public var events: [WireEvent] { entries.map(\.event) }
    }

    /// Events held to put lines back in time order: about 10 MB of typical events.
    public static let defaultReorderCapacity = 10_000
    /// Bytes of errors' reports (``ExceptionReport``, up to a megabyte each) held for reordering at most: a window
    /// of large reports holds fewer events rather than more memory.
    public static let defaultReorderReportBytes = 64 * 1024 * 1024

    /// The recording's path.
    public var path: String { file.path }
    /// The most events held for reordering.
    public var reorderCapacity: Int { window.capacity }
    /// The time offsets count from: the first event returned's; `nil` before it.
    public private(set) var start: Date?
    /// Lines read so far that were not events.
    public private(set) var badLineCount = 0
    /// The last of those lines' problem.
    public private(set) var lastBadLine: WireError?
    /// Events returned at the current offset instead of their own, because they came too late for the window.
    public var lateCount: Int { window.lateCount }

    private let file: RecordingFile
    private var window: ReorderWindow<Positioned>
    /// An event with its position in the file.
    private struct Positioned {
        var event: WireEvent
        var position: Int64
    }
    /// Good events read from the file so far: the next one's position.
    private var positions: Int64 = 0
    private var exhausted = false
    private var lastOffset: Duration = .zero
    /// Every bad line's problem, while ``readAll()`` collects them.
    private var keptBadLines: [WireError]?
    /// The estimated bytes of the reports of the events in the window, and the most held.
    private var heldReportBytes = 0
    private let reorderReportBytes: Int

    /// Opens the recording at `path`; the window holds at most `reorderCapacity` events, and takes no more once
    /// their reports reach `reorderReportBytes`.
    ///
    /// - Throws: a ``FileProblem``: `cannot read the recording PATH: no such file or directory`.
    public init(
        path: String, reorderCapacity: Int = RecordingReader.defaultReorderCapacity,
        reorderReportBytes: Int = RecordingReader.defaultReorderReportBytes
    ) throws(FileProblem) {
        file = try RecordingFile(path: path)
        window = ReorderWindow(capacity: reorderCapacity)
        self.reorderReportBytes = reorderReportBytes
    }

    /// The next event in playing order, or `nil` when the recording is over. Bad lines met on the way are counted.
    ///
    /// - Throws: a ``FileProblem`` when reading fails midway.
    public func next() throws(FileProblem) -> Entry? {
        while !exhausted, !window.isFull, heldReportBytes < reorderReportBytes {
            guard let line = try file.next() else {
                exhausted = true
                break
            }
            switch line {
            case .success(let event):
                heldReportBytes += event.report?.estimatedBytes ?? 0
                window.insert(Positioned(event: event, position: positions), at: event.time)
                positions += 1
            case .failure(let problem):
                badLineCount += 1
                lastBadLine = problem
                keptBadLines?.append(problem)
            }
        }
        guard let (positioned, time) = window.removeFirst() else { return nil }
        let event = positioned.event
        heldReportBytes -= event.report?.estimatedBytes ?? 0
        let start = self.start ?? time
        self.start = start
        // Microseconds, as recordings are written; clamped so no date a line can carry overflows.
        let micros = min(max((time.timeIntervalSince(start) * 1e6).rounded(), 0), 9e18)
        lastOffset = max(lastOffset, .microseconds(Int64(micros)))
        return Entry(event: event, offset: lastOffset, position: positioned.position)
    }

    /// Reads every remaining event into memory, with every bad line's problem. Memory grows with the file: the
    /// players never call it (they call ``next()``); tests and small exports do.
    public func readAll() throws(FileProblem) -> Recording {
        keptBadLines = []
        defer { keptBadLines = nil }
        var entries: [Entry] = []
        while let entry = try next() { entries.append(entry) }
        return Recording(entries: entries, badLines: keptBadLines ?? [])
    }
}

extension ExceptionReport {
    /// About what the report holds in memory: its text's bytes, and a few words for each value.
    var estimatedBytes: Int {
        func size(_ fields: [Field]) -> Int { fields.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 32 } }
        func size(of texts: String?...) -> Int { texts.reduce(0) { $0 + ($1?.utf8.count ?? 0) + 16 } }
        var total = size(tags) + size(user) + size(request) + size(about) + cut.reduce(0) { $0 + size(of: $1) }
        for section in contexts { total += size(of: section.name) + size(section.fields) }
        for crumb in breadcrumbs {
            total += size(of: crumb.category, crumb.level, crumb.type, crumb.message) + size(crumb.data)
        }
        for exception in exceptions {
            total += size(of: exception.type, exception.value, exception.module, exception.mechanism)
            for frame in exception.frames {
                total += size(of: frame.function, frame.module, frame.file, frame.contextLine) + size(frame.variables)
                total += frame.preContext.reduce(0) { $0 + size(of: $1) }
                total += frame.postContext.reduce(0) { $0 + size(of: $1) }
            }
        }
        return total
    }
}
