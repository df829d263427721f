/// Maps theme colours to what a terminal of a given depth can show.
enum ColorFitting {
    /// The xterm default RGB values of the 16 ANSI colours.
    static let ansiRGB: [(Int, Int, Int)] = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205),
        (229, 229, 229), (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255),
        (255, 0, 255), (0, 255, 255), (255, 255, 255),
    ]
    static let cubeLevels = [0, 95, 135, 175, 215, 255]

    static func fit(_ color: ThemeColor, to depth: ColorDepth) -> TerminalColor {
        switch (color, depth) {
        case (.default, _), (_, .monochrome): return .default
        case (.ansi(let n), .colors8): return .indexed(n & 7)
        case (.ansi(let n), _): return .indexed(n & 15)
        case (.indexed(let n), .truecolor), (.indexed(let n), .colors256): return .indexed(n)
        case (.indexed(let n), .colors16): return .indexed(nearestANSI(rgb(ofIndex: n)))
        case (.indexed(let n), .colors8): return .indexed(nearestANSI(rgb(ofIndex: n)) & 7)
        case (.rgb(let r, let g, let b), .truecolor): return .rgb(r, g, b)
        case (.rgb(let r, let g, let b), .colors256): return .indexed(nearest256((Int(r), Int(g), Int(b))))
        case (.rgb(let r, let g, let b), .colors16): return .indexed(nearestANSI((Int(r), Int(g), Int(b))))
        case (.rgb(let r, let g, let b), .colors8): return .indexed(nearestANSI((Int(r), Int(g), Int(b))) & 7)
        }
    }

    /// A foreground for an 8-colour terminal. Bright colours become their base colour in bold. Greys are
    /// judged by lightness rather than by nearest colour, which would turn a dark-theme border grey into
    /// black on black: dark greys become black, mid greys dim white, light greys white.
    static func foreground8(_ color: ThemeColor) -> (TerminalColor, CellAttributes) {
        let rgb: (Int, Int, Int)
        switch color {
        case .default: return (.default, [])
        case .ansi(let n) where n != 8 && n != 7 && n != 0 && n != 15: return (.indexed(n & 7), n >= 8 ? .bold : [])
        case .ansi(let n): rgb = ansiRGB[Int(n)]
        case .indexed(let n): rgb = Self.rgb(ofIndex: n)
        case .rgb(let r, let g, let b): rgb = (Int(r), Int(g), Int(b))
        }
        let high = max(rgb.0, rgb.1, rgb.2)
        let low = min(rgb.0, rgb.1, rgb.2)
        if high - low < 24 {
            if high < 64 { return (.indexed(0), []) }
            if high < 192 { return (.indexed(7), .dim) }
            return (.indexed(7), high >= 250 ? .bold : [])
        }
        let n = nearestANSI(rgb)
        return (.indexed(n & 7), n >= 8 ? .bold : [])
    }

    static func rgb(ofIndex n: UInt8) -> (Int, Int, Int) {
        let i = Int(n)
        if i < 16 { return ansiRGB[i] }
        if i >= 232 {
            let grey = 8 + 10 * (i - 232)
            return (grey, grey, grey)
        }
        let c = i - 16
        return (cubeLevels[c / 36], cubeLevels[(c / 6) % 6], cubeLevels[c % 6])
    }

    static func distance(_ a: (Int, Int, Int), _ b: (Int, Int, Int)) -> Int {
        // A cheap perceptual weighting ("redmean"-like): green matters most, blue least.
        let dr = a.0 - b.0
        let dg = a.1 - b.1
        let db = a.2 - b.2
        return 3 * dr * dr + 4 * dg * dg + 2 * db * db
    }

    static func nearestANSI(_ color: (Int, Int, Int)) -> UInt8 {
        var best = 0
        var bestDistance = Int.max
        for (index, candidate) in ansiRGB.enumerated() {
            let d = distance(color, candidate)
            if d < bestDistance {
                best = index
                bestDistance = d
            }
        }
        return UInt8(best)
    }

    /// The nearest of the xterm cube (16–231) and grey ramp (232–255); the first 16 vary between terminals.
    static func nearest256(_ color: (Int, Int, Int)) -> UInt8 {
        func level(_ v: Int) -> Int {
            var best = 0
            for (index, l) in cubeLevels.enumerated() where abs(l - v) < abs(cubeLevels[best] - v) { best = index }
            return best
        }
        let (r, g, b) = (level(color.0), level(color.1), level(color.2))
        let cubeIndex = 16 + 36 * r + 6 * g + b
        let cube = (cubeLevels[r], cubeLevels[g], cubeLevels[b])
        let average = (color.0 + color.1 + color.2) / 3
        let greyStep = min(23, max(0, (average - 3) / 10))
        let greyValue = 8 + 10 * greyStep
        let grey = (greyValue, greyValue, greyValue)
        return distance(color, grey) < distance(color, cube) ? UInt8(232 + greyStep) : UInt8(cubeIndex)
    }
}
