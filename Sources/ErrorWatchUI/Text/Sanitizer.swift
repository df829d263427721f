/// Makes untrusted text safe to put on a terminal.
///
/// Error messages may be hostile: an escape sequence inside one could recolour the screen, move the cursor or
/// set the window title. The sanitizer is the boundary: C0 controls become their Unicode control pictures
/// (`ESC` → `␛`, so `"\u{1B}[31m"` shows as `␛[31m`), DEL becomes `␡`, C1 controls and bidirectional overrides
/// become `\u{9B}`-style escapes, and bytes that are not valid UTF-8 become `\xFF`. Invisible format characters
/// (zero-width space, word joiner, byte-order mark, tag characters, line and paragraph separators) are escaped
/// the same way, so a row of them cannot pass for an empty one; the joiners and variation selectors that only
/// shape emoji and scripts are dropped; a combining mark with nothing to combine with is shown on a dotted circle
/// (`◌́`). Code points the C library does not know (unassigned in its Unicode version), which ncurses cannot place,
/// are escaped too. The result never contains a character that a terminal interprets, and ``DisplayWidth`` measures it as
/// ncurses will draw it.
///
/// ```swift
/// Sanitizer.sanitize("bad\u{1B}]0;pwned\u{07}")   // "bad␛]0;pwned␇"
/// Sanitizer.sanitize(bytes: [0x66, 0xFF])          // "f\\xFF"
/// ```
public enum Sanitizer {
    /// `text` with every control character and dangerous format character shown escaped.
    /// At most `limit` scalars are examined; longer text ends in `…`.
    public static func sanitize(_ text: String, limit: Int = .max) -> String {
        if isPlain(text), limit == .max || text.utf8.count <= limit { return text }
        var result = String.UnicodeScalarView()
        var count = 0
        var base = false
        for scalar in text.unicodeScalars {
            if count >= limit {
                result.append("…")
                break
            }
            count += 1
            append(scalar, to: &result, afterBase: &base)
        }
        return String(result)
    }

    /// Decodes `bytes` as UTF-8, showing each invalid byte as `\xHH`, then sanitizes the text.
    public static func sanitize(bytes: some Sequence<UInt8>, limit: Int = .max) -> String {
        let array = Array(bytes)
        var result = String.UnicodeScalarView()
        var index = 0
        var count = 0
        var base = false
        while index < array.count {
            if count >= limit {
                result.append("…")
                break
            }
            count += 1
            if let (scalar, length) = decodeScalar(array, at: index) {
                append(scalar, to: &result, afterBase: &base)
                index += length
            } else {
                result.append(contentsOf: hexEscape(array[index]).unicodeScalars)
                base = false
                index += 1
            }
        }
        return String(result)
    }

    /// Whether `scalar` must never reach a terminal as-is.
    public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        if v < 0x20 || (0x7F...0x9F).contains(v) { return true }
        guard v >= 0x370 else { return false }
        // Box drawing, block elements and braille, drawn in every frame: assigned, visible, one column.
        if (0x2500...0x259F).contains(v) || (0x2800...0x28FF).contains(v) { return false }
        return (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v) || v == 0x200E || v == 0x200F
            || v == 0x061C || isInvisible(v) || WidthTable.width(v) < 0
    }

    /// Format characters that draw nothing and could hide text or pass for an empty row: zero-width space,
    /// word joiner and invisible operators, byte-order mark, Mongolian vowel separator, tag characters,
    /// interlinear annotation marks, deprecated format controls, line and paragraph separators.
    static func isInvisible(_ v: UInt32) -> Bool {
        v == 0x200B || (0x2028...0x2029).contains(v) || (0x2060...0x2065).contains(v) || (0x206A...0x206F).contains(v)
            || v == 0xFEFF || v == 0x180E || (0xFFF9...0xFFFB).contains(v) || (0xE0000...0xE007F).contains(v)
            || (0x1D173...0x1D17A).contains(v) || (0x13430...0x1343F).contains(v) || (0x1BCA0...0x1BCA3).contains(v)
    }

    /// Joiners and variation selectors: they only shape emoji and scripts, and ncurses draws the parts they join
    /// side by side, so they are dropped.
    static func isShaping(_ v: UInt32) -> Bool {
        v == 0x200C || v == 0x200D || (0xFE00...0xFE0F).contains(v) || (0xE0100...0xE01EF).contains(v)
    }

    /// Whether every scalar is safe, so the text can be used unchanged.
    static func isPlain(_ text: String) -> Bool {
        for byte in text.utf8 where byte < 0x20 || byte == 0x7F || byte >= 0x80 {
            guard byte >= 0x80 else { return false }
            var first = true
            for scalar in text.unicodeScalars {
                if isUnsafe(scalar) || isShaping(scalar.value) { return false }
                if first, DisplayWidth.width(of: scalar) == 0 { return false }
                first = false
            }
            return true
        }
        return true
    }

    /// Appends `scalar` made safe; `afterBase` says whether the last thing appended can carry a combining mark.
    static func append(_ scalar: Unicode.Scalar, to result: inout String.UnicodeScalarView, afterBase: inout Bool) {
        let v = scalar.value
        if v < 0x20 {
            result.append(Unicode.Scalar(0x2400 + v)!)
            afterBase = false
        } else if v == 0x7F {
            result.append("\u{2421}")
            afterBase = false
        } else if isUnsafe(scalar) {
            let hex = String(v, radix: 16, uppercase: true)
            result.append(contentsOf: "\\u{\(hex)}".unicodeScalars)
            afterBase = false
        } else if isShaping(v) {
            return
        } else if DisplayWidth.width(of: scalar) == 0 {
            // A combining mark needs a base; one that has none is shown on a dotted circle, as fonts do.
            if !afterBase { result.append("\u{25CC}") }
            result.append(scalar)
            afterBase = true
        } else {
            result.append(scalar)
            afterBase = true
        }
    }

    static func hexEscape(_ byte: UInt8) -> String {
        let hex = String(byte, radix: 16, uppercase: true)
        return byte < 0x10 ? "\\x0\(hex)" : "\\x\(hex)"
    }

    /// One well-formed UTF-8 scalar at `index` (no overlongs, no surrogates, at most U+10FFFF) and its length.
    static func decodeScalar(_ bytes: [UInt8], at index: Int) -> (Unicode.Scalar, Int)? {
        let lead = bytes[index]
        if lead < 0x80 { return (Unicode.Scalar(lead), 1) }
        let length: Int
        let minimum: UInt32
        var value: UInt32
        switch lead {
        case 0xC2...0xDF: (length, minimum, value) = (2, 0x80, UInt32(lead & 0x1F))
        case 0xE0...0xEF: (length, minimum, value) = (3, 0x800, UInt32(lead & 0x0F))
        case 0xF0...0xF4: (length, minimum, value) = (4, 0x10000, UInt32(lead & 0x07))
        default: return nil
        }
        guard index + length <= bytes.count else { return nil }
        for offset in 1..<length {
            let byte = bytes[index + offset]
            guard byte & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        guard value >= minimum, let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, length)
    }
}
