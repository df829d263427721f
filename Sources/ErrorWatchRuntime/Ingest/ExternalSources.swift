import ErrorStreaming
import ErrorWatchIngest
import ErrorWatchTerminal
import ErrorWatchUI
import ErrorWatchWire
import Foundation
import Synchronization

/// The producers a dashboard watches from outside its process: `--listen` endpoints (many producers each),
/// `--tail`ed files and named pipes, and standard input (`producer | errorwatch -`). Lines in any shape a
/// ``LineReader`` knows are read. Their events go through the runtime's ``RemoteIngest``; their status goes to the
/// `Sources` pane.
public final class ExternalSources: Sendable {
    let ingest: RemoteIngest
    let clock: ErasedClock
    private let listeners: [FeedListener]
    private let files: FileFollower
    private let tailPaths: [String]
    private let readsStandardInput: Bool
    private let format: LogFormat
    private let pipes = Mutex<[PipeFollower]>([])
    private let receivers: [any OTLPServer]
    private let sentryReceivers: [SentryReceiver]
    private let tasks = Mutex<[Task<Void, Never>]>([])
    /// How often a tailed file is checked for new lines.
    public let tailInterval: Duration

    /// - Parameters:
    ///   - listen: endpoints to accept producers on.
    ///   - tail: files to follow from `tailStart` (by default their current end), across truncation and rotation,
    ///     or named pipes to read until their writer closes them. Anything else (a directory, a device, a socket) is
    ///     refused at start.
    ///   - open: files to read from their beginning, then follow (`errorwatch FILE…`); a `.gz` file is inflated as
    ///     it is read.
    ///   - tailStart: where a `tail` file starts: its end, its last lines, or its beginning.
    ///   - standardInput: read standard input until it ends (`producer | errorwatch -`).
    ///   - format: the shape of every line read (``LogFormat/auto``: per line).
    ///   - otlp: OTLP/HTTP and OTLP/gRPC endpoints to receive OpenTelemetry logs and metrics on (docs/otlp.md).
    ///   - sentry: endpoints to receive Sentry SDKs' envelopes on (docs/sentry.md); `sentryKey`, when set, is the
    ///     `sentry_key` they must send.
    public init(
        listen: [Endpoint], tail: [String], open: [String] = [], tailStart: FileTailer.StartPosition = .end,
        standardInput: Bool = false, format: LogFormat = .auto, otlp: [OTLPEndpoint] = [], ingest: RemoteIngest,
        clock: ErasedClock,
        configuration: FeedListener.Configuration = FeedListener.Configuration(),
        otlpLimits: OTLPReceiver.Limits = OTLPReceiver.Limits(), tailInterval: Duration = .milliseconds(200),
        sentry: [SentryEndpoint] = [], sentryKey: String? = nil
    ) {
        var adjusted = configuration
        adjusted.format = format
        let configuration = adjusted
        self.format = format
        self.readsStandardInput = standardInput
        self.tailPaths = tail + open
        self.ingest = ingest
        self.clock = clock
        self.tailInterval = tailInterval
        listeners = listen.map { endpoint in
            let names = Mutex(RecentTable<ProducerID, String>(capacity: 4_096))
            return FeedListener(
                endpoint: endpoint, configuration: configuration,
                onStatus: { ingest.update(SourceStatus($0, listener: endpoint)) },
                onStatistics: { statistics in
                    ingest.update(SourceStatus(listener: endpoint, statistics, configuration: configuration))
                },
                onEvent: { producer, event in
                    // Named once per producer, not once per event: this runs for every line at full rate.
                    // `ProducerID` reads `#3` already: `socket #3`, not `socket ##3`.
                    let name = names.withLock { $0.value(for: producer) { "socket \(producer) on \(endpoint)" } }
                    ingest.ingest(event, from: name, channel: .socket)
                })
        }
        // Every file in one follower, so that files read together are merged by time; each knows what the store
        // counted of it before.
        let ledger: FileTailer.Ledger = { device, inode in ingest.fileMarks(device: device, inode: inode) }
        let tailers =
            tail.filter { !Self.isFIFO($0) }.map {
                FileTailer(path: $0, from: tailStart, format: format, ledger: ledger)
            }
            + open.filter { !Self.isFIFO($0) }.map {
                FileTailer(path: $0, from: .beginning, format: format, ledger: ledger)
            }
        files = FileFollower(tailers: tailers, interval: tailInterval)
        receivers = otlp.map { endpoint in ingest.makeOTLPServer(endpoint: endpoint, limits: otlpLimits) }
        sentryReceivers = sentry.map { endpoint in
            var limits = otlpLimits
            limits.maximumBodyBytes = max(limits.maximumBodyBytes, 20 * 1024 * 1024)
            return ingest.makeSentryReceiver(endpoint: endpoint, requiredKey: sentryKey, limits: limits)
        }
    }

    private static func isFIFO(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO
    }

    /// Refuses what `--tail` cannot follow: a directory, a device, a socket. A missing file is waited for.
    private static func checkTailable(_ path: String) throws(FileProblem) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { return }
            throw FileProblem(path: path, errno: errno, doing: "follow")
        }
        guard let reason = FileProblem.notFollowable(mode: info.st_mode, allowingPipes: true) else { return }
        throw FileProblem(path: path, doing: "follow", reason: reason)
    }

    /// Starts listening and tailing. Throws a clear error when an endpoint cannot be used (a live socket, a port
    /// in use); nothing is left listening then.
    public func start() async throws {
        for path in tailPaths { try Self.checkTailable(path) }
        var followers: [PipeFollower] = []
        for path in tailPaths where Self.isFIFO(path) {
            let reader = try StreamReader.openFIFO(path: path, format: format)
            followers.append(
                PipeFollower(
                    reader: reader, id: "pipe:" + path, name: (path as NSString).lastPathComponent, detail: path))
        }
        if readsStandardInput {
            followers.append(
                PipeFollower(
                    reader: StreamReader(descriptor: STDIN_FILENO, format: format), id: "pipe:stdin", name: "stdin",
                    detail: "standard input"))
        }
        var started: [FeedListener] = []
        var startedReceivers: [any OTLPServer] = []
        var startedSentry: [SentryReceiver] = []
        do {
            for listener in listeners {
                try await listener.start()
                started.append(listener)
            }
            for receiver in receivers {
                try await receiver.start()
                startedReceivers.append(receiver)
            }
            for receiver in sentryReceivers {
                try await receiver.start()
                startedSentry.append(receiver)
            }
        } catch {
            for listener in started { await listener.shutdown() }
            for receiver in startedReceivers { await receiver.shutdown() }
            for receiver in startedSentry { await receiver.shutdown() }
            throw error
        }
        // A crash signal ends the process without the shutdown below: the socket files go then too.
        for path in socketPaths { CrashCleanup.removeOnAbnormalExit(path) }
        for follower in followers { follower.start(into: ingest) }
        pipes.withLock { $0 = followers }
        let clock = self.clock
        files.start(into: ingest, clock: clock)
        if !listeners.isEmpty {
            // A connected producer's row is announced once and updated when it ends; its counts move in the
            // listener's snapshot. Once a second the rows of live producers take them, so a flood does not read
            // "1 ev" until the producer disconnects.
            let listeners = self.listeners
            let refresh = Task {
                while !Task.isCancelled {
                    do { try await clock.sleep(for: .seconds(1)) } catch { return }
                    ingest.refresh(
                        listeners.flatMap { listener in
                            listener.producers.map { SourceStatus($0, listener: listener.endpoint) }
                        })
                }
            }
            tasks.withLock { $0.append(refresh) }
        }
        if !receivers.isEmpty || !sentryReceivers.isEmpty {
            // A receiver's budgets row, when it had to evict or refuse: read once a second, not posted per event.
            let (receivers, sentryReceivers, ingest) = (self.receivers, self.sentryReceivers, self.ingest)
            let watch = Task {
                var shown = receivers.map { _ in OTLPReceiver.Statistics() }
                var shownTraces = TraceStore.Statistics()
                var shownSentry = sentryReceivers.map { _ in HTTPReceiverStatistics() }
                while !Task.isCancelled {
                    do { try await clock.sleep(for: .seconds(1)) } catch { return }
                    for (index, receiver) in receivers.enumerated() {
                        shown[index] = ingest.publishStatistics(of: receiver, shown: shown[index])
                    }
                    shownTraces = ingest.publishTraceStatistics(shown: shownTraces)
                    for (index, receiver) in sentryReceivers.enumerated() {
                        shownSentry[index] = ingest.publishStatistics(of: receiver, shown: shownSentry[index])
                    }
                }
            }
            tasks.withLock { $0.append(watch) }
        }
    }

    /// The Unix socket files the listeners created.
    private var socketPaths: [String] {
        listeners.compactMap { listener in
            if case .unix(let path)? = listener.localEndpoint { return path }
            return nil
        }
    }

    /// The endpoints actually bound (a TCP port 0 becomes the port chosen).
    public var boundEndpoints: [Endpoint] { listeners.compactMap(\.localEndpoint) }

    /// The OTLP endpoints actually bound (port 0 becomes the port chosen).
    public var boundOTLPEndpoints: [OTLPEndpoint] { receivers.compactMap(\.localEndpoint) }

    /// The Sentry endpoints actually bound (port 0 becomes the port chosen).
    public var boundSentryEndpoints: [SentryEndpoint] { sentryReceivers.compactMap(\.localEndpoint) }

    /// Stops tailing, closes every connection and removes socket files.
    public func shutdown() async {
        let running = tasks.withLock { $0 }
        for task in running { task.cancel() }
        for task in running { await task.value }
        await files.stop()
        for follower in pipes.withLock({ $0 }) { await follower.stop() }
        for path in socketPaths { CrashCleanup.forget(path) }
        for listener in listeners { await listener.shutdown() }
        for receiver in receivers { await receiver.shutdown() }
        for receiver in sentryReceivers { await receiver.shutdown() }
    }
}

extension Format {
    /// `0.5s`, `8s`: a backoff delay.
    static func seconds(_ duration: Duration) -> String {
        let value = duration / .seconds(1)
        return (value == value.rounded() ? String(Int(value)) : String(value)) + "s"
    }

    /// `4`, `0.5`, `1.25`.
    static func speed(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
