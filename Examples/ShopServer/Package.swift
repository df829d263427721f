// swift-tools-version:6.1
// ShopServer: a Hummingbird 2 shop whose checkout fails in realistic ways, watched live by errorwatch. Its own
// package, depending on errorwatch by path, so `swift test` at the root never builds Hummingbird.
// Run from this folder: `swift run shop-server --port 8080 --errorwatch unix:/tmp/ew.sock` (see the README).

import PackageDescription

let package = Package(
    name: "shop-server",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "errorwatch", path: "../.."),
        // Without swift-configuration support (a default trait): the shop reads its options from the command line.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: ["FullFoundation"]),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.5.0"),
        // `--otel ENDPOINT`: traces, logs and metrics over OTLP (HTTP or gRPC). Only this example depends on it.
        .package(url: "https://github.com/swift-otel/swift-otel", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
    ],
    targets: [
        // The shop's domain: catalog, checkout and its failures, the handler tree. No HTTP, so tests run it fast.
        .target(
            name: "ShopCore",
            dependencies: [
                .product(name: "ErrorStreaming", package: "errorwatch"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]
        ),
        // The HTTP server: routes, /metrics, the wiring to errorwatch and Prometheus, the command line.
        .executableTarget(
            name: "shop-server",
            dependencies: [
                "ShopCore",
                .product(name: "ErrorStreaming", package: "errorwatch"),
                .product(name: "ErrorStreamingMetrics", package: "errorwatch"),
                .product(name: "ErrorWatchWire", package: "errorwatch"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "OTel", package: "swift-otel"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(
            name: "ShopCoreTests",
            dependencies: [
                "ShopCore",
                .product(name: "ErrorStreaming", package: "errorwatch"),
                .product(name: "ErrorStreamingTesting", package: "errorwatch"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
