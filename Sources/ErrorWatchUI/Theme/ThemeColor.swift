import Foundation

/// A colour as a theme file writes it, before it is fitted to the terminal.
public enum ThemeColor: Sendable, Hashable, CustomStringConvertible {
    /// The terminal's own default colour.
    case `default`
    /// One of the 16 ANSI colours, 0–7 normal and 8–15 bright, by name in theme files (`red`, `bright-blue`).
    case ansi(UInt8)
    /// An xterm 256-colour index.
    case indexed(UInt8)
    /// `#rrggbb`.
    case rgb(UInt8, UInt8, UInt8)

    /// The ANSI names accepted in theme files, index = colour number.
    public static let ansiNames = [
        "black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
        "bright-black", "bright-red", "bright-green", "bright-yellow", "bright-blue", "bright-magenta",
        "bright-cyan", "bright-white",
    ]

    /// Parses a theme-file value: an ANSI name, `default`, `#rrggbb` or an integer 0–255; `nil` otherwise.
    public init?(json value: Any) {
        if let text = value as? String {
            let name = text.lowercased()
            if name == "default" {
                self = .default
            } else if name == "gray" || name == "grey" {
                self = .ansi(8)
            } else if let index = Self.ansiNames.firstIndex(of: name) {
                self = .ansi(UInt8(index))
            } else if name.hasPrefix("#"), name.count == 7, let v = UInt32(name.dropFirst(), radix: 16) {
                self = .rgb(UInt8(v >> 16), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF))
            } else {
                return nil
            }
        } else if !(value is Bool), let int = value as? Int, (0...255).contains(int) {
            self = .indexed(UInt8(int))
        } else {
            return nil
        }
    }

    /// How a theme file writes it.
    public var description: String {
        switch self {
        case .default: "default"
        case .ansi(let n): Self.ansiNames[Int(n) & 15]
        case .indexed(let n): "\(n)"
        case .rgb(let r, let g, let b):
            "#" + [r, g, b].map { $0 < 16 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
        }
    }
}
