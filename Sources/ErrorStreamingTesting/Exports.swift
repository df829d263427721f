// The doubles an app's tests import, kept as their own product like swift-log's InMemoryLogging.
//
// `ManualClock` lives in ErrorStreaming because production code (the headless renderer, simulations) runs on it
// and no production target may link a *Testing product. This module re-exports ErrorStreaming so an app's tests
// keep writing `import ErrorStreamingTesting` and find it.
@_exported import ErrorStreaming
