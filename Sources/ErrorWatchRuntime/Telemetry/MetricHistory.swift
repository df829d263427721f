import ErrorWatchUI
import Foundation

/// Every listed series over time, for its chart: at each sample, a counter's total, a gauge's reading, and the
/// observations a histogram (or a request series) received since the last sample, kept in buckets of each chart
/// window (``MetricChart/Window``: 60 buckets of 1, 5, 15 or 60 seconds).
///
/// Bounded: 61 buckets per window and series (one more than drawn, for the first bucket's rate), a histogram
/// bucket keeps its p50, p95 and p99 once it closes and at most ``ObservationSample/capacity`` observations while it
/// is open, and series no longer listed are forgotten.
///
/// ```swift
/// var history = MetricHistory()
/// history.record(series, observations: metrics.takeObservations(), at: now)
/// let chart = history.chart(for: series[0].id, at: now)
/// ```
struct MetricHistory {
    /// What one bucket holds.
    fileprivate struct Bucket {
        /// The bucket's number: seconds since 1970 over the window's step, rounded down.
        var index: Int64
        /// When the last sample in it was taken.
        var time: Date
        /// Totals at that sample: a counter's, or a request series' requests and failures.
        var totals: [Double] = []
        /// A gauge's reading at that sample.
        var reading: Double?
        /// Observations while the bucket is open.
        var observations = ObservationSample()
        /// p50, p95 and p99 once it closed.
        var percentiles: [Double?]?

        /// The observations' p50, p95 and p99 (kept once the bucket closed).
        var summary: [Double?] { percentiles ?? observations.percentiles([50, 95, 99]) }

        mutating func close() {
            guard percentiles == nil else { return }
            percentiles = observations.percentiles([50, 95, 99])
            observations = ObservationSample()
        }
    }

    private struct Entry {
        var series: MetricSeries
        var buckets: [MetricChart.Window: [Bucket]] = [:]

        /// The sample `line` taken at `time`, into the current bucket of each window (a new one when the window's
        /// step has passed, closing the last and dropping those older than the window).
        mutating func add(_ line: MetricSeries, observations: ObservationSample?, at time: Date) {
            series = line
            let seconds = time.timeIntervalSince1970
            for window in MetricChart.Window.allCases {
                let index = Int64((seconds / Double(window.step)).rounded(.down))
                buckets[window, default: []].advance(to: index, at: time)
                buckets[window]!.withLast { bucket in
                    bucket.time = time
                    switch line.kind {
                    case .counter: bucket.totals = [line.value]
                    case .requests: bucket.totals = [Double(line.count), line.value]
                    case .gauge: bucket.reading = line.value
                    case .histogram: break
                    }
                    if let observations { bucket.observations.merge(observations) }
                }
            }
        }
    }

    private var entries: [String: Entry] = [:]

    /// No history.
    init() {}

    /// How many series have a history.
    var count: Int { entries.count }

    /// Adds a sample of `series` (every one listed now; the others are forgotten), with the observations each
    /// histogram received since the last sample. Buckets are changed in place: a sample copies none of them.
    mutating func record(_ series: [MetricSeries], observations: [String: ObservationSample], at time: Date) {
        var listed: Set<String> = []
        for line in series {
            let id = line.id
            listed.insert(id)
            if entries[id]?.series.kind != line.kind { entries[id] = Entry(series: line) }
            entries[id]!.add(line, observations: observations[id], at: time)
        }
        if entries.count > listed.count { entries = entries.filter { listed.contains($0.key) } }
    }

    /// The chart of the series `id` as of `time`, `nil` when it is not listed.
    func chart(for id: String, at time: Date) -> MetricChart? {
        guard let entry = entries[id] else { return nil }
        let series = entry.series
        var plots: [MetricChart.Window: MetricChart.Plot] = [:]
        for window in MetricChart.Window.allCases {
            let buckets = entry.buckets[window] ?? []
            let newest = Int64((time.timeIntervalSince1970 / Double(window.step)).rounded(.down))
            let first = newest - Int64(MetricChart.buckets) + 1
            // Bucket index → slot; the bucket before the first slot only serves the first slot's rate.
            func slots(_ value: (Int, Bucket) -> Double?) -> [Double?] {
                var values = [Double?](repeating: nil, count: MetricChart.buckets)
                for (position, bucket) in buckets.enumerated() where bucket.index >= first && bucket.index <= newest {
                    values[Int(bucket.index - first)] = value(position, bucket)
                }
                return values
            }
            /// The increase per second of total `column` since the bucket before, `nil` without one or after a reset.
            func rate(_ column: Int) -> [Double?] {
                slots { position, bucket in
                    guard position > 0, column < bucket.totals.count else { return nil }
                    let before = buckets[position - 1]
                    guard column < before.totals.count else { return nil }
                    let elapsed = bucket.time.timeIntervalSince(before.time)
                    let increase = bucket.totals[column] - before.totals[column]
                    guard elapsed > 0, increase >= 0 else { return nil }
                    return increase / elapsed
                }
            }
            func percentiles(unit: String?) -> MetricChart.Panel {
                let summaries = slots { _, bucket in bucket.observations.isEmpty && bucket.percentiles == nil ? nil : 0
                }
                var lines: [MetricChart.Line] = []
                for (column, label) in ["p50", "p95", "p99"].enumerated() {
                    let values = slots { _, bucket in bucket.summary[column] }
                    lines.append(
                        MetricChart.Line(label: label, values: zip(values, summaries).map { $1 == nil ? nil : $0 }))
                }
                return MetricChart.Panel(title: "duration", unit: unit, lines: lines)
            }
            let panels: [MetricChart.Panel]
            switch series.kind {
            case .counter:
                panels = [
                    MetricChart.Panel(
                        title: "rate", unit: Self.perSecond(series.unit), lines: [.init(label: "rate", values: rate(0))]
                    )
                ]
            case .gauge:
                panels = [
                    MetricChart.Panel(
                        title: "value", unit: series.unit,
                        lines: [.init(label: "value", values: slots { _, bucket in bucket.reading })])
                ]
            case .histogram:
                var panel = percentiles(unit: series.unit)
                panel.title = "percentiles"
                panels = [panel]
            case .requests:
                panels = [
                    MetricChart.Panel(
                        title: "rate", unit: "1/s",
                        lines: [.init(label: "requests", values: rate(0)), .init(label: "errors", values: rate(1))]),
                    percentiles(unit: series.unit),
                ]
            }
            plots[window] = MetricChart.Plot(end: time, panels: panels)
        }
        return MetricChart(
            id: id, name: series.name, service: series.service, kind: series.kind, plots: plots,
            sampleLimit: ObservationSample.capacity)
    }

    /// A rate's unit: `By/s` for bytes, `1/s` for a count without one, `ms/s` for a total of milliseconds.
    static func perSecond(_ unit: String?) -> String {
        switch unit {
        case nil, "", "1": "1/s"
        case let unit?: unit + "/s"
        }
    }
}

extension Array {
    /// Changes the last element in place.
    fileprivate mutating func withLast(_ change: (inout Element) -> Void) {
        guard !isEmpty else { return }
        change(&self[count - 1])
    }
}

extension [MetricHistory.Bucket] {
    /// Makes bucket `index` the last: a new one after closing the last, the ones older than a window dropped.
    fileprivate mutating func advance(to index: Int64, at time: Date) {
        guard last?.index != index else { return }
        if !isEmpty { self[count - 1].close() }
        append(MetricHistory.Bucket(index: index, time: time))
        let oldest = index - Int64(MetricChart.buckets)
        if let keep = firstIndex(where: { $0.index >= oldest }), keep > 0 { removeFirst(keep) }
    }
}
