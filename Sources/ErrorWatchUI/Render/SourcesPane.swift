import ErrorStreaming
import Foundation

/// The `Sources` pane: one row per producer watched from outside (a `--listen` connection, a `--tail`ed file, a
/// recording), with its health, name, state, events received, bad lines and the last problem.
public enum SourcesPane: Widget {
    public static func part(of state: DashboardState) -> FeedsState { state.feeds }

    /// An empty area draws nothing.
    public static func render(_ input: WidgetInput<SourcesPane>, in area: Rect, into buffer: inout ScreenBuffer) {
        guard !area.isEmpty else { return }
        let (feeds, screen, palette) = (input.part, input.screen, input.palette)
        // Listeners' own rows (what they refused or evicted) come first and stay; producers fill the rest.
        let listeners = feeds.sources.filter { $0.kind == .listener }
        let producers = feeds.sources.filter { $0.kind != .listener }
        let connected = producers.filter { live($0, now: screen.now) }.count
        var label = "\(connected) of \(Format.count(producers.count + feeds.forgottenSources)) live"
        let waiting = producers.filter(\.waitsForTurn).count
        if waiting > 0 { label += " · \(Format.count(waiting)) waiting" }
        if feeds.forgottenSources > 0 {
            label += " · \(Format.count(feeds.forgottenSources)) ended unlisted"
        }
        let inner = Dashboard.frame(.sources, screen: screen, in: area, into: &buffer, palette: palette, label: label)
        guard !inner.isEmpty else { return }
        let pinned = listeners.prefix(max(0, inner.height - 1))
        let shown = Array(pinned) + producers.suffix(inner.height - pinned.count)
        // A name takes what it needs while the counts and a dozen columns of state keep theirs.
        let countsRoom = shown.map { DisplayWidth.of(Self.counts($0)) + 1 }.max() ?? 0
        let nameRoom = max(16, inner.width - 3 - 1 - countsRoom - 12)
        let nameWidth = min(nameRoom, shown.map { DisplayWidth.of($0.name) }.max() ?? 6)
        for (row, source) in shown.enumerated() {
            let y = inner.y + row
            let silent = silence(source, now: screen.now)
            let shownHealth =
                (silent != nil || source.waitsForTurn) && source.health == .ok ? StatusHealth.idle : source.health
            let health = palette.style(for: shownHealth)
            buffer.write(
                shownHealth.glyph(unicode: screen.unicode), x: inner.x + 1, y: y, width: 2, style: health)
            var column = inner.x + 3
            buffer.write(
                source.name, x: column, y: y, width: min(nameWidth, inner.maxX - column), style: palette[.title])
            column += nameWidth + 1
            let counts = Self.counts(source)
            let countsWidth = DisplayWidth.of(counts) + 1
            guard column < inner.maxX - countsWidth else { continue }
            var detail = source.state
            if let silent { detail = "idle \(Format.age(silent)) · " + detail }
            if let problem = source.lastProblem, source.health != .ok { detail += ": " + problem }
            buffer.write(detail, x: column, y: y, width: inner.maxX - column - countsWidth, style: health)
            buffer.write(
                counts, x: inner.maxX - countsWidth + 1, y: y, width: countsWidth - 1,
                style: palette[source.badLines > 0 ? .severityWarning : .muted])
        }
    }

    /// `12 ev`, or `12 ev, 3 bad` when some lines did not read (the trace store counts `spans`).
    static func counts(_ source: SourceStatus) -> String {
        source.badLines > 0
            ? "\(Format.count(source.events)) \(source.countNoun), \(Format.count(source.badLines)) bad"
            : "\(Format.count(source.events)) \(source.countNoun)"
    }

    /// How long a producer that reports as it goes (a connection, an OTLP or Sentry sender) has been silent, when
    /// that is at least ``idleAfter``; `nil` for one heard from lately, one that ended, or a file or pipe.
    static func silence(_ source: SourceStatus, now: Date) -> TimeInterval? {
        guard source.kind == .socket || source.kind == .otlp || source.kind == .sentry,
            source.health == .ok || source.health == .degraded, source.id != "trace-store",
            let last = source.lastEventAt
        else { return nil }
        let silent = now.timeIntervalSince(last)
        return silent >= idleAfter ? silent : nil
    }

    /// Whether a row counts as live in the title: connected or followed, not waiting for its turn, and not silent
    /// for ``idleAfter``.
    static func live(_ source: SourceStatus, now: Date) -> Bool {
        (source.health == .ok || source.health == .degraded) && !source.waitsForTurn && silence(source, now: now) == nil
    }

    /// How long a producer may be silent before its row says `idle`.
    public static let idleAfter: TimeInterval = 30
}
