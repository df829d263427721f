// The doubles an app's tests import, kept as their own product like swift-log's InMemoryLogging.
//
// `ManualClock` and `SeededGenerator` live in ErrorStreaming because production code (the headless renderer, the
// demo's `--seed` replays, the example shop) runs on them and no production target may link a *Testing product.
// This module re-exports ErrorStreaming so an app's tests keep writing `import ErrorStreamingTesting` and find them.
@_exported import ErrorStreaming
