import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Reads a recording (an NDJSON file of wire events) for `replay` and `render --from FILE`.
///
/// Events come with their offsets from the first event, so a caller can replay them at any speed on any clock:
///
/// ```swift
/// let recording = try RecordingReader(path: "session.ndjson").read()
/// try await recording.replay(speed: 4, clock: ContinuousClock()) { event in show(event) }
/// ```
public struct RecordingReader: Sendable {
    /// One recorded event and when it happened relative to the recording's first event.
    public struct Entry: Sendable, Equatable {
        /// The event.
        public var event: WireEvent
        /// Time since the first event (never negative: out-of-order times replay at once).
        public var offset: Duration
    }

    /// A recording read into memory.
    public struct Recording: Sendable, Equatable {
        /// The good events, in file order.
        public var entries: [Entry]
        /// Lines that could not be decoded, by problem.
        public var badLines: [WireError]

        /// The events without their offsets.
        public var events: [WireEvent] { entries.map(\.event) }

        /// Calls `body` with each event at its offset divided by `speed`, sleeping on `clock` in between.
        ///
        /// A `speed` of 4 plays four times as fast; `.infinity` plays without waiting.
        public func replay<C: Clock>(
            speed: Double = 1, clock: C, _ body: (WireEvent) async throws -> Void
        ) async throws where C.Duration == Duration {
            precondition(speed > 0, "speed must be positive")
            let start = clock.now
            for entry in entries {
                if speed.isFinite {
                    let deadline = start.advanced(by: entry.offset / speed)
                    if deadline > clock.now { try await clock.sleep(until: deadline, tolerance: nil) }
                }
                try await body(entry.event)
            }
        }
    }

    /// The recording's path.
    public let path: String
    private let decoder = WireDecoder()

    /// A reader for the file at `path`.
    public init(path: String) {
        self.path = path
    }

    /// Reads the whole file; an unterminated last line counts too (a recorder that crashed mid-write leaves one).
    /// Entries keep the file's order; their offsets count from the earliest event.
    public func read() throws -> Recording {
        var info = stat()
        guard stat(path, &info) == 0 else { throw FileProblem(path: path, errno: errno, doing: "read the recording") }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw FileProblem(path: path, doing: "read the recording", reason: "it is not a regular file")
        }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            let code = (error as NSError).domain == NSPOSIXErrorDomain ? Int32((error as NSError).code) : EIO
            throw FileProblem(path: path, errno: code, doing: "read the recording")
        }
        var framer = LineFramer()
        var recording = Recording(entries: [], badLines: [])
        var events: [WireEvent] = []
        var frames = framer.feed(Array(data))
        if let rest = framer.finish() { frames.append(rest) }
        for frame in frames {
            switch frame.flatMap({ line in Result { () throws(WireError) in try decoder.decode(line) } }) {
            case .success(let event): events.append(event)
            case .failure(let error): recording.badLines.append(error)
            }
        }
        // Offsets count from the earliest event, not the first line: producers' clocks and the order lines were
        // written in need not agree.
        guard let origin = events.map(\.time).min() else { return recording }
        recording.entries = events.map { event in
            let seconds = event.time.timeIntervalSince(origin)
            return Entry(event: event, offset: .microseconds(Int64((seconds * 1e6).rounded())))
        }
        return recording
    }
}
