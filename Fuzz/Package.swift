// swift-tools-version:6.0
// libFuzzer targets for errorwatch's decoders of untrusted input, kept in their own package so that the root
// package's `swift build` and `swift test` (and so CI) never build them. Build and run with `Fuzz/run.sh`
// (docs/fuzzing.md): `swift build -c release --sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=fuzzer,address`
// (both kinds of flag: see the script), one executable per decoder, each exposing `LLVMFuzzerTestOneInput`
// (libFuzzer supplies `main`).

import PackageDescription

let wire = Target.Dependency.product(name: "ErrorWatchWire", package: "errorwatch")
let ingest = Target.Dependency.product(name: "ErrorWatchIngest", package: "errorwatch")
/// What the wire targets share: the recorder's round trip as a check.
let wireAndSupport: [Target.Dependency] = [wire, "FuzzSupport"]
/// What the receivers' targets share.
let ingestAndSupport: [Target.Dependency] = [wire, ingest, "FuzzSupport"]

let package = Package(
    name: "errorwatch-fuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "errorwatch", path: "..")
    ],
    targets: [
        .target(
            name: "FuzzSupport", dependencies: [wire, .product(name: "ErrorStreaming", package: "errorwatch")]),
        // The NDJSON wire scanner: one line through `WireDecoder`, and the round trip through `WireEncoder`.
        .executableTarget(name: "FuzzWireDecoder", dependencies: wireAndSupport),
        // RFC 3339 times, as a wire event's `time`: parse, format, parse again.
        .executableTarget(name: "FuzzRFC3339", dependencies: [wire]),
        // Theme files: `ThemeLoader.parse`.
        .executableTarget(
            name: "FuzzThemeLoader", dependencies: [.product(name: "ErrorWatchUI", package: "errorwatch")]
        ),
        // Recordings: `RecordingReader` on a file (`LineFramer`, the wire decoder, offsets).
        .executableTarget(name: "FuzzRecordingReader", dependencies: [wire, ingest]),
        // Log streams: `LineFramer` and `LineReader` (every log shape, timestamps, traceback folding).
        .executableTarget(name: "FuzzLineReader", dependencies: ingestAndSupport),
        // OTLP/HTTP bodies: `OTLPRequestDecoder` (gzip, protobuf, OTLP/JSON, the mappers).
        .executableTarget(name: "FuzzOTLP", dependencies: ingestAndSupport),
        // OTLP/HTTP trace exports: `OTLPRequestDecoder` on `/v1/traces` (the trace mapper, its memory of failures).
        .executableTarget(name: "FuzzOTLPTraces", dependencies: ingestAndSupport),
        // OTLP/gRPC calls: `OTLPGRPCMessageFraming`, the five-byte message prefixes read across DATA frames.
        .executableTarget(name: "FuzzGRPCFraming", dependencies: [ingest]),
        // Sentry requests: `SentryRequestDecoder` (gzip, the envelope reader, the event, transaction and log mappers).
        .executableTarget(name: "FuzzSentry", dependencies: ingestAndSupport),
        // One Sentry item: `SentryRequestDecoder` on an envelope of one event, transaction or log item (or the store
        // endpoint), so the bounded item reader (`SentryJSONReader`) and the mappers get every byte.
        .executableTarget(name: "FuzzSentryItem", dependencies: ingestAndSupport),
    ],
    swiftLanguageModes: [.v6]
)
