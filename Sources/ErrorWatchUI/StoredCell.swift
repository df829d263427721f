/// One cell as a ``ScreenBuffer`` stores it: the grapheme's UTF-8 inline, so a cell holds no reference and copying,
/// filling and comparing cells is plain memory work (a ``Cell`` holds a `String`: every copy of it was a
/// retain/release pair, half of a frame's time; see docs/benchmarks-render.md).
///
/// `glyph` holds up to 7 UTF-8 bytes, the first in its lowest byte, and their count in its top byte. A longer
/// grapheme (a letter with several combining marks) is kept whole in its buffer's overflow list, and `glyph` holds
/// ``overflowTag`` in its top byte and the index in that list below. Packing is canonical (a grapheme of 7 bytes or
/// fewer is always inline), so two inline cells are the same cell exactly when they are equal.
struct StoredCell: Sendable, Hashable {
    var glyph: UInt64
    var width: UInt8
    var style: CellStyle

    /// The top byte of an overflowing grapheme's `glyph`.
    static let overflowTag: UInt64 = 0xFF

    /// The most UTF-8 bytes held inline.
    static let inlineBytes = 7

    /// A blank in the plain style.
    static let blank = StoredCell(ascii: 0x20, style: .plain)

    init(glyph: UInt64, width: UInt8, style: CellStyle) {
        self.glyph = glyph
        self.width = width
        self.style = style
    }

    /// A one-column cell of the printable ASCII `byte`.
    @inline(__always)
    init(ascii byte: UInt8, style: CellStyle) {
        self.init(glyph: UInt64(byte) | (1 << 56), width: 1, style: style)
    }

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
