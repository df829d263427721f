/// A buffer as plain text plus a compact style table: the form of snapshot files, bug reports and
/// `errorwatch render --styles`.
///
/// ```text
/// ┌ Errors ──┐
/// │ ● Server…│
/// --- styles ---
/// a  fg=240 bg=default
/// b  fg=14 bg=default bold
/// --- rows ---
/// 0  a1 b8 a1
/// ```
///
/// Each style gets a letter in order of first use; each row lists runs as letter + length, in cells.
extension ScreenBuffer {
    /// The rows as text, continuation cells skipped, trailing blanks trimmed.
    public func textLines() -> [String] {
        (0..<height).map { row in
            var line = text(ofRow: row)
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    /// The style legend and per-row runs.
    public func styleTable() -> String {
        var letters: [CellStyle: String] = [:]
        var legend: [String] = []
        var rows: [String] = []
        for y in 0..<height {
            var runs: [String] = []
            var current: String?
            var length = 0
            for x in 0..<width {
                let style = storage[y * width + x].style
                let letter: String
                if let known = letters[style] {
                    letter = known
                } else {
                    letter = Self.letter(legend.count)
                    letters[style] = letter
                    legend.append("\(letter)  \(Self.describe(style))")
                }
                if letter == current {
                    length += 1
                } else {
                    if let current { runs.append("\(current)\(length)") }
                    current = letter
                    length = 1
                }
            }
            if let current { runs.append("\(current)\(length)") }
            rows.append("\(y)  " + runs.joined(separator: " "))
        }
        return (["--- styles ---"] + legend + ["--- rows ---"] + rows).joined(separator: "\n")
    }

    /// Text lines, then (when `styles`) the style table.
    public func snapshotText(styles: Bool = true) -> String {
        let text = textLines().joined(separator: "\n")
        return styles ? text + "\n" + styleTable() + "\n" : text + "\n"
    }

    static func letter(_ index: Int) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        return index < alphabet.count ? String(alphabet[index]) : "s\(index)"
    }

    static func describe(_ style: CellStyle) -> String {
        var parts = ["fg=\(describe(style.foreground))", "bg=\(describe(style.background))"]
        let names: [(CellAttributes, String)] = [
            (.bold, "bold"), (.dim, "dim"), (.underline, "underline"),
            (.reverse, "reverse"),
        ]
        for (attribute, name) in names where style.attributes.contains(attribute) { parts.append(name) }
        return parts.joined(separator: " ")
    }

    static func describe(_ color: TerminalColor) -> String {
        switch color {
        case .default: "default"
        case .indexed(let n): "\(n)"
        case .rgb(let r, let g, let b): "#" + [r, g, b].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        }
    }
}
