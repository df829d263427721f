/// A one-row chart of a series, for the error rate in the Metrics pane and each row of the lists.
///
/// With Unicode each braille character holds two samples, as bars up to four dots high (`⣀⣤⣶⣿`); without it each
/// ASCII character holds one sample (` .:-=+*#%@`). The newest samples are kept when the width is short; all
/// bars are scaled to the largest visible sample, and any non-zero sample shows at least one dot.
public enum Sparkline {
    /// The sparkline of `values` (oldest first) in at most `width` columns.
    public static func render(_ values: [Int], width: Int, unicode: Bool) -> String {
        var result = String.UnicodeScalarView()
        forEachScalar(values, width: width, unicode: unicode) { result.append($0) }
        return String(result)
    }

    /// Draws the sparkline of `values` at (`x`, `y`) in at most `width` columns: the characters
    /// ``render(_:width:unicode:)`` makes, then (with `padding`) blanks to exactly `width` columns, all in `style`.
    /// Its cells are written straight into the buffer (every character is one column and safe), where writing the
    /// text would break it into graphemes again: each list row draws one, and the Metrics pane its error rate.
    /// Returns the column after the sparkline's last character (before the padding).
    @discardableResult
    static func draw(
        _ values: some RandomAccessCollection<Int>, width: Int, unicode: Bool, x: Int, y: Int, style: CellStyle,
        padding: Bool = true, into buffer: inout ScreenBuffer
    ) -> Int {
        guard width > 0 else { return x }
        // The glyphs are packed on the stack, then written as one run of cells.
        return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: width) { glyphs in
            var count = 0
            forEachScalar(values, width: width, unicode: unicode) { scalar in
                guard count < width else { return }
                var glyph = GlyphPacker()
                _ = glyph.append(scalar)
                glyphs[count] = glyph.glyph
                count += 1
            }
            buffer.writeRun(UnsafeBufferPointer(rebasing: glyphs[..<count]), x: x, y: y, style: style)
            if padding, count < width {
                buffer.fill(Rect(x: x + count, y: y, width: width - count, height: 1), style: style)
            }
            return x + count
        }
    }

    /// The dots of a bar of each height, in the left and in the right column of a braille cell.
    private static let left: [UInt32] = [0, 0x40, 0x44, 0x46, 0x47]
    private static let right: [UInt32] = [0, 0x80, 0xA0, 0xB0, 0xB8]
    /// The ASCII characters of a bar of each height.
    private static let ramp: [Unicode.Scalar] = [" ", ".", ":", "-", "=", "+", "*", "#", "%", "@"]

    /// Hands `body` each character of the sparkline, oldest first: at most `width`, each one column wide.
    private static func forEachScalar(
        _ values: some RandomAccessCollection<Int>, width: Int, unicode: Bool, _ body: (Unicode.Scalar) -> Void
    ) {
        // Arrays and counts on the stack both hand over their storage: it is read in place.
        let done: Void? = values.withContiguousStorageIfAvailable { storage in
            forEachScalar(in: storage, width: width, unicode: unicode, body)
        }
        if done == nil {
            Array(values).withUnsafeBufferPointer { forEachScalar(in: $0, width: width, unicode: unicode, body) }
        }
    }

    private static func forEachScalar(
        in values: UnsafeBufferPointer<Int>, width: Int, unicode: Bool, _ body: (Unicode.Scalar) -> Void
    ) {
        guard width > 0, !values.isEmpty else { return }
        let visible = values.suffix(width * (unicode ? 2 : 1))
        var peak = 0
        for value in visible where value > peak { peak = value }
        if unicode {
            let levels = 4
            func height(_ index: Int) -> Int {
                guard index >= visible.startIndex else { return 0 }
                let v = max(0, visible[index])
                return peak == 0 || v == 0 ? 0 : max(1, (v * levels + peak - 1) / peak)
            }
            // An odd count leaves the oldest cell's left column empty.
            var index = visible.startIndex - visible.count % 2
            while index < visible.endIndex {
                let b = index + 1 < visible.endIndex ? height(index + 1) : 0
                body(Unicode.Scalar(0x2800 + left[height(index)] + right[b])!)
                index += 2
            }
            return
        }
        for value in visible {
            guard peak > 0, value > 0 else {
                body(ramp[0])
                continue
            }
            body(ramp[max(1, (value * (ramp.count - 1) + peak - 1) / peak)])
        }
    }
}
