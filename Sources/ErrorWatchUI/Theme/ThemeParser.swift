import Foundation

/// Parses theme data: JSON in, a usable ``Theme`` (or a ``ThemeError`` saying where and what is wrong) out. It
/// reads no files; the runtime's `ThemeFiles` does, and hands the bytes here.
///
/// ```swift
/// let loaded = try ThemeParser.parse(Data(json.utf8), file: "Themes/light.json", defaultName: "light")
/// loaded.theme      // missing or invalid roles filled from the default
/// loaded.problems   // what was wrong, for the status line
/// ```
///
/// Fatal problems (malformed JSON, not a JSON object) throw a ``ThemeError``; unknown roles, unknown keys and
/// invalid colours are reported in ``LoadedTheme/problems`` and filled from the default, as are roles the data
/// does not mention. Nothing here leaves the caller without a usable theme.
public enum ThemeParser {
    /// Parses theme JSON; `file` names where it came from, in error messages only.
    public static func parse(_ data: Data, file: String, defaultName: String = "custom") throws(ThemeError)
        -> LoadedTheme
    {
        try parse(data, file: file, defaultName: defaultName, fallback: .default)
    }

    /// Parses theme JSON, filling missing roles from `fallback` (`nil` only for the built-in default itself).
    static func parse(_ data: Data, file: String, defaultName: String, fallback: Theme?) throws(ThemeError)
        -> LoadedTheme
    {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            let (line, column) = position(ofError: error, in: data)
            let reason = ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String) ?? "not valid JSON"
            throw ThemeError(file: file, line: line, column: column, message: "malformed JSON: \(reason)")
        }
        guard let root = object as? [String: Any] else {
            throw ThemeError(file: file, line: 1, column: 1, message: "expected a JSON object")
        }
        var problems: [ThemeError] = []
        for key in root.keys.sorted() where !["$schema", "name", "description", "roles"].contains(key) {
            problems.append(ThemeError(file: file, key: key, message: "unknown key, ignored"))
        }
        var name = defaultName
        if let value = root["name"] {
            if let text = value as? String, !text.isEmpty {
                name = text
            } else {
                problems.append(ThemeError(file: file, key: "name", message: "expected a non-empty string"))
            }
        }
        var styles: [ThemeRole: RoleStyle] = [:]
        if let value = root["roles"] {
            if let roles = value as? [String: Any] {
                for key in roles.keys.sorted() {
                    guard let role = ThemeRole(rawValue: key) else {
                        problems.append(ThemeError(file: file, key: "roles.\(key)", message: "unknown role"))
                        continue
                    }
                    if let style = parseStyle(roles[key]!, key: "roles.\(key)", file: file, problems: &problems) {
                        styles[role] = style
                    }
                }
            } else {
                problems.append(ThemeError(file: file, key: "roles", message: "expected an object of roles"))
            }
        } else {
            problems.append(ThemeError(file: file, key: "roles", message: "missing; using the default theme's"))
        }
        return LoadedTheme(theme: Theme(name: name, styles: styles, fallback: fallback), problems: problems)
    }

    static func parseStyle(_ value: Any, key: String, file: String, problems: inout [ThemeError]) -> RoleStyle? {
        if let color = ThemeColor(json: value) { return RoleStyle(foreground: color) }
        guard let object = value as? [String: Any] else {
            problems.append(ThemeError(file: file, key: key, message: "invalid colour \(render(value))"))
            return nil
        }
        var style = RoleStyle()
        var valid = true
        let flags: [(String, CellAttributes)] = [
            ("bold", .bold), ("dim", .dim), ("underline", .underline),
            ("reverse", .reverse),
        ]
        for field in object.keys.sorted() {
            let item = object[field]!
            switch field {
            case "fg", "bg":
                if let color = ThemeColor(json: item) {
                    if field == "fg" { style.foreground = color } else { style.background = color }
                } else {
                    problems.append(
                        ThemeError(
                            file: file, key: "\(key).\(field)",
                            message: "invalid colour \(render(item)); expected a colour name, 0–255 or #rrggbb"))
                    valid = false
                }
            default:
                if let flag = flags.first(where: { $0.0 == field }) {
                    if let on = item as? Bool, item is Bool {
                        if on { style.attributes.insert(flag.1) }
                    } else {
                        problems.append(
                            ThemeError(file: file, key: "\(key).\(field)", message: "expected true or false"))
                    }
                } else {
                    problems.append(ThemeError(file: file, key: "\(key).\(field)", message: "unknown property"))
                }
            }
        }
        return valid ? style : nil
    }

    static func render(_ value: Any) -> String {
        if let text = value as? String { return "\"\(Sanitizer.sanitize(text, limit: 40))\"" }
        return Sanitizer.sanitize("\(value)", limit: 40)
    }

    /// Line and column (1-based) of a JSONSerialization error: its message gives a byte offset ("around
    /// character 18"), which is turned into a position here. `nil` when the error carries no offset.
    static func position(ofError error: any Error, in data: Data) -> (Int?, Int?) {
        let nsError = error as NSError
        var offset = nsError.userInfo["NSJSONSerializationErrorIndex"] as? Int
        if offset == nil, let text = nsError.userInfo[NSDebugDescriptionErrorKey] as? String,
            let range = text.range(of: "character ")
        {
            offset = Int(text[range.upperBound...].prefix { $0.isNumber })
        }
        guard let offset else { return (nil, nil) }
        return position(ofOffset: offset, in: data)
    }

    /// Line and column (1-based, column counted in characters) of byte `offset` in `data`.
    public static func position(ofOffset offset: Int, in data: Data) -> (line: Int, column: Int) {
        var line = 1
        var lineStart = 0
        let bytes = [UInt8](data.prefix(max(0, offset)))
        for (index, byte) in bytes.enumerated() where byte == 0x0A {
            line += 1
            lineStart = index + 1
        }
        let column = String(decoding: bytes[lineStart...], as: UTF8.self).count + 1
        return (line, column)
    }
}
