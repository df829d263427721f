// swift-tools-version:6.0
// errorwatch: a broadcast error stream for Swift apps, and a live terminal dashboard that watches it.

import PackageDescription

let package = Package(
    name: "errorwatch",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "ErrorStreaming", targets: ["ErrorStreaming"]),
        // The pure dashboard model, exported so Benchmarks/ (a separate package) can measure rendering.
        .library(name: "ErrorWatchUI", targets: ["ErrorWatchUI"]),
        .executable(name: "errorwatch", targets: ["errorwatch"]),
        // The NDJSON error feed: forwarder, listener, tailer, recorder (issue 6).
        .library(name: "ErrorWatchWire", targets: ["ErrorWatchWire"]),
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
    ],
    targets: [
        // The library an app imports: broadcast stream, handler tree, classification, bindings. No UI, no terminal.
        .target(
            name: "ErrorStreaming",
            dependencies: [
                .product(name: "DequeModule", package: "swift-collections")
            ]
        ),
        // Pure dashboard model: state, actions, reducer, layout, panes, ScreenBuffer, themes, keymap.
        .target(
            name: "ErrorWatchUI",
            dependencies: [
                "ErrorStreaming",
                .product(name: "DequeModule", package: "swift-collections"),
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
        // The only importer of CNCurses: copies buffer diffs to the terminal, reads keys, handles signals.
        .target(
            name: "ErrorWatchTerminal",
            dependencies: ["CNCurses", "ErrorWatchUI"]
        ),
        // The simulated app and the runtime that feeds the dashboard from an ErrorStream.
        .target(
            name: "ErrorWatchDemo",
            dependencies: [
                "ErrorStreaming",
                "ErrorWatchUI",
                "ErrorWatchWire",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                .product(name: "DequeModule", package: "swift-collections"),
            ]
        ),
        // @main: argument parsing and wiring, nothing else.
        .executableTarget(
            name: "errorwatch",
            dependencies: [
                "ErrorStreaming",
                "ErrorWatchUI",
                "ErrorWatchTerminal",
                "ErrorWatchDemo",
                "ErrorWatchWire",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The NDJSON wire feed: format, forwarder, listener, tailer, recorder. SwiftNIO for the sockets.
        .target(
            name: "ErrorWatchWire",
            dependencies: [
                "ErrorStreaming",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Load tool: producers at a target rate against a FeedListener; prints counts, rate and peak RSS.
        .executableTarget(
            name: "errorwatch-load",
            dependencies: [
                "ErrorWatchWire",
                "ErrorStreaming",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "ErrorStreamingTests", dependencies: ["ErrorStreaming"]),
        .testTarget(
            name: "ErrorWatchWireTests",
            dependencies: [
                "ErrorWatchWire",
                "ErrorStreaming",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
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
        .testTarget(name: "ErrorWatchTerminalTests", dependencies: ["ErrorWatchTerminal", "ErrorWatchUI"]),
        .testTarget(
            name: "ErrorWatchDemoTests",
            dependencies: ["ErrorWatchDemo", "ErrorWatchUI", "ErrorStreaming"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
