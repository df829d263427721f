// swift-tools-version:6.1
// Benchmarks for errorwatch, kept in their own package so that `swift test` at the root never builds them.
// Run from this folder: `swift package benchmark` (see the README for the exact commands and figures).

import PackageDescription

let package = Package(
    name: "errorwatch-benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "errorwatch", path: ".."),
        .package(url: "https://github.com/ordo-one/package-benchmark", from: "1.38.0", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/apple/swift-async-algorithms", from: "1.0.0"),
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
    ],
    targets: [
        // ErrorStream against the lock + dictionary-of-continuations pattern, share() and a synchronous subject.
        .executableTarget(
            name: "StreamBenchmarks",
            dependencies: [
                .product(name: "ErrorStreaming", package: "errorwatch"),
                .product(name: "Benchmark", package: "package-benchmark"),
                .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
                .product(name: "OpenCombine", package: "OpenCombine"),
            ],
            path: "Benchmarks/StreamBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
        // Peak RSS of a plain process (no harness) broadcasting 1M errors to 16 bounded listeners.
        .executableTarget(
            name: "StreamMemoryProbe",
            dependencies: [.product(name: "ErrorStreaming", package: "errorwatch")],
            path: "Sources/StreamMemoryProbe"
        ),
        // The line reader: mixed log shapes and our own wire lines, lines per second on one thread; and the forwarder's
        // encoding of a stream's events.
        .executableTarget(
            name: "LineReaderBenchmarks",
            dependencies: [
                .product(name: "ErrorStreaming", package: "errorwatch"),
                .product(name: "ErrorWatchWire", package: "errorwatch"),
                .product(name: "ErrorWatchIngest", package: "errorwatch"),
                .product(name: "Benchmark", package: "package-benchmark"),
            ],
            path: "Benchmarks/LineReaderBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
        // Rendering the dashboard into a ScreenBuffer and diffing frames.
        .executableTarget(
            name: "RenderBenchmarks",
            dependencies: [
                .product(name: "ErrorWatchUI", package: "errorwatch"),
                .product(name: "Benchmark", package: "package-benchmark"),
            ],
            path: "Benchmarks/RenderBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
