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
    /// The named pipes among the paths, read until their writer closes them.
    private let fifoPaths: [String]
    /// The paths refused at start, each alone with its reason (``refusal(of:doing:)``).
    let refused: [FileProblem]
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
    ///     or named pipes to read until their writer closes them. Anything else (a directory, a device such as
    ///     `/dev/zero`, a socket, a file we may not read) is refused at start, alone: its row says why, the rest run.
    ///   - open: files to read from their beginning, then follow (`errorwatch FILE…`); a `.gz` file is inflated as
    ///     it is read. Refused like `tail`'s.
    ///   - fileDescriptorBudget: the most files open at once (``FileFollower/descriptorBudget(limit:)`` of the
    ///     process's limit, less the named pipes, by default); the others wait their turn.
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
        sentry: [SentryEndpoint] = [], sentryKey: String? = nil, fileDescriptorBudget: Int? = nil
    ) {
        var adjusted = configuration
        adjusted.format = format
        let configuration = adjusted
        self.format = format
        self.readsStandardInput = standardInput
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
                onBatch: { read in
                    // Named once per read, not once per event: a read holds hundreds of lines at full rate.
                    // `ProducerID` reads `#3` already: `socket #3`, not `socket ##3`.
                    let producer = read.producer
                    let name = names.withLock { $0.value(for: producer) { "socket \(producer) on \(endpoint)" } }
                    ingest.ingestBatch { batch in
                        for event in read.events { ingest.ingest(event, from: name, channel: .socket, into: &batch) }
                    }
                })
        }
        // Every file in one follower, so that files read together are merged by time; each knows what the store
        // counted of it before.
        let ledger: FileTailer.Ledger = { device, inode in ingest.fileMarks(device: device, inode: inode) }
        var tailers: [FileTailer] = []
        var fifos: [String] = []
        var refused: [FileProblem] = []
        let paths: [(String, FileTailer.StartPosition, String)] =
            tail.map { ($0, tailStart, "follow") } + open.map { ($0, .beginning, "read") }
        for (path, start, doing) in paths {
            if let problem = Self.refusal(of: path, doing: doing) {
                refused.append(problem)
            } else if Self.isFIFO(path) {
                fifos.append(path)
            } else {
                tailers.append(FileTailer(path: path, from: start, format: format, ledger: ledger))
            }
        }
        self.refused = refused
        fifoPaths = fifos
        // A named pipe holds its descriptor while it is read: it is taken from the files' budget.
        let budget =
            fileDescriptorBudget
            ?? max(1, FileFollower.descriptorBudget(limit: FileFollower.descriptorLimit()) - fifos.count)
        files = FileFollower(tailers: tailers, interval: tailInterval, descriptorBudget: budget)
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

    /// Why `path` cannot be read as a log, or `nil` when it can (a regular file we may read, a named pipe) or is
    /// missing (it is waited for). A directory, a socket and a device are refused: a device is no log, and
    /// `/dev/zero` or `/dev/urandom` would be read forever (pipe a bounded part instead: `head -c 1M /dev/urandom |
    /// errorwatch -`); so is a file we may not read.
    static func refusal(of path: String, doing: String) -> FileProblem? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            return errno == ENOENT ? nil : FileProblem(path: path, errno: errno, doing: doing)
        }
        if let reason = FileProblem.notFollowable(mode: info.st_mode, allowingPipes: true) {
            return FileProblem(path: path, doing: doing, reason: reason)
        }
        guard access(path, R_OK) == 0 else { return FileProblem(path: path, errno: errno, doing: doing) }
        return nil
    }

    /// The row of a path refused at start.
    static func refusedStatus(_ problem: FileProblem) -> SourceStatus {
        SourceStatus(
            id: "file:" + problem.path, kind: .file, name: (problem.path as NSString).lastPathComponent,
            detail: problem.path, state: "refused", health: .failing, lastProblem: problem.reason)
    }

    /// Shows the paths refused: a row each and one line on the status bar.
    private func announce(_ refused: [FileProblem]) {
        guard let first = refused.first else { return }
        ingest.update(refused.map(Self.refusedStatus))
        let more = refused.count > 1 ? " (and \(refused.count - 1) more; see Sources)" : ""
        ingest.inbox.post(.statusMessage("refused \(first)\(more)"))
    }

    /// Starts listening and tailing. Throws a clear error when an endpoint cannot be used (a live socket, a port
    /// in use); nothing is left listening then.
    public func start() async throws {
        var refused = self.refused
        var followers: [PipeFollower] = []
        for path in fifoPaths {
            do throws(FileProblem) {
                let reader = try StreamReader.openFIFO(path: path, format: format)
                followers.append(
                    PipeFollower(
                        reader: reader, id: "pipe:" + path, name: (path as NSString).lastPathComponent, detail: path))
            } catch {
                refused.append(error)
            }
        }
        announce(refused)
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

    /// Where each receiver listens and the setting that points an SDK at it, once started.
    public var receiverAddresses: [ReceiverAddress] {
        func url(_ host: String, _ port: Int) -> String {
            "http://" + (host.contains(":") ? "[\(host)]" : host) + ":\(port)"
        }
        var addresses: [ReceiverAddress] = []
        for endpoint in boundOTLPEndpoints {
            let base = url(endpoint.host, endpoint.port)
            switch endpoint.transport {
            case .http:
                addresses.append(
                    ReceiverAddress(kind: "OTLP/HTTP", address: base, setting: "OTEL_EXPORTER_OTLP_ENDPOINT=\(base)"))
            case .grpc:
                addresses.append(
                    ReceiverAddress(
                        kind: "OTLP/gRPC", address: base,
                        setting: "OTEL_EXPORTER_OTLP_ENDPOINT=\(base) OTEL_EXPORTER_OTLP_PROTOCOL=grpc"))
            }
        }
        for endpoint in boundSentryEndpoints {
            let base = url(endpoint.host, endpoint.port)
            addresses.append(
                ReceiverAddress(
                    kind: "Sentry", address: base + "/stream",
                    setting: "SENTRY_SPOTLIGHT=\(base)/stream (or a DSN: \(base.replacingOccurrences(of: "http://", with: "http://key@"))/1)"))
        }
        for endpoint in boundEndpoints {
            addresses.append(
                ReceiverAddress(kind: "NDJSON", address: endpoint.description, setting: "ERRORWATCH_ENDPOINT=\(endpoint)"))
        }
        return addresses
    }

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
