/// Terminal display width of text, as ncurses will draw it, and truncation to a width.
///
/// ncurses places text by the C library's `wcwidth`, one scalar at a time, so this does too, from a table that
/// `scripts/generate-width-table.sh` generates from glibc's `wcwidth` (C.UTF-8) and `DisplayWidthTableTests` checks
/// against it for every code point: East Asian wide
/// and full-width scalars (CJK, Hangul, most emoji, skin-tone modifiers) take 2 columns; combining marks, format
/// characters and Hangul medial and final jamo take 0; everything else 1. Text is drawn in *cells*: a scalar that
/// takes columns, with the zero-width scalars after it (``cells(_:)``). A grapheme such as a family emoji joined by
/// zero-width joiners therefore takes the columns of its parts, as ncurses draws it, never fewer (which left stale
/// cells showing) or more. Control characters are never written as-is (see ``Sanitizer``), so they count as 1.
///
/// ```swift
/// DisplayWidth.of("漢字")           // 4
/// DisplayWidth.truncate("漢字abc", to: 4)  // "漢…"
/// ```
public enum DisplayWidth {
    /// The number of columns `character` takes: the sum of its scalars' (0 for a lone zero-width scalar).
    @inlinable
    public static func of(_ character: Character) -> Int {
        if let ascii = character.asciiValue, ascii >= 0x20 { return 1 }
        var total = 0
        for scalar in character.unicodeScalars { total += width(of: scalar) }
        return total
    }

    /// The number of columns `text` takes.
    public static func of(_ text: some StringProtocol) -> Int {
        // ASCII: a scalar a byte, each under U+0300, so one column each.
        var bytes = 0
        for byte in text.utf8 {
            guard byte < 0x80 else { return scalarWidths(text) }
            bytes += 1
        }
        return bytes
    }

    private static func scalarWidths(_ text: some StringProtocol) -> Int {
        var total = 0
        for scalar in text.unicodeScalars { total += width(of: scalar) }
        return total
    }

    /// The columns one scalar takes, as glibc's `wcwidth` says in a UTF-8 locale; controls count 1.
    @inlinable
    public static func width(of scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if v < 0x300 { return 1 }
        return widthBeyondLatin(scalar)
    }

    @usableFromInline
    static func widthBeyondLatin(_ scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        // Fast path for the narrow symbols the dashboard draws all the time (box drawing, braille, arrows, `…`).
        if (0x2010...0x2027).contains(v) || (0x2190...0x2199).contains(v) || (0x2500...0x25A0).contains(v)
            || (0x2800...0x28FF).contains(v)
        {
            return 1
        }
        // A code point the C library does not know is escaped by the sanitizer; if one is drawn raw, it is one cell.
        let width = WidthTable.width(v)
        return width < 0 ? 1 : width
    }

    /// The cells `text` is drawn in: each scalar that takes columns with the zero-width scalars that follow it,
    /// and its width. Zero-width scalars with nothing before them are dropped (ncurses could not place them).
    public static func cells(_ text: some StringProtocol) -> [(text: String, width: Int)] {
        var cells: [(text: String, width: Int)] = []
        for scalar in text.unicodeScalars {
            let width = width(of: scalar)
            if width == 0 {
                if !cells.isEmpty { cells[cells.count - 1].text.unicodeScalars.append(scalar) }
            } else {
                cells.append((String(scalar), width))
            }
        }
        return cells
    }

    /// `text` cut to at most `width` columns, ending in `…` when something was cut. A wide glyph that would
    /// straddle the limit is dropped rather than split.
    public static func truncate(_ text: some StringProtocol, to width: Int) -> String {
        guard width > 0 else { return "" }
        let utf8 = text.utf8
        if utf8.allSatisfy({ $0 < 0x80 }) {
            // ASCII: a scalar a byte, a column each (controls count 1, as below), so the cut is at a byte count.
            if utf8.count <= width { return String(text) }
            return String(decoding: utf8.prefix(width - 1), as: UTF8.self) + "…"
        }
        var used = 0
        var end = text.unicodeScalars.startIndex
        var cutAt: String.UnicodeScalarView.Index?
        var usedAtCut = 0
        let scalars = text.unicodeScalars
        var index = scalars.startIndex
        while index < scalars.endIndex {
            let w = Self.width(of: scalars[index])
            if w > 0, used + w > width - 1, cutAt == nil {
                cutAt = index
                usedAtCut = used
            }
            if used + w > width {
                let prefix = String(String.UnicodeScalarView(scalars[scalars.startIndex..<(cutAt ?? index)]))
                return usedAtCut < width ? prefix + "…" : prefix
            }
            used += w
            index = scalars.index(after: index)
            end = index
        }
        return String(String.UnicodeScalarView(scalars[scalars.startIndex..<end]))
    }
}
