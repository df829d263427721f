/// One cell as a ``ScreenBuffer`` stores it: the grapheme's UTF-8 inline, so a cell holds no reference and copying,
/// filling and comparing cells is plain memory work (a ``Cell`` holds a `String`: every copy of it was a
/// retain/release pair, half of a frame's time; see docs/benchmarks-render.md).
///
/// `glyph` holds up to 7 UTF-8 bytes, the first in its lowest byte, and their count in its top byte. A longer
/// grapheme (a letter with several combining marks) is kept whole in its buffer's overflow list, and `glyph` holds
/// ``overflowTag`` in its top byte and the index in that list below. Packing is canonical (a grapheme of 7 bytes or
/// fewer is always inline), so two inline cells are the same cell exactly when they are equal.
///
/// The width and style share a second word (``look``), so a cell is 16 bytes, not the 24 that separate members took
/// with their padding: a frame's fills, copies and comparisons move a third less memory. Bits 0–25 hold the
/// foreground (a 2-bit case, then the index or the red, green and blue bytes), 26–51 the background, 52–59 the
/// attributes and 60–63 the width. The packing is canonical, so two cells are equal exactly when their words are.
struct StoredCell: Sendable, Hashable {
    var glyph: UInt64
    /// The width and style, packed as above.
    private var look: UInt64

    /// The top byte of an overflowing grapheme's `glyph`.
    static let overflowTag: UInt64 = 0xFF

    /// The most UTF-8 bytes held inline.
    static let inlineBytes = 7

    /// A blank in the plain style.
    static let blank = StoredCell(ascii: 0x20, style: .plain)

    @inline(__always)
    init(glyph: UInt64, width: UInt8, style: CellStyle) {
        self.glyph = glyph
        look = UInt64(width & 0xF) << 60 | Self.pack(style)
    }

    /// Columns taken: 1, 2 for a wide glyph, 0 for the right half of one (at most 15 is kept).
    var width: UInt8 {
        @inline(__always) get { UInt8(truncatingIfNeeded: look >> 60) }
        set { look = look & ~(0xF << 60) | UInt64(newValue & 0xF) << 60 }
    }

    /// Colours and attributes.
    var style: CellStyle {
        get {
            CellStyle(
                foreground: Self.color(look), background: Self.color(look >> 26),
                attributes: CellAttributes(rawValue: UInt8(truncatingIfNeeded: look >> 52)))
        }
        set { look = look & (0xF << 60) | Self.pack(newValue) }
    }

    /// Whether `other` has the same width and style: one comparison of their packed words.
    @inline(__always)
    func looksLike(_ other: StoredCell) -> Bool { look == other.look }

    /// `style` in bits 0–59.
    @inline(__always)
    private static func pack(_ style: CellStyle) -> UInt64 {
        pack(style.foreground) | pack(style.background) << 26 | UInt64(style.attributes.rawValue) << 52
    }

    /// A colour in 26 bits: its case in the top two, its index or its red, green and blue bytes below.
    @inline(__always)
    private static func pack(_ color: TerminalColor) -> UInt64 {
        switch color {
        case .default: 0
        case .indexed(let index): 1 << 24 | UInt64(index)
        case .rgb(let red, let green, let blue): 2 << 24 | UInt64(red) << 16 | UInt64(green) << 8 | UInt64(blue)
        }
    }

    /// The colour packed in the low 26 bits of `bits`.
    private static func color(_ bits: UInt64) -> TerminalColor {
        switch (bits >> 24) & 0b11 {
        case 1: .indexed(UInt8(truncatingIfNeeded: bits))
        case 2:
            .rgb(
                UInt8(truncatingIfNeeded: bits >> 16), UInt8(truncatingIfNeeded: bits >> 8),
                UInt8(truncatingIfNeeded: bits))
        default: .default
        }
    }

    /// A one-column cell of the printable ASCII `byte`.
    @inline(__always)
    init(ascii byte: UInt8, style: CellStyle) {
        self.init(glyph: Self.asciiGlyph(byte), width: 1, style: style)
    }

    /// The glyph of the ASCII `byte`: the byte, and a count of one.
    @inline(__always)
    static func asciiGlyph(_ byte: UInt8) -> UInt64 { UInt64(byte) | (1 << 56) }

    /// Whether the grapheme is in the buffer's overflow list.
    var isOverflow: Bool { glyph >> 56 == Self.overflowTag }

    /// The overflow list index of an overflowing grapheme.
    var overflowIndex: Int { Int(truncatingIfNeeded: glyph & 0xFFFF_FFFF) }

    /// The inline grapheme's bytes as a string; empty for an overflowing one.
    var inlineGrapheme: String {
        let count = Int(glyph >> 56)
        guard count > 0, count <= Self.inlineBytes else { return "" }
        var bytes = glyph.littleEndian
        return withUnsafeBytes(of: &bytes) { raw in
            String(decoding: UnsafeRawBufferPointer(rebasing: raw[0..<count]), as: UTF8.self)
        }
    }

    /// The inline `glyph` of `text`, or `nil` when it has more than ``inlineBytes`` UTF-8 bytes.
    static func inlineGlyph(_ text: String) -> UInt64? {
        var packer = GlyphPacker()
        for byte in text.utf8 {
            guard packer.append(byte) else { return nil }
        }
        return packer.glyph
    }
}

/// Builds a ``StoredCell`` glyph a byte or a scalar at a time.
struct GlyphPacker {
    private(set) var bits: UInt64 = 0
    private(set) var count = 0

    /// Adds `byte`; `false` (and nothing added) once ``StoredCell/inlineBytes`` are taken.
    @inline(__always)
    mutating func append(_ byte: UInt8) -> Bool {
        guard count < StoredCell.inlineBytes else { return false }
        bits |= UInt64(byte) << (8 * UInt64(count))
        count += 1
        return true
    }

    /// Adds `scalar`'s UTF-8; `false` (and nothing added) when it does not fit.
    mutating func append(_ scalar: Unicode.Scalar) -> Bool {
        let length = UTF8.width(scalar)
        guard count + length <= StoredCell.inlineBytes, let encoded = UTF8.encode(scalar) else { return false }
        for byte in encoded { _ = append(byte) }
        return true
    }

    /// The glyph: the bytes and their count.
    var glyph: UInt64 { bits | (UInt64(count) << 56) }
}
