import CNCurses
import ErrorWatchUI

/// Maps (foreground, background) colours to ncurses colour pairs, allocating them on first use.
///
/// ncurses' `alloc_pair` keeps its own table and recycles the least recently used pair when full; this cache
/// saves the lookup for the few dozen combinations a theme uses.
struct ColorPairCache {
    private struct Key: Hashable {
        let foreground: Int32
        let background: Int32
    }
    private var pairs: [Key: Int32] = [:]
    private var owners: [Int32: Key] = [:]

    mutating func pair(for style: CellStyle, depth: ColorDepth) -> Int32 {
        let key = Key(
            foreground: Self.index(style.foreground, depth: depth),
            background: Self.index(style.background, depth: depth))
        if key.foreground == -1, key.background == -1 { return 0 }
        if let pair = pairs[key] { return pair }
        let pair = alloc_pair(key.foreground, key.background)
        let result = pair < 0 ? 0 : pair
        // When the terminal has few pairs, alloc_pair recycles the least recently used one: forget whichever
        // colours that number stood for, or they would be drawn with the new ones.
        if let previous = owners[result], previous != key { pairs[previous] = nil }
        pairs[key] = result
        owners[result] = key
        return result
    }

    /// The ncurses colour number for a colour at a depth; -1 is the terminal default.
    static func index(_ color: TerminalColor, depth: ColorDepth) -> Int32 {
        let limit: Int32 =
            switch depth {
            case .monochrome: 0
            case .colors8: 8
            case .colors16: 16
            case .colors256, .truecolor: 256
            }
        switch color {
        case .default:
            return -1
        case .indexed(let n):
            let value = Int32(n)
            if value < limit { return value }
            return limit >= 8 ? value % 8 : -1
        case .rgb(let r, let g, let b):
            let cube = XtermPalette.nearestIndex(r: r, g: g, b: b)
            return cube < limit ? cube : Int32(XtermPalette.nearestBasic(r: r, g: g, b: b, count: Int(max(limit, 8))))
        }
    }
}

/// The xterm 256-colour palette, for reducing 24-bit colours that reach the backend unresolved.
enum XtermPalette {
    static func nearestIndex(r: UInt8, g: UInt8, b: UInt8) -> Int32 {
        func level(_ v: UInt8) -> Int { v < 48 ? 0 : v < 115 ? 1 : (Int(v) - 35) / 40 }
        let (ri, gi, bi) = (level(r), level(g), level(b))
        return Int32(16 + 36 * ri + 6 * gi + bi)
    }

    static func nearestBasic(r: UInt8, g: UInt8, b: UInt8, count: Int) -> Int {
        let bright = Int(r) + Int(g) + Int(b) > 384
        let index = (r > 127 ? 1 : 0) | (g > 127 ? 2 : 0) | (b > 127 ? 4 : 0)
        return count >= 16 && bright ? index + 8 : index
    }
}
