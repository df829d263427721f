import Foundation

/// Something that happened, which the reducer turns into a new ``DashboardState``. Named after what happened,
/// not after what to do.
public enum DashboardAction: Sendable {
    /// The user pressed a key.
    case keyPressed(Key)
    /// One event or log line arrived.
    case eventReceived(DashboardEvent)
    /// Several arrived at once; the runtime batches under load. Same result as one `eventReceived` per event,
    /// but a single state change (one generation step).
    case eventsReceived([DashboardEvent])
    /// The alert coalescer produced or updated an alert.
    case alertReceived(AlertRecord)
    /// The runtime sampled the metrics backend.
    case metricsSampled(MetricsSnapshot)
    /// The runtime's exact issue counts: the issues that changed since its last sample (upserted by
    /// fingerprint), and the fingerprints it stopped keeping.
    case issuesSampled(changed: [IssueRecord], evicted: [String])
    /// The handler tree reported how it dealt with the error of event `sequence`.
    case handlingReported(sequence: UInt64, HandlingSummary)
    /// A named status changed (a producer's `reconciler`, the demo's `login`); the latest per service and name
    /// wins.
    case statusChanged(StatusEntry)
    /// An app inside the dashboard's process attached itself: its keys join the keymap (footer, help overlay).
    case appAttached(AttachedApp)
    /// The clock moved on; ages, uptime and alert expiry follow it.
    case tick(Date)
    /// A frame is about to be drawn while the state has work spread over frames
    /// (``DashboardState/hasWorkInProgress``): re-filtering the Logs history takes its next slice. The loop sends it
    /// once per frame, so keys are answered between slices.
    case frameStarted
    /// The terminal changed size.
    case resized(width: Int, height: Int)
    /// A theme file was loaded: it is added to (or replaces, by name) the theme list and becomes current.
    case themeLoaded(Theme)
    /// The theme to show was chosen (at launch, from `--theme`): `index` into the theme list, clamped to it.
    case themeSelected(Int)
    /// The terminal turned out to show at most `depth` colours; a deeper setting is lowered to it.
    case colorDepthDetected(ColorDepth)
    /// A theme file failed to load: the current theme stays, the reason goes to the status line.
    case themeFailed(String)
    /// A message for the status line.
    case statusMessage(String)
    /// The producers watched from outside (sockets, tailed files, a recording) changed; the whole list, in order.
    case sourcesChanged([SourceStatus])
    /// How many ended sources the runtime no longer lists (it keeps the most recent ones): the total so far.
    case sourcesForgotten(Int)
    /// The spans received of a trace an error belongs to changed (more arrived, or the store evicted it); the
    /// latest per trace wins.
    case traceChanged(TraceSnapshot)
    /// A trace's row for the Traces view changed (spans arrived); the latest per trace wins. Rows of traces that
    /// arrived before its ``TraceSummary/heldFrom`` are gone from the store.
    case traceSummarized(TraceSummary)
    /// The store's state changed: `nil` when it works quietly, else what the header says (pruning, paused, off).
    case storeStatusChanged(String?)
    /// The receivers started listening at these addresses (the first screen says where to send until something
    /// arrives).
    case receiversListening([ReceiverAddress])
}
