/// Terminal display width of graphemes and strings, and truncation to a width.
///
/// A grapheme takes 2 columns when it is East Asian wide or full-width (CJK, Hangul, full-width forms) or an
/// emoji shown in emoji presentation; combining marks stay attached to their base and add nothing; everything
/// else takes 1 column. Control characters are never written as-is (see ``Sanitizer``), so they count as 1.
///
/// ```swift
/// DisplayWidth.of("漢字")           // 4
/// DisplayWidth.truncate("漢字abc", to: 4)  // "漢…"
/// ```
public enum DisplayWidth {
    /// The number of columns `character` takes: 1 or 2.
    @inlinable
    public static func of(_ character: Character) -> Int {
        if let ascii = character.asciiValue, ascii >= 0x20 { return 1 }
        return widthOfCluster(character)
    }

    /// The number of columns `text` takes.
    public static func of(_ text: some StringProtocol) -> Int {
        var total = 0
        for character in text { total += of(character) }
        return total
    }

    /// `text` cut to at most `width` columns, ending in `…` when something was cut. A wide glyph that would
    /// straddle the limit is dropped rather than split.
    public static func truncate(_ text: some StringProtocol, to width: Int) -> String {
        guard width > 0 else { return "" }
        var used = 0
        var end = text.startIndex
        var cutAt: String.Index?
        var usedAtCut = 0
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            let w = of(character)
            if used + w > width - 1, cutAt == nil {
                cutAt = index
                usedAtCut = used
            }
            if used + w > width {
                let prefix = text[text.startIndex..<(cutAt ?? index)]
                return usedAtCut < width ? String(prefix) + "…" : String(prefix)
            }
            used += w
            index = text.index(after: index)
            end = index
        }
        return String(text[text.startIndex..<end])
    }

    @usableFromInline
    static func widthOfCluster(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        // Fast path for the narrow symbols the dashboard draws all the time (box drawing, braille, arrows, `…`),
        // which would otherwise go through the Unicode property tables.
        if character.utf8.count <= 3, isCommonNarrow(first.value), scalars.count == 1 { return 1 }
        if scalars.contains(where: { $0.value == 0xFE0F }) && first.properties.isEmoji { return 2 }
        if first.properties.isEmojiPresentation { return 2 }
        // Regional-indicator pairs (flags) are wide.
        if (0x1F1E6...0x1F1FF).contains(first.value) { return 2 }
        return isWide(first.value) ? 2 : 1
    }

    /// Single scalars known to be one column wide and never drawn as emoji.
    @usableFromInline
    static func isCommonNarrow(_ v: UInt32) -> Bool {
        v < 0x1100 && v != 0x00A9 && v != 0x00AE
            || (0x2010...0x2027).contains(v) || (0x2190...0x2199).contains(v)
            || (0x2500...0x25A0).contains(v) || (0x2800...0x28FF).contains(v)
    }

    /// East Asian Wide (W) and Fullwidth (F) ranges, condensed from Unicode's EastAsianWidth.txt.
    static func isWide(_ v: UInt32) -> Bool {
        switch v {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0, 0x23F3,
            0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F, 0x2693, 0x26A1, 0x26AA...0x26AB,
            0x26BD...0x26BE, 0x26C4...0x26C5, 0x26CE, 0x26D4, 0x26EA, 0x26F2...0x26F3, 0x26F5, 0x26FA, 0x26FD,
            0x2705, 0x270A...0x270B, 0x2728, 0x274C, 0x274E, 0x2753...0x2755, 0x2757, 0x2795...0x2797, 0x27B0,
            0x27BF, 0x2B1B...0x2B1C, 0x2B50, 0x2B55, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF,
            0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF,
            0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4,
            0x17000...0x18CFF, 0x1B000...0x1B2FF, 0x1F004, 0x1F0CF, 0x1F18E, 0x1F191...0x1F19A,
            0x1F200...0x1F2FF, 0x1F300...0x1F64F, 0x1F680...0x1F6FF, 0x1F7E0...0x1F7EB, 0x1F90C...0x1F9FF,
            0x1FA70...0x1FAFF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}
