import ErrorWatchIngest
import ErrorWatchWire
import NIOCore
import NIOPosix
import Synchronization

/// One producer connection sending the same line at a steady rate, paced by its event loop every 10 ms.
///
/// Each tick writes the lines due since the start in one buffer. When the socket is not writable the lines due
/// are skipped and counted (the producer would have dropped them) rather than buffered without bound.
final class LoadProducer: Sendable {
    let channel: any Channel
    let line: [UInt8]
    let perSecond: Double
    let counters: LoadCounters
    private let ticker = Mutex<RepeatedTask?>(nil)
    private let due = Mutex<(start: NIODeadline, issued: UInt64)>((.now(), 0))
    private let lastWrite = Mutex<EventLoopFuture<Void>?>(nil)

    private init(channel: any Channel, line: [UInt8], perSecond: Double, counters: LoadCounters) {
        self.channel = channel
        self.line = line
        self.perSecond = perSecond
        self.counters = counters
    }

    static func connect(
        to endpoint: Endpoint, group: any EventLoopGroup, line: [UInt8], perSecond: Double, index: Int,
        counters: LoadCounters
    ) async throws -> LoadProducer {
        let bootstrap = ClientBootstrap(group: group)
            .channelOption(.writeBufferWaterMark, value: .init(low: 64 * 1024, high: 512 * 1024))
        let channel: any Channel
        switch endpoint {
        case .unix(let path): channel = try await bootstrap.connect(unixDomainSocketPath: path).get()
        case .tcp(let host, let port): channel = try await bootstrap.connect(host: host, port: port).get()
        }
        return LoadProducer(channel: channel, line: line, perSecond: perSecond, counters: counters)
    }

    func start() {
        due.withLock { $0 = (.now(), 0) }
        let task = channel.eventLoop.scheduleRepeatedTask(initialDelay: .zero, delay: .milliseconds(10)) { _ in
            self.tick()
        }
        ticker.withLock { $0 = task }
    }

    private func tick() {
        let count: UInt64 = due.withLock { due in
            let elapsed = Double((NIODeadline.now() - due.start).nanoseconds) / 1e9
            let target = UInt64(elapsed * perSecond)
            defer { due.issued = max(due.issued, target) }
            return target > due.issued ? target - due.issued : 0
        }
        guard count > 0 else { return }
        guard channel.isWritable else {
            counters.skipped.add(count, ordering: .relaxed)
            return
        }
        var buffer = channel.allocator.buffer(capacity: line.count * Int(count))
        for _ in 0..<count { buffer.writeBytes(line) }
        let promise = channel.eventLoop.makePromise(of: Void.self)
        channel.writeAndFlush(buffer, promise: promise)
        let counters = self.counters
        promise.futureResult.whenComplete { result in
            switch result {
            case .success: counters.sent.add(count, ordering: .relaxed)
            case .failure: counters.failed.add(count, ordering: .relaxed)
            }
        }
        lastWrite.withLock { $0 = promise.futureResult }
    }

    /// Stops the ticks and waits for the last write to complete.
    func stop() async throws {
        let task = ticker.withLock { $0 }
        let stopped = channel.eventLoop.makePromise(of: Void.self)
        task?.cancel(promise: stopped)
        try await stopped.futureResult.get()
        try? await channel.eventLoop.flatSubmit {
            self.lastWrite.withLock { $0 } ?? self.channel.eventLoop.makeSucceededVoidFuture()
        }.get()
    }

    func close() async throws { try await channel.close() }
}
