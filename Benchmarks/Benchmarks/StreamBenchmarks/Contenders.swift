import AsyncAlgorithms
import ErrorStreaming
import OpenCombine
import Synchronization

/// The error every benchmark adds: small, like most real errors.
struct BenchmarkError: Error {
    let code: Int
}

/// What one round measured: `errors` adds by one producer, each delivered to every listener.
struct Round {
    /// From the first listener's subscription to the last listener's loop ending.
    var total: Duration
    /// The producer's loop of `add` calls alone.
    var producer: Duration
    /// Errors received, summed over listeners.
    var delivered: Int
    var errors: Int

    var deliveriesPerSecond: Int { Int(Double(delivered) / total.seconds) }
    var nanosecondsPerAdd: Int { Int(producer.seconds * 1e9 / Double(errors)) }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) * 1e-18 }
}

/// One way of broadcasting errors to many listeners.
enum Contender: String, CaseIterable {
    case baseline = "Baseline (lock + [AsyncStream.Continuation])"
    case share = "AsyncAlgorithms share()"
    case subject = "OpenCombine PassthroughSubject"
    case errorStream = "ErrorStream"

    /// Runs one round; `bounded` selects `.bufferingNewest(1024)` (or the nearest equivalent) over unbounded.
    func run(listeners: Int, errors: Int, bounded: Bool) async -> Round {
        switch self {
        case .baseline: await runBaseline(listeners: listeners, errors: errors, bounded: bounded)
        case .share: await runShare(listeners: listeners, errors: errors, bounded: bounded)
        case .subject: runSubject(listeners: listeners, errors: errors)
        case .errorStream: await runErrorStream(listeners: listeners, errors: errors, bounded: bounded)
        }
    }
}

/// Spawns one counting loop per sequence, runs `produce` on the calling task, then `finish`, and waits.
private func broadcastRound<S: AsyncSequence & Sendable>(
    _ sequences: [S], errors: Int, start: ContinuousClock.Instant,
    produce: () -> Void, finish: () -> Void
) async -> Round where S.Failure == Never {
    await withTaskGroup(of: Int.self) { group in
        for sequence in sequences {
            group.addTask {
                var count = 0
                for await _ in sequence { count += 1 }
                return count
            }
        }
        let producerStart = ContinuousClock.now
        produce()
        let producer = ContinuousClock.now - producerStart
        finish()
        let delivered = await group.reduce(0, +)
        return Round(total: ContinuousClock.now - start, producer: producer, delivered: delivered, errors: errors)
    }
}

private func runErrorStream(listeners: Int, errors: Int, bounded: Bool) async -> Round {
    let start = ContinuousClock.now
    let stream = ErrorStream()
    let policy: ErrorStream.BufferingPolicy = bounded ? .bufferingNewest(1024) : .unbounded
    let sequences = (0..<listeners).map { _ in stream.updates(bufferingPolicy: policy) }
    return await broadcastRound(sequences, errors: errors, start: start) {
        for code in 0..<errors { stream.add(BenchmarkError(code: code)) }
    } finish: {
        stream.finish()
    }
}

private func runBaseline(listeners: Int, errors: Int, bounded: Bool) async -> Round {
    let start = ContinuousClock.now
    let stream = BaselineStream(policy: bounded ? .bufferingNewest(1024) : .unbounded)
    let sequences = (0..<listeners).map { _ in stream.updates }
    return await broadcastRound(sequences, errors: errors, start: start) {
        for code in 0..<errors { stream.add(BenchmarkError(code: code)) }
    } finish: {
        stream.finish()
    }
}

private func runShare(listeners: Int, errors: Int, bounded: Bool) async -> Round {
    let start = ContinuousClock.now
    let (source, continuation) = AsyncStream.makeStream(of: (any Error).self)
    let shared = source.share(bufferingPolicy: bounded ? .bufferingLatest(1024) : .unbounded)
    // share() registers a listener when its iterator is made, so wait until every loop has made one.
    let (ready, readySignal) = AsyncStream.makeStream(of: Void.self)
    return await withTaskGroup(of: Int.self) { group in
        for _ in 0..<listeners {
            group.addTask {
                var iterator = shared.makeAsyncIterator()
                readySignal.yield()
                var count = 0
                while (try? await iterator.next()) != nil { count += 1 }
                return count
            }
        }
        var readyCount = 0
        for await _ in ready {
            readyCount += 1
            if readyCount == listeners { break }
        }
        let producerStart = ContinuousClock.now
        for code in 0..<errors { continuation.yield(BenchmarkError(code: code)) }
        let producer = ContinuousClock.now - producerStart
        continuation.finish()
        let delivered = await group.reduce(0, +)
        return Round(total: ContinuousClock.now - start, producer: producer, delivered: delivered, errors: errors)
    }
}

/// Counts deliveries to one synchronous subscriber; only the producer's thread touches it.
private final class Counter {
    var count = 0
}

private func runSubject(listeners: Int, errors: Int) -> Round {
    let start = ContinuousClock.now
    let subject = PassthroughSubject<any Error, Never>()
    let counters = (0..<listeners).map { _ in Counter() }
    let subscriptions = counters.map { counter in subject.sink { _ in counter.count += 1 } }
    let producerStart = ContinuousClock.now
    for code in 0..<errors { subject.send(BenchmarkError(code: code)) }
    let producer = ContinuousClock.now - producerStart
    subject.send(completion: .finished)
    withExtendedLifetime(subscriptions) {}
    let delivered = counters.reduce(0) { $0 + $1.count }
    return Round(total: ContinuousClock.now - start, producer: producer, delivered: delivered, errors: errors)
}
