import Foundation

/// One series over time, as its chart draws it: for each time window (the last 1, 5, 15 or 60 minutes) a fixed
/// number of buckets, oldest first, and in each panel the lines drawn over them.
///
/// A counter is drawn as its rate (increase per second between buckets), a gauge as its value, a histogram as the
/// p50, p95 and p99 of the observations made in each bucket, and requests computed from spans as requests and
/// failures per second over one panel and their durations' percentiles below. A bucket nothing was recorded in is
/// `nil`: drawn as a gap, never as a zero nobody sent.
public struct MetricChart: Sendable, Hashable {
    /// How far back a chart looks; `w` in the chart cycles through them.
    public enum Window: Int, Sendable, Hashable, CaseIterable {
        case oneMinute = 60
        case fiveMinutes = 300
        case fifteenMinutes = 900
        case hour = 3600

        /// The span of time shown, in seconds.
        public var seconds: Int { rawValue }
        /// How long one bucket lasts: the window over ``MetricChart/buckets``.
        public var step: Int { rawValue / MetricChart.buckets }
        /// `1 min`, `5 min`, `15 min`, `60 min`.
        public var label: String { "\(rawValue / 60) min" }
        /// The next window, after the longest the shortest.
        public var next: Window {
            let all = Window.allCases
            return all[(all.firstIndex(of: self)! + 1) % all.count]
        }
    }

    /// Buckets per window.
    public static let buckets = 60

    /// One line of a panel: a value per bucket, oldest first (`nil` where nothing was recorded).
    public struct Line: Sendable, Hashable {
        /// What the line is: `rate`, `value`, `p50`, `requests`, `errors`…
        public var label: String
        /// One value per bucket, oldest first; ``MetricChart/buckets`` of them.
        public var values: [Double?]

        /// A line.
        public init(label: String, values: [Double?]) {
            self.label = label
            self.values = values
        }
    }

    /// Lines that share a value axis and a unit.
    public struct Panel: Sendable, Hashable {
        /// The panel's heading, `rate`, `value`, `duration`.
        public var title: String
        /// The unit of the values (`ms`, `By`, `1/s`…); `nil` when the producer sent none.
        public var unit: String?
        /// The lines, drawn in order (the last on top).
        public var lines: [Line]

        /// A panel.
        public init(title: String, unit: String?, lines: [Line]) {
            self.title = title
            self.unit = unit
            self.lines = lines
        }
    }

    /// One window's buckets.
    public struct Plot: Sendable, Hashable {
        /// When the newest bucket ends (the time of the sample it was built from, or later).
        public var end: Date
        /// The panels, top to bottom.
        public var panels: [Panel]

        /// A plot.
        public init(end: Date, panels: [Panel]) {
            self.end = end
            self.panels = panels
        }
    }

    /// The series' identity, ``MetricSeries/id``.
    public var id: String
    /// The series' full name with every label.
    public var name: String
    /// The producing service; `nil` for the dashboard's own process.
    public var service: String?
    /// What kind of series it is.
    public var kind: MetricSeries.Kind
    /// The plots, one per window.
    public var plots: [Window: Plot]
    /// The most observations a histogram bucket's percentiles are computed from; past it they are computed from an
    /// even sample of that many.
    public var sampleLimit: Int

    /// A chart.
    public init(
        id: String, name: String, service: String?, kind: MetricSeries.Kind, plots: [Window: Plot], sampleLimit: Int
    ) {
        self.id = id
        self.name = name
        self.service = service
        self.kind = kind
        self.plots = plots
        self.sampleLimit = sampleLimit
    }
}

extension MetricSeries {
    /// The series' identity among the Metrics pane's: its name (with labels) and its service.
    public var id: String { MetricSeries.id(name: name, service: service) }

    /// The identity of the series `name` of `service`.
    public static func id(name: String, service: String?) -> String { name + "\u{1F}" + (service ?? "") }
}
