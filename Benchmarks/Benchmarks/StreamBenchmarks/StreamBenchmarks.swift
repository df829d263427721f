import Benchmark

#if canImport(Glibc)
    import Glibc
#endif

/// Custom metrics: package-benchmark records one value per iteration and reports percentiles.
enum StreamMetric {
    /// Errors received per second, summed over listeners, from subscription to the last loop's end.
    static let deliveries = BenchmarkMetric.custom("deliveries/s", polarity: .prefersLarger, useScalingFactor: false)
    /// The producer's wall time per `add` (`send`, `yield`) while the listeners are consuming.
    static let addCost = BenchmarkMetric.custom("ns per add", polarity: .prefersSmaller, useScalingFactor: false)
}

/// Errors per round in the delivery benchmarks.
let errorsPerRound = 100_000

/// Errors in the memory benchmark: 1M, each to 16 listeners.
let errorsForMemory = 1_000_000

/// Returns the heap freed by earlier benchmarks in this process to the OS, so peak RSS reflects this one.
@Sendable func releaseFreedMemory() async throws {
    #if canImport(Glibc)
        // malloc_trim is a glibc extension the Glibc module does not import; look it up instead.
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") {
            typealias MallocTrim = @convention(c) (Int) -> Int32
            _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
        }
    #endif
}

let benchmarks: @Sendable () -> Void = {
    let deliveryConfiguration = Benchmark.Configuration(
        metrics: [.wallClock, StreamMetric.deliveries, StreamMetric.addCost],
        units: [StreamMetric.deliveries: .kilo, StreamMetric.addCost: .count],
        warmupIterations: 1,
        maxDuration: .seconds(5),
        maxIterations: 5
    )
    for listeners in [1, 4, 16] {
        for contender in Contender.allCases {
            let name = "Deliveries \(listeners) listeners: \(contender.rawValue)"
            Benchmark(name, configuration: deliveryConfiguration) { benchmark in
                let round = await contender.run(listeners: listeners, errors: errorsPerRound, bounded: false)
                precondition(round.delivered == listeners * errorsPerRound, "lost deliveries: \(round)")
                benchmark.measurement(StreamMetric.deliveries, round.deliveriesPerSecond)
                benchmark.measurement(StreamMetric.addCost, round.nanosecondsPerAdd)
            }
        }
    }

    // share() would take about a minute for 16M deliveries here; the three others show the picture.
    let memoryConfiguration = Benchmark.Configuration(
        metrics: [.peakMemoryResident, .peakMemoryResidentDelta, .wallClock, StreamMetric.deliveries],
        units: [.peakMemoryResident: .kilo, .peakMemoryResidentDelta: .kilo, StreamMetric.deliveries: .kilo],
        warmupIterations: 0,
        maxDuration: .seconds(1),
        maxIterations: 1,
        setup: releaseFreedMemory
    )
    // The harness process at rest (runtime, Foundation, the sampler, heap left by earlier benchmarks, trimmed):
    // subtract it to see what a contender adds.
    Benchmark("Memory idle process (no stream)", configuration: memoryConfiguration) { benchmark in
        blackHole(benchmark)
    }
    for contender in [Contender.errorStream, .baseline, .subject] {
        Benchmark(
            "Memory 1M errors x 16 listeners, newest(1024): \(contender.rawValue)",
            configuration: memoryConfiguration
        ) { benchmark in
            let round = await contender.run(listeners: 16, errors: errorsForMemory, bounded: true)
            benchmark.measurement(StreamMetric.deliveries, round.deliveriesPerSecond)
        }
    }
}
