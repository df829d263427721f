import ErrorWatchWire
import Foundation

/// Maps OTLP metrics onto metric ``WireEvent``s for the Metrics pane (docs/otlp.md has the table):
///
/// - a gauge's point is a `gauge` reading;
/// - a monotonic sum's point is a `counter` increment: the value itself for delta temporality, the growth since the
///   stream's previous point for cumulative (the whole value the first time, or after a reset);
/// - a non-monotonic sum is a `gauge` of its current value (a delta one is added up per stream first);
/// - a histogram's (explicit or exponential) new counts become `histogram` observations at representative values
///   (``OTLPHistogramSampler``);
/// - a summary's points are rejected: its precomputed quantiles cannot be combined with observations.
struct OTLPMetricMapper {
    /// The most events one request's metrics become; the points past it are rejected, to be sent again.
    static let maximumEventsPerRequest = 50_000

    let streams: OTLPMetricStreams
    let receivedAt: Date

    /// The events of every data point of `request`, updating the cumulative streams.
    func map(_ request: OTLPProtoExportMetricsServiceRequest) -> OTLPMappedBatch {
        streams.withStreams { table in
            var batch = OTLPMappedBatch()
            var budget = Self.maximumEventsPerRequest
            for resourceMetrics in request.resourceMetrics {
                var group = OTLPMappedBatch.Group(identity: OTLPResourceIdentity(resourceMetrics.resource))
                for scopeMetrics in resourceMetrics.scopeMetrics {
                    for metric in scopeMetrics.metrics {
                        var context = PointContext(
                            metric: metric, scope: scopeMetrics.scope.name, identity: group.identity,
                            receivedAt: receivedAt)
                        map(metric, &context, &table, &budget)
                        group.records += context.points
                        group.rejected += context.rejected
                        group.events += context.events
                        if let message = context.rejectionMessage { batch.rejectionMessage = message }
                    }
                }
                batch.groups.append(group)
            }
            return batch
        }
    }

    /// What one metric's points became.
    struct PointContext {
        let metric: OTLPProtoMetric
        let scope: String
        let identity: OTLPResourceIdentity
        let receivedAt: Date
        var points = 0
        var rejected = 0
        var rejectionMessage: String?
        var events: [WireEvent] = []

        init(metric: OTLPProtoMetric, scope: String, identity: OTLPResourceIdentity, receivedAt: Date) {
            self.metric = metric
            self.scope = scope
            self.identity = identity
            self.receivedAt = receivedAt
        }

        mutating func reject(_ count: Int, _ message: String) {
            rejected += count
            rejectionMessage = message
        }

        /// The stream key of a point: resource, metric name and the point's attributes.
        func key(_ attributes: [String: String]) -> String {
            let pairs = attributes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            return "\(identity.key)|\(metric.name)|\(pairs.joined(separator: ","))"
        }

        func event(
            _ value: Double, _ kind: WireMetricKind, _ attributes: [String: String], _ nanos: UInt64
        ) -> WireEvent {
            WireEvent(
                kind: .metric, time: nanos == 0 ? receivedAt : OTLPLogMapper.date(unixNanos: nanos),
                serviceName: identity.serviceName, pid: identity.pid, hostName: identity.hostName,
                source: scope.isEmpty ? nil : scope, attributes: attributes, metricName: metric.name,
                metricValue: value, metricUnit: metric.unit.isEmpty ? nil : metric.unit, metricKind: kind)
        }
    }

    private func map(
        _ metric: OTLPProtoMetric, _ context: inout PointContext, _ table: inout OTLPMetricStreams.Table,
        _ budget: inout Int
    ) {
        switch metric.data {
        case .gauge(let gauge)?:
            for point in gauge.dataPoints {
                context.points += 1
                guard let value = Self.value(point), budget > 0 else {
                    if budget <= 0 { context.reject(1, Self.overBudget) }
                    continue
                }
                budget -= 1
                let attributes = Self.attributes(point.attributes)
                context.events.append(context.event(value, .gauge, attributes, point.timeUnixNano))
            }
        case .sum(let sum)?:
            for point in sum.dataPoints {
                context.points += 1
                guard let value = Self.value(point) else { continue }
                mapSum(point, value, sum, &context, &table, &budget)
            }
        case .histogram(let histogram)?:
            for point in histogram.dataPoints {
                context.points += 1
                mapHistogram(point, histogram.aggregationTemporality, &context, &table, &budget)
            }
        case .exponentialHistogram(let histogram)?:
            for point in histogram.dataPoints {
                context.points += 1
                mapExponential(point, histogram.aggregationTemporality, &context, &table, &budget)
            }
        case .summary(let summary)?:
            context.points += summary.dataPoints.count
            context.reject(summary.dataPoints.count, "summary metrics are not supported (\(metric.name))")
        case nil:
            break
        }
    }

    static let overBudget = "too many metric events in one request; send smaller batches"
    static let tooManyStreams = "too many metric series; new series are not kept"
    static let beyondADouble = "a sum's running total or increment is beyond a double's range"

    /// A number point's value, `nil` when it has none or is flagged as having no recorded value.
    static func value(_ point: OTLPProtoNumberDataPoint) -> Double? {
        guard point.flags & 1 == 0 else { return nil }
        switch point.value {
        case .asDouble(let value)?: return value.isFinite ? value : nil
        case .asInt(let value)?: return Double(value)
        case nil: return nil
        }
    }

    static func attributes(_ pairs: [OTLPProtoKeyValue]) -> [String: String] {
        var attributes: [String: String] = [:]
        OTLPAttributes.merge(pairs, into: &attributes)
        return attributes
    }

    private func mapSum(
        _ point: OTLPProtoNumberDataPoint, _ value: Double, _ sum: OTLPProtoSum, _ context: inout PointContext,
        _ table: inout OTLPMetricStreams.Table, _ budget: inout Int
    ) {
        let attributes = Self.attributes(point.attributes)
        guard budget > 0 else { return context.reject(1, Self.overBudget) }
        let cumulative = sum.aggregationTemporality != .delta
        if cumulative && !sum.isMonotonic {
            budget -= 1
            return context.events.append(context.event(value, .gauge, attributes, point.timeUnixNano))
        }
        let key = context.key(attributes)
        guard table.hasRoom(for: key) else { return context.reject(1, Self.tooManyStreams) }
        var previous: Double?
        if case .sum(let start, let last)? = table.last(key), start == point.startTimeUnixNano { previous = last }
        budget -= 1
        if !sum.isMonotonic {
            // A delta up-down counter: the pane shows its running total.
            let total = (previous ?? 0) + value
            // Two finite values can add up past a Double (JSON has no infinity to write it as).
            guard total.isFinite else { return context.reject(1, Self.beyondADouble) }
            table.remember(.sum(start: point.startTimeUnixNano, value: total), for: key)
            return context.events.append(context.event(total, .gauge, attributes, point.timeUnixNano))
        }
        let increment: Double
        if cumulative {
            // A value below the previous one means the producer restarted its count.
            increment = previous.map { value >= $0 ? value - $0 : value } ?? value
            table.remember(.sum(start: point.startTimeUnixNano, value: value), for: key)
        } else {
            increment = value
        }
        guard increment > 0 else { return }
        guard increment.isFinite else { return context.reject(1, Self.beyondADouble) }
        context.events.append(context.event(increment, .counter, attributes, point.timeUnixNano))
    }

    private func mapHistogram(
        _ point: OTLPProtoHistogramDataPoint, _ temporality: OTLPProtoAggregationTemporality,
        _ context: inout PointContext, _ table: inout OTLPMetricStreams.Table, _ budget: inout Int
    ) {
        guard point.flags & 1 == 0 else { return }
        guard point.bucketCounts.count == point.explicitBounds.count + 1 || point.bucketCounts.isEmpty else {
            return context.reject(
                1,
                "a histogram point has \(point.bucketCounts.count) buckets for "
                    + "\(point.explicitBounds.count) bounds (\(context.metric.name))")
        }
        let attributes = Self.attributes(point.attributes)
        var counts = point.bucketCounts
        if temporality != .delta {
            let key = context.key(attributes)
            guard table.hasRoom(for: key) else { return context.reject(1, Self.tooManyStreams) }
            if case .histogram(let start, let bounds, let last)? = table.last(key), start == point.startTimeUnixNano,
                bounds == point.explicitBounds, last.count == counts.count, zip(counts, last).allSatisfy({ $0 >= $1 })
            {
                counts = zip(counts, last).map { $0 - $1 }
            }
            guard emit(Self.total(counts), &context, &budget) else { return }
            table.remember(
                .histogram(start: point.startTimeUnixNano, bounds: point.explicitBounds, counts: point.bucketCounts),
                for: key)
        } else if !emit(Self.total(counts), &context, &budget) {
            return
        }
        let buckets = OTLPHistogramSampler.explicitBuckets(
            counts: counts, bounds: point.explicitBounds, min: point.hasMin ? point.min : nil,
            max: point.hasMax ? point.max : nil)
        for value in OTLPHistogramSampler.observations(buckets) {
            context.events.append(context.event(value, .histogram, attributes, point.timeUnixNano))
        }
    }

    private func mapExponential(
        _ point: OTLPProtoExponentialHistogramDataPoint, _ temporality: OTLPProtoAggregationTemporality,
        _ context: inout PointContext, _ table: inout OTLPMetricStreams.Table, _ budget: inout Int
    ) {
        guard point.flags & 1 == 0 else { return }
        guard (-10...20).contains(point.scale) else {
            return context.reject(1, "an exponential histogram's scale \(point.scale) is out of range")
        }
        let attributes = Self.attributes(point.attributes)
        var zero = point.zeroCount
        var positive = Self.indexed(point.positive)
        var negative = Self.indexed(point.negative)
        if temporality != .delta {
            let key = context.key(attributes)
            guard table.hasRoom(for: key) else { return context.reject(1, Self.tooManyStreams) }
            let now = OTLPMetricStreams.Last.exponential(
                start: point.startTimeUnixNano, scale: point.scale, zero: zero, positive: positive, negative: negative)
            if case .exponential(let start, let scale, let lastZero, let lastPositive, let lastNegative)? =
                table.last(key), start == point.startTimeUnixNano, scale == point.scale, zero >= lastZero,
                let grownPositive = Self.growth(positive, since: lastPositive),
                let grownNegative = Self.growth(negative, since: lastNegative)
            {
                zero -= lastZero
                positive = grownPositive
                negative = grownNegative
            }
            let total = Self.total([zero, Self.total(positive.values), Self.total(negative.values)])
            guard emit(total, &context, &budget) else { return }
            table.remember(now, for: key)
        } else {
            let total = Self.total([zero, Self.total(positive.values), Self.total(negative.values)])
            guard emit(total, &context, &budget) else { return }
        }
        let buckets = OTLPHistogramSampler.exponentialBuckets(
            scale: point.scale, zero: zero, positive: positive, negative: negative)
        for value in OTLPHistogramSampler.observations(buckets) {
            context.events.append(context.event(value, .histogram, attributes, point.timeUnixNano))
        }
    }

    /// Takes the events of a point with `total` new observations from the budget; `false` (and the point rejected)
    /// when they do not fit.
    private func emit(_ total: UInt64, _ context: inout PointContext, _ budget: inout Int) -> Bool {
        let needed = Int(min(total, UInt64(OTLPHistogramSampler.maximumPerPoint)))
        guard needed <= budget else {
            context.reject(1, Self.overBudget)
            return false
        }
        budget -= needed
        return true
    }

    /// The sum of a point's counts, `UInt64.max` when it would overflow: counts are the sender's to choose, and a
    /// total past the largest count is as over the budget as the largest count.
    static func total(_ counts: some Sequence<UInt64>) -> UInt64 {
        var total: UInt64 = 0
        for count in counts {
            let (sum, overflow) = total.addingReportingOverflow(count)
            if overflow { return .max }
            total = sum
        }
        return total
    }

    /// Bucket counts by bucket index.
    static func indexed(_ buckets: OTLPProtoExponentialHistogramDataPoint.Buckets) -> [Int: UInt64] {
        var result: [Int: UInt64] = [:]
        for (offset, count) in buckets.bucketCounts.enumerated() where count > 0 {
            result[Int(buckets.offset) + offset] = count
        }
        return result
    }

    /// The growth of each bucket since `last`; `nil` when some bucket shrank (the producer reset).
    static func growth(_ now: [Int: UInt64], since last: [Int: UInt64]) -> [Int: UInt64]? {
        var result: [Int: UInt64] = [:]
        for (index, count) in now {
            let before = last[index] ?? 0
            guard count >= before else { return nil }
            if count > before { result[index] = count - before }
        }
        guard last.keys.allSatisfy({ now[$0] != nil }) else { return nil }
        return result
    }
}
