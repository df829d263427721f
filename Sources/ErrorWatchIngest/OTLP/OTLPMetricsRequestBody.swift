import Foundation

/// Builds OTLP `ExportMetricsServiceRequest` bodies of gauges from plain parameters, and reads the answer's
/// `partial_success`, through the generated protobuf types (which stay internal to this module).
///
/// For this package's own load generator (`errorwatch-load --otlp --signals metrics`) and tests: `package`, not
/// public, because it is a tool for driving the receiver, not an OpenTelemetry SDK.
///
/// ```swift
/// let point = OTLPMetricsRequestBody.Point(name: "queue.depth", value: 7, time: 1_700_000_000_000_000_000)
/// let body = OTLPMetricsRequestBody.protobuf(service: "shop", instance: nil, scope: "checkout", points: [point])
/// ```
package enum OTLPMetricsRequestBody {
    /// One gauge data point: the metric's name and unit, its value, time (nanoseconds since 1970) and attributes.
    package struct Point: Sendable, Hashable {
        package var name: String
        package var unit: String
        package var value: Double
        package var time: UInt64
        package var attributes: [String: String]

        package init(name: String, unit: String = "", value: Double, time: UInt64, attributes: [String: String] = [:]) {
            self.name = name
            self.unit = unit
            self.value = value
            self.time = time
            self.attributes = attributes
        }
    }

    /// A binary protobuf `ExportMetricsServiceRequest` with one resource (`service.name`, and `service.instance.id`
    /// when `instance` is given) and one scope holding one gauge per point.
    package static func protobuf(service: String, instance: String?, scope: String, points: [Point]) -> [UInt8] {
        var resource = OTLPProtoResource()
        resource.attributes.append(keyValue("service.name", service))
        if let instance { resource.attributes.append(keyValue("service.instance.id", instance)) }
        var scopeMetrics = OTLPProtoScopeMetrics()
        scopeMetrics.scope.name = scope
        scopeMetrics.metrics = points.map { point in
            var data = OTLPProtoNumberDataPoint()
            data.asDouble = point.value
            data.timeUnixNano = point.time
            data.attributes = point.attributes.sorted { $0.key < $1.key }.map { keyValue($0.key, $0.value) }
            var metric = OTLPProtoMetric()
            metric.name = point.name
            metric.unit = point.unit
            metric.gauge.dataPoints = [data]
            return metric
        }
        var resourceMetrics = OTLPProtoResourceMetrics()
        resourceMetrics.resource = resource
        resourceMetrics.scopeMetrics = [scopeMetrics]
        var request = OTLPProtoExportMetricsServiceRequest()
        request.resourceMetrics = [resourceMetrics]
        // Serializing a message built only from valid strings and numbers cannot fail.
        return (try? request.serializedBytes()) ?? []
    }

    /// `rejected_data_points` of a binary protobuf `ExportMetricsServiceResponse`: 0 when it has no
    /// `partial_success`, `nil` when the body does not decode.
    package static func rejectedDataPoints(inResponse body: [UInt8]) -> Int64? {
        guard let response = try? OTLPProtoExportMetricsServiceResponse(serializedBytes: body) else { return nil }
        return response.partialSuccess.rejectedDataPoints
    }

    private static func keyValue(_ key: String, _ value: String) -> OTLPProtoKeyValue {
        var pair = OTLPProtoKeyValue()
        pair.key = key
        pair.value.stringValue = value
        return pair
    }
}
