import Foundation

/// A report as JSON, for the wire's `exception.report` member (recordings keep it; docs/wire-format.md): short
/// snake_case names as Sentry writes them, a field as a `[name, value]` pair, a breadcrumb's time as seconds since
/// 1970. Empty lists and unknown values are left out, and read back as empty and unknown: what was not sent stays
/// unknown.
///
/// ```swift
/// let json = try JSONEncoder().encode(report)
/// // {"exceptions":[{"type":"PaymentError","frames":[…]}],"tags":[["run","a1"]]}
/// ```
extension ExceptionReport: Codable {
    private enum Keys: String, CodingKey {
        case exceptions, tags, contexts, user, request, breadcrumbs, about, cut
    }

    /// The names of a report's members in JSON.
    public static let memberNames: Set<String> = Set(
        [Keys.exceptions, .tags, .contexts, .user, .request, .breadcrumbs, .about, .cut].map(\.stringValue))

    /// Reads a report; every member may be absent.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        self.init(
            exceptions: try c.decodeIfPresent([Exception].self, forKey: .exceptions) ?? [],
            tags: try c.decodeIfPresent([Field].self, forKey: .tags) ?? [],
            contexts: try c.decodeIfPresent([Section].self, forKey: .contexts) ?? [],
            user: try c.decodeIfPresent([Field].self, forKey: .user) ?? [],
            request: try c.decodeIfPresent([Field].self, forKey: .request) ?? [],
            breadcrumbs: try c.decodeIfPresent([Breadcrumb].self, forKey: .breadcrumbs) ?? [],
            about: try c.decodeIfPresent([Field].self, forKey: .about) ?? [],
            cut: try c.decodeIfPresent([String].self, forKey: .cut) ?? [])
    }

    /// Writes the report, leaving out empty lists.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        if !exceptions.isEmpty { try c.encode(exceptions, forKey: .exceptions) }
        if !tags.isEmpty { try c.encode(tags, forKey: .tags) }
        if !contexts.isEmpty { try c.encode(contexts, forKey: .contexts) }
        if !user.isEmpty { try c.encode(user, forKey: .user) }
        if !request.isEmpty { try c.encode(request, forKey: .request) }
        if !breadcrumbs.isEmpty { try c.encode(breadcrumbs, forKey: .breadcrumbs) }
        if !about.isEmpty { try c.encode(about, forKey: .about) }
        if !cut.isEmpty { try c.encode(cut, forKey: .cut) }
    }
}

extension ExceptionReport.Field: Codable {
    /// Reads a `[name, value]` pair.
    public init(from decoder: any Decoder) throws {
        var c = try decoder.unkeyedContainer()
        let name = try c.decode(String.self)
        let value = try c.decode(String.self)
        guard c.isAtEnd else {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "a field is a [name, value] pair")
        }
        self.init(name, value)
    }

    /// Writes the field as a `[name, value]` pair.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.unkeyedContainer()
        try c.encode(name)
        try c.encode(value)
    }
}

extension ExceptionReport.Section: Codable {
    private enum Keys: String, CodingKey {
        case name, fields
    }

    /// Reads a section: its name and its fields (absent: none).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        self.init(
            try c.decode(String.self, forKey: .name),
            try c.decodeIfPresent([ExceptionReport.Field].self, forKey: .fields) ?? [])
    }

    /// Writes the section.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(name, forKey: .name)
        if !fields.isEmpty { try c.encode(fields, forKey: .fields) }
    }
}

extension ExceptionReport.Exception: Codable {
    private enum Keys: String, CodingKey {
        case type, value, module, mechanism, handled, frames
        case framesOmitted = "frames_omitted"
    }

    /// Reads an exception; every member may be absent.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        self.init(
            type: try c.decodeIfPresent(String.self, forKey: .type),
            value: try c.decodeIfPresent(String.self, forKey: .value),
            module: try c.decodeIfPresent(String.self, forKey: .module),
            mechanism: try c.decodeIfPresent(String.self, forKey: .mechanism),
            handled: try c.decodeIfPresent(Bool.self, forKey: .handled),
            frames: try c.decodeIfPresent([ExceptionReport.Frame].self, forKey: .frames) ?? [],
            framesOmitted: max(0, try c.decodeIfPresent(Int.self, forKey: .framesOmitted) ?? 0))
    }

    /// Writes the exception, leaving out what is unknown.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encodeIfPresent(type, forKey: .type)
        try c.encodeIfPresent(value, forKey: .value)
        try c.encodeIfPresent(module, forKey: .module)
        try c.encodeIfPresent(mechanism, forKey: .mechanism)
        try c.encodeIfPresent(handled, forKey: .handled)
        if !frames.isEmpty { try c.encode(frames, forKey: .frames) }
        if framesOmitted != 0 { try c.encode(framesOmitted, forKey: .framesOmitted) }
    }
}

extension ExceptionReport.Frame: Codable {
    private enum Keys: String, CodingKey {
        case function, module, file, line, column
        case inApp = "in_app"
        case preContext = "pre_context"
        case contextLine = "context_line"
        case postContext = "post_context"
        case variables = "vars"
    }

    /// Reads a frame; every member may be absent.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        self.init(
            function: try c.decodeIfPresent(String.self, forKey: .function),
            module: try c.decodeIfPresent(String.self, forKey: .module),
            file: try c.decodeIfPresent(String.self, forKey: .file),
            line: try c.decodeIfPresent(Int.self, forKey: .line),
            column: try c.decodeIfPresent(Int.self, forKey: .column),
            inApp: try c.decodeIfPresent(Bool.self, forKey: .inApp),
            preContext: try c.decodeIfPresent([String].self, forKey: .preContext) ?? [],
            contextLine: try c.decodeIfPresent(String.self, forKey: .contextLine),
            postContext: try c.decodeIfPresent([String].self, forKey: .postContext) ?? [],
            variables: try c.decodeIfPresent([ExceptionReport.Field].self, forKey: .variables) ?? [])
    }

    /// Writes the frame, leaving out what is unknown.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encodeIfPresent(function, forKey: .function)
        try c.encodeIfPresent(module, forKey: .module)
        try c.encodeIfPresent(file, forKey: .file)
        try c.encodeIfPresent(line, forKey: .line)
        try c.encodeIfPresent(column, forKey: .column)
        try c.encodeIfPresent(inApp, forKey: .inApp)
        if !preContext.isEmpty { try c.encode(preContext, forKey: .preContext) }
        try c.encodeIfPresent(contextLine, forKey: .contextLine)
        if !postContext.isEmpty { try c.encode(postContext, forKey: .postContext) }
        if !variables.isEmpty { try c.encode(variables, forKey: .variables) }
    }
}

extension ExceptionReport.Breadcrumb: Codable {
    private enum Keys: String, CodingKey {
        case timestamp, category, level, type, message, data
    }

    /// Reads a breadcrumb; every member may be absent. The time is seconds since 1970.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        let seconds = try c.decodeIfPresent(Double.self, forKey: .timestamp)
        if let seconds, !seconds.isFinite {
            throw DecodingError.dataCorruptedError(forKey: .timestamp, in: c, debugDescription: "not a time")
        }
        self.init(
            timestamp: seconds.map { Date(timeIntervalSince1970: $0) },
            category: try c.decodeIfPresent(String.self, forKey: .category),
            level: try c.decodeIfPresent(String.self, forKey: .level),
            type: try c.decodeIfPresent(String.self, forKey: .type),
            message: try c.decodeIfPresent(String.self, forKey: .message),
            data: try c.decodeIfPresent([ExceptionReport.Field].self, forKey: .data) ?? [])
    }

    /// Writes the breadcrumb, leaving out what is unknown; the time as seconds since 1970.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encodeIfPresent(timestamp?.timeIntervalSince1970, forKey: .timestamp)
        try c.encodeIfPresent(category, forKey: .category)
        try c.encodeIfPresent(level, forKey: .level)
        try c.encodeIfPresent(type, forKey: .type)
        try c.encodeIfPresent(message, forKey: .message)
        if !data.isEmpty { try c.encode(data, forKey: .data) }
    }
}
