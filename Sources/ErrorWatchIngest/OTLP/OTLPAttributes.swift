import ErrorWatchWire
import Foundation

/// How OTLP attribute values become the wire's string attributes, and the limits that keep one record's share of
/// memory and of a recording line bounded.
enum OTLPAttributes {
    /// Attributes kept per record (resource, scope and record attributes together); the rest are counted in
    /// `otlp.dropped_attributes`.
    static let maximumCount = 64
    /// Characters kept of an attribute value; a longer one is cut and ends with `…`.
    static let maximumValueLength = 1_024
    /// Characters kept of a log body or an exception message.
    static let maximumMessageLength = 8_192
    /// Characters kept of a stack trace.
    static let maximumStacktraceLength = 32_768
    /// How deep nested arrays and maps are rendered; deeper ones show as `…`.
    static let maximumDepth = 8

    /// `value` rendered compactly: a string as itself, numbers and booleans as JSON writes them, bytes as hex,
    /// arrays and maps as compact JSON (`[1,"a"]`, `{"k":true}`), an empty value as the empty string.
    static func render(_ value: OTLPProtoAnyValue) -> String {
        if case .stringValue(let string)? = value.value { return string }
        var text = ""
        append(value, to: &text, depth: 0, quoted: false)
        return text
    }

    private static func append(_ value: OTLPProtoAnyValue, to text: inout String, depth: Int, quoted: Bool) {
        guard text.utf8.count <= maximumMessageLength else { return }
        switch value.value {
        case nil: text += quoted ? "null" : ""
        case .stringValue(let string)?: text += quoted ? jsonQuoted(string) : string
        case .boolValue(let bool)?: text += bool ? "true" : "false"
        case .intValue(let int)?: text += String(int)
        case .doubleValue(let double)?: text += double.isFinite ? String(double) : jsonQuoted(String(double))
        case .bytesValue(let bytes)?: text += quoted ? jsonQuoted(hex(bytes)) : hex(bytes)
        case .arrayValue(let array)?:
            guard depth < maximumDepth else { return text += "…" }
            text += "["
            for (index, element) in array.values.enumerated() {
                if index > 0 { text += "," }
                append(element, to: &text, depth: depth + 1, quoted: true)
            }
            text += "]"
        case .kvlistValue(let list)?:
            guard depth < maximumDepth else { return text += "…" }
            text += "{"
            for (index, pair) in list.values.enumerated() {
                if index > 0 { text += "," }
                text += jsonQuoted(pair.key) + ":"
                append(pair.value, to: &text, depth: depth + 1, quoted: true)
            }
            text += "}"
        }
    }

    /// `s` as a JSON string literal.
    static func jsonQuoted(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// Lower-case hex of `bytes`: trace and span ids as OTLP/JSON and W3C trace context write them.
    static func hex(_ bytes: Data) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `text` cut to `limit` characters, ending with `…` when it was cut.
    static func clipped(_ text: String, to limit: Int) -> String {
        guard text.count > limit else { return text }
        return String(text.prefix(limit - 1)) + "…"
    }

    /// Adds `pairs` to `attributes` (earlier keys win), rendered and clipped, up to ``maximumCount`` in all;
    /// returns how many did not fit.
    @discardableResult
    static func merge(_ pairs: [OTLPProtoKeyValue], into attributes: inout [String: String]) -> Int {
        var dropped = 0
        for pair in pairs where attributes[pair.key] == nil {
            guard attributes.count < maximumCount else {
                dropped += 1
                continue
            }
            attributes[pair.key] = clipped(render(pair.value), to: maximumValueLength)
        }
        return dropped
    }
}

/// Who sent a batch: the resource attributes errorwatch reads (OpenTelemetry's semantic conventions), plus the
/// rest of them for the events' attributes.
struct OTLPResourceIdentity: Sendable, Hashable {
    /// `service.name`; SDKs send `unknown_service` or `unknown_service:<process>` when the app set none.
    var serviceName: String?
    /// `service.instance.id`.
    var instanceID: String?
    /// `host.name`.
    var hostName: String?
    /// `process.pid`.
    var pid: Int?
    /// `service.version`.
    var serviceVersion: String?
    /// `deployment.environment.name` (or the older `deployment.environment`).
    var environment: String?

    init(
        serviceName: String? = nil, instanceID: String? = nil, hostName: String? = nil, pid: Int? = nil,
        serviceVersion: String? = nil, environment: String? = nil
    ) {
        self.serviceName = serviceName
        self.instanceID = instanceID
        self.hostName = hostName
        self.pid = pid
        self.serviceVersion = serviceVersion
        self.environment = environment
    }

    init(_ resource: OTLPProtoResource) {
        for pair in resource.attributes {
            switch pair.key {
            case "service.name": serviceName = OTLPAttributes.render(pair.value)
            case "service.instance.id": instanceID = OTLPAttributes.render(pair.value)
            case "host.name": hostName = OTLPAttributes.render(pair.value)
            case "service.version": serviceVersion = OTLPAttributes.render(pair.value)
            case "deployment.environment.name": environment = OTLPAttributes.render(pair.value)
            // The name before semantic conventions 1.27; the current one wins when both are sent.
            case "deployment.environment": environment = environment ?? OTLPAttributes.render(pair.value)
            case "process.pid":
                switch pair.value.value {
                case .intValue(let value)?: pid = Int(exactly: value)
                case .stringValue(let text)?: pid = Int(text)
                default: break
                }
            default: break
            }
        }
    }

    /// The Sources row this resource is counted in: service and instance.
    var key: String { "\(serviceName ?? "unknown_service")/\(instanceID ?? "")" }

    /// The resource attributes the wire event carries in its own fields are not repeated in its attributes.
    static let ownFields: Set<String> = ["service.name", "host.name", "process.pid"]

    /// Writes the resource's release and environment into `event`'s own members.
    func stamp(_ event: inout WireEvent) {
        event.serviceVersion = serviceVersion
        event.deploymentEnvironment = environment
    }
}
