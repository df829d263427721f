/// A one-row chart of a series, for the error rate in the Metrics pane.
///
/// With Unicode each braille character holds two samples, as bars up to four dots high (`⣀⣤⣶⣿`); without it each
/// ASCII character holds one sample (` .:-=+*#%@`). The newest samples are kept when the width is short; all
/// bars are scaled to the largest visible sample, and any non-zero sample shows at least one dot.
public enum Sparkline {
    /// The sparkline of `values` (oldest first) in at most `width` columns.
    public static func render(_ values: [Int], width: Int, unicode: Bool) -> String {
        guard width > 0, !values.isEmpty else { return "" }
        let perColumn = unicode ? 2 : 1
        let visible = Array(values.suffix(width * perColumn)).map { max(0, $0) }
        let peak = visible.max() ?? 0
        if unicode {
            let levels = 4
            func height(_ v: Int) -> Int { peak == 0 || v == 0 ? 0 : max(1, (v * levels + peak - 1) / peak) }
            let left: [UInt32] = [0, 0x40, 0x44, 0x46, 0x47]
            let right: [UInt32] = [0, 0x80, 0xA0, 0xB0, 0xB8]
            var result = String.UnicodeScalarView()
            var index = visible.count % 2 == 1 ? -1 : 0
            while index < visible.count {
                let a = index >= 0 ? height(visible[index]) : 0
                let b = index + 1 < visible.count ? height(visible[index + 1]) : 0
                result.append(Unicode.Scalar(0x2800 + left[a] + right[b])!)
                index += 2
            }
            return String(result)
        }
        let ramp = Array(" .:-=+*#%@")
        return String(
            visible.map { v -> Character in
                guard peak > 0, v > 0 else { return ramp[0] }
                return ramp[max(1, (v * (ramp.count - 1) + peak - 1) / peak)]
            })
    }
}
