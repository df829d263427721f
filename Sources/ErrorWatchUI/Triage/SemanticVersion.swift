/// A version that parses as semantic versioning (`1.10.0`, `v2.0.0-rc.1+build.5`, `1.2` as `1.2.0`), ordered by
/// its precedence rules: numbers compare as numbers (`1.10.0` > `1.9.9`), a pre-release sorts before its release,
/// pre-release identifiers compare numerically when both are numbers, else by ASCII, numbers before words, and a
/// longer list wins a tie. Build metadata is ignored. Anything else (`abc123`, `2024-06-01 nightly`) does not
/// parse, and callers fall back to first-seen order.
public struct SemanticVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Major, minor and patch.
    public var core: [Int]
    /// The pre-release identifiers after `-`, empty for a release.
    public var preRelease: [String]
    /// The text it was parsed from.
    public var description: String

    /// Parses `text`, or returns `nil` when it is not a semantic version.
    public init?(_ text: String) {
        var rest = Substring(text)
        if rest.first == "v" || rest.first == "V" { rest = rest.dropFirst() }
        if let plus = rest.firstIndex(of: "+") { rest = rest[..<plus] }
        var pre: [String] = []
        if let dash = rest.firstIndex(of: "-") {
            let identifiers = rest[rest.index(after: dash)...].split(separator: ".", omittingEmptySubsequences: false)
            guard !identifiers.isEmpty,
                identifiers.allSatisfy({ id in
                    !id.isEmpty && id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
                })
            else { return nil }
            pre = identifiers.map(String.init)
            rest = rest[..<dash]
        }
        let parts = rest.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        var core: [Int] = []
        for part in parts {
            guard !part.isEmpty, part.count <= 18, part.allSatisfy({ $0.isASCII && $0.isNumber }),
                let number = Int(part)
            else { return nil }
            core.append(number)
        }
        // `7` alone is a build number, not a version: ask for at least a dot.
        guard parts.count > 1 else { return nil }
        while core.count < 3 { core.append(0) }
        self.core = core
        self.preRelease = pre
        self.description = text
    }

    /// Precedence, build metadata ignored.
    public static func < (lhs: SemanticVersion, rhs: SemanticVersion) -> Bool {
        if lhs.core != rhs.core { return lhs.core.lexicographicallyPrecedes(rhs.core) }
        // A pre-release comes before its release; two releases with the same core are equal.
        if lhs.preRelease.isEmpty != rhs.preRelease.isEmpty { return !lhs.preRelease.isEmpty }
        for (a, b) in zip(lhs.preRelease, rhs.preRelease) where a != b {
            switch (Int(a), Int(b)) {
            case (let x?, let y?): return x < y
            case (.some, nil): return true
            case (nil, .some): return false
            case (nil, nil): return a < b
            }
        }
        return lhs.preRelease.count < rhs.preRelease.count
    }

    /// Same precedence (build metadata ignored).
    public static func == (lhs: SemanticVersion, rhs: SemanticVersion) -> Bool {
        lhs.core == rhs.core && lhs.preRelease == rhs.preRelease
    }

    /// Hashes what precedence compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(core)
        hasher.combine(preRelease)
    }
}
