// swift-tools-version:6.0
// errorwatch: a broadcast error stream for Swift apps, and a live terminal dashboard that watches any app's errors.

import PackageDescription

let package = Package(
    name: "errorwatch",
    platforms: [.macOS(.v15)],
    products: [
        // What an app imports: broadcast stream, handler tree, classification, bindings.
        .library(name: "ErrorStreaming", targets: ["ErrorStreaming"]),
        // What apps' own tests import, as swift-log keeps InMemoryLogging apart: re-exports ErrorStreaming with its
        // ManualClock and SeededGenerator. No production target depends on it (.ci/check-imports.sh holds that).
        .library(name: "ErrorStreamingTesting", targets: ["ErrorStreamingTesting"]),
        // Error counters through swift-metrics (`errors_total`), apart so apps without swift-metrics do not link it.
        .library(name: "ErrorStreamingMetrics", targets: ["ErrorStreamingMetrics"]),
        // What an app links to send: the NDJSON format and the forwarder, with its log and metrics handlers.
        .library(name: "ErrorWatchWire", targets: ["ErrorWatchWire"]),
        // What the dashboard links to receive: listeners, tailer, file and pipe readers, log-line shapes, the
        // OTLP/HTTP receiver and recordings. Apart, so an app that only forwards never links an HTTP server or zlib.
        .library(name: "ErrorWatchIngest", targets: ["ErrorWatchIngest"]),
        // The pure dashboard model, exported so Benchmarks/ (a separate package) can measure rendering.
        .library(name: "ErrorWatchUI", targets: ["ErrorWatchUI"]),
        // Between sources and the screen: feeds, ingest, sources, recorder, sessions, the app-attach interface.
        .library(name: "ErrorWatchRuntime", targets: ["ErrorWatchRuntime"]),
        // The in-memory terminal backend, for tests that drive the real loop or a whole session.
        .library(name: "ErrorWatchTerminalTesting", targets: ["ErrorWatchTerminalTesting"]),
        .executable(name: "errorwatch", targets: ["errorwatch"]),
        // Load tool for the wire feed: N producers at a target rate against an in-process or running listener.
        .executable(name: "errorwatch-load", targets: ["errorwatch-load"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.5.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.1.0"),
        .package(url: "https://github.com/pointfreeco/swift-snapshot-testing", from: "1.17.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        // OTLP/HTTP's protobuf bodies; the code is generated once (scripts/generate-otlp.sh) and committed.
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
        // OTLP/gRPC: the collector services over HTTP/2 (the dashboard only; ErrorWatchWire never links them).
        .package(url: "https://github.com/grpc/grpc-swift-2", from: "2.4.3"),
        .package(url: "https://github.com/grpc/grpc-swift-nio-transport", from: "2.9.2"),
        .package(url: "https://github.com/grpc/grpc-swift-protobuf", from: "2.4.1"),
        // Already under the gRPC transport; named so the receiver can count a client's HTTP/2 breaches.
        .package(url: "https://github.com/apple/swift-nio-http2", from: "1.46.0"),
        // The embedded store: SQLite (Debian's libsqlite3-dev) through GRDB's pool, migrator and WAL.
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        // The library an app imports: broadcast stream, handler tree, classification, bindings. No UI, no terminal.
        .target(
            name: "ErrorStreaming",
            dependencies: [
                .product(name: "DequeModule", package: "swift-collections")
            ]
        ),
        .target(name: "ErrorStreamingTesting", dependencies: ["ErrorStreaming"]),
        // A stream's errors as swift-metrics counters and its drops and listeners as gauges; CoreMetrics only, so
        // any backend (swift-prometheus, OTel) exports them.
        .target(
            name: "ErrorStreamingMetrics",
            dependencies: ["ErrorStreaming", .product(name: "CoreMetrics", package: "swift-metrics")]
        ),
        // The NDJSON wire format and what an app links to send it: the forwarder, the forwarding log and metrics
        // handlers. SwiftNIO for the forwarder's socket; no HTTP server, no zlib, no protobuf.
        .target(
            name: "ErrorWatchWire",
            dependencies: [
                "ErrorStreaming",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ]
        ),
        // Every way in for the dashboard: the NDJSON listener, the tailer and stream reader, the log-line shapes,
        // the OTLP/HTTP and OTLP/gRPC receivers and recordings. Each ends in a `WireEvent` with where it came from.
        .target(
            name: "ErrorWatchIngest",
            dependencies: [
                "ErrorStreaming",
                "ErrorWatchWire",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                // A recording's reorder window (events put back in time order in bounded memory).
                .product(name: "HeapModule", package: "swift-collections"),
                // The producers recently disconnected, kept in the order they left.
                .product(name: "OrderedCollections", package: "swift-collections"),
                // The OTLP/HTTP receiver: NIO's HTTP/1.1 codec, protobuf, gzip bodies.
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                "CZlib",
                // `errorwatch run`'s child: posix_spawn in a session of its own and a pseudo-terminal.
                "CProcessSpawn",
                // The OTLP/gRPC receiver: grpc-swift 2 on SwiftNIO's HTTP/2 (gzip requests inflated by the transport),
                // google.rpc.Status details (RetryInfo) from GRPCProtobuf.
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCNIOTransportHTTP2Posix", package: "grpc-swift-nio-transport"),
                .product(name: "GRPCProtobuf", package: "grpc-swift-protobuf"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
            ]
        ),
        // zlib, for OTLP/HTTP's `Content-Encoding: gzip` (Foundation on Linux has no inflate). Debian's zlib1g-dev.
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
        // posix_spawn with POSIX_SPAWN_SETSID and addchdir_np, and a pseudo-terminal that passes output through:
        // GNU extensions that Swift's Glibc module does not show.
        .target(name: "CProcessSpawn"),
        // Pure dashboard model: state, actions, store, reducer, layout, panes, ScreenBuffer, themes, keymap.
        // Knows no demo, no terminal, no clock.
        .target(
            name: "ErrorWatchUI",
            dependencies: [
                "ErrorStreaming",
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "OrderedCollections", package: "swift-collections"),
            ]
        ),
        // ncursesw, wide-character build, with a shim for the macros Swift cannot import. Debian's
        // libncurses-dev provides it. No `pkgConfig:` on purpose: ncursesw.pc carries -D_DEFAULT_SOURCE and
        // -D_XOPEN_SOURCE=600, which SwiftPM refuses with a warning on every build; the header sits on the
        // default include path and module.modulemap links ncursesw and tinfo itself.
        .systemLibrary(
            name: "CNCurses",
            providers: [.apt(["libncurses-dev"])]
        ),
        // The only importer of CNCurses: the loop generic over its backend, ncurses, keys, signals, the raw console.
        .target(
            name: "ErrorWatchTerminal",
            dependencies: ["CNCurses", "ErrorWatchUI", "ErrorStreaming"]
        ),
        .target(name: "ErrorWatchTerminalTesting", dependencies: ["ErrorWatchTerminal", "ErrorWatchUI"]),
        // Between sources and the screen: feeds, inbox, ingest, sources, recorder, metrics backend, themes,
        // simulation executor, headless renderer, DashboardSession and the app-attach interface.
        .target(
            name: "ErrorWatchRuntime",
            dependencies: [
                "ErrorStreaming",
                "ErrorWatchUI",
                "ErrorWatchWire",
                "ErrorWatchIngest",
                "ErrorWatchTerminal",
                "ErrorWatchStore",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                .product(name: "DequeModule", package: "swift-collections"),
                // The error counter's top-K table (smallest count first).
                .product(name: "HeapModule", package: "swift-collections"),
                .product(name: "OrderedCollections", package: "swift-collections"),
            ]
        ),
        // The embedded store: issues, triage and occurrences in SQLite (WAL), written off the UI thread in batches,
        // read by `errorwatch issues`. Knows the UI's model types (issues, triage), never the terminal.
        .target(
            name: "ErrorWatchStore",
            dependencies: ["ErrorStreaming", "ErrorWatchUI", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        // The simulated app, attached to the dashboard like any app. Knows no UI, runtime or terminal.
        .target(
            name: "ErrorWatchDemo",
            dependencies: [
                "ErrorStreaming",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ]
        ),
        // @main: argument parsing and wiring, nothing else (plus the demo's small adapter to the runtime).
        .executableTarget(
            name: "errorwatch",
            dependencies: [
                "ErrorStreaming",
                "ErrorWatchUI",
                "ErrorWatchTerminal",
                "ErrorWatchRuntime",
                "ErrorWatchDemo",
                "ErrorWatchWire",
                "ErrorWatchIngest",
                "ErrorWatchStore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Load tool: producers at a target rate against a FeedListener; prints counts, rate and peak RSS.
        .executableTarget(
            name: "errorwatch-load",
            dependencies: [
                "ErrorWatchWire",
                "ErrorWatchIngest",
                "ErrorStreaming",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "ErrorStreamingTests", dependencies: ["ErrorStreaming", "ErrorStreamingTesting"]),
        .testTarget(
            name: "ErrorStreamingMetricsTests",
            dependencies: [
                "ErrorStreamingMetrics", "ErrorStreaming",
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ]
        ),
        // A listener and a probe collecting what it receives: the peer the forwarder's tests send to, and the
        // harness of the receivers' tests. A plain target under Tests/, never a product.
        .target(
            name: "IngestTestSupport",
            dependencies: [
                "ErrorWatchWire", "ErrorWatchIngest",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            path: "Tests/IngestTestSupport"
        ),
        // The format and the forwarder; its end-to-end tests send to a real listener from ErrorWatchIngest.
        .testTarget(
            name: "ErrorWatchWireTests",
            dependencies: [
                "ErrorWatchWire",
                "ErrorWatchIngest",
                "IngestTestSupport",
                "ErrorStreaming",
                "ErrorStreamingTesting",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ]
        ),
        .testTarget(
            name: "ErrorWatchIngestTests",
            dependencies: [
                "ErrorWatchIngest",
                "ErrorWatchWire",
                "IngestTestSupport",
                "CZlib",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                // Raw gRPC calls for the OTLP/gRPC receiver's hostile tests (streams that never send a message).
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCNIOTransportHTTP2Posix", package: "grpc-swift-nio-transport"),
                "ErrorStreaming",
                "ErrorStreamingTesting",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "ErrorWatchUITests",
            dependencies: [
                "ErrorWatchUI",
                "ErrorStreaming",
                .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
            ],
            exclude: ["__Snapshots__"]
        ),
        .testTarget(
            name: "ErrorWatchTerminalTests",
            dependencies: ["ErrorWatchTerminal", "ErrorWatchTerminalTesting", "ErrorWatchUI", "ErrorStreamingTesting"]
        ),
        .testTarget(
            name: "ErrorWatchRuntimeTests",
            dependencies: [
                "ErrorWatchRuntime", "ErrorWatchUI", "ErrorWatchWire", "ErrorWatchIngest", "ErrorWatchStore",
                "ErrorStreaming", "ErrorStreamingTesting",
                "ErrorWatchTerminalTesting",
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
                // A trigger that refuses writes, to pause a store on purpose.
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            exclude: ["__Snapshots__", "Fixtures"]
        ),
        .testTarget(
            name: "ErrorWatchStoreTests",
            dependencies: [
                "ErrorWatchStore", "ErrorWatchUI", "ErrorStreaming", .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "ErrorWatchDemoTests",
            dependencies: [
                "ErrorWatchDemo", "ErrorStreaming", "ErrorStreamingTesting",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ]
        ),
        // The executable's wiring: the demo's adapter, the README capture, headless renders of the demo.
        .testTarget(
            name: "errorwatchTests",
            dependencies: [
                "errorwatch", "ErrorWatchRuntime", "ErrorWatchDemo", "ErrorWatchUI", "ErrorStreaming",
                "ErrorStreamingTesting", "ErrorWatchTerminalTesting",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
