/// A case-insensitive substring to look for, lowercased once when the query is parsed.
///
/// A query is evaluated on up to 100,000 lines per frame, so the search is done on UTF-8 bytes with ASCII case
/// folding, like `DashboardState.contains`: no allocation and no Unicode tables per line (Foundation's
/// case-insensitive search is several times slower on Linux). Only a needle that is not ASCII needs full Unicode
/// lowercasing, and then a haystack is lowercased only when it is not ASCII itself.
///
/// The search is Boyer–Moore–Horspool: it compares the last byte of each window first and, on a mismatch, jumps by
/// up to the needle's length, so a longer word reads only part of a line that does not contain it.
struct QueryNeedle: Sendable, Hashable {
    /// The needle's lowercased UTF-8: ASCII-folded when ``isASCII``, Unicode-lowercased otherwise.
    let bytes: [UInt8]
    /// Whether the needle is ASCII, so that ASCII folding of a haystack is enough to compare with it.
    let isASCII: Bool
    /// Horspool's shifts: for each folded byte at the end of a window, how far the next window may start.
    private let shifts: [UInt8]

    /// A needle for `text`, matched regardless of case.
    init(_ text: String) {
        isASCII = Self.isASCII(text)
        bytes = isASCII ? text.utf8.map(Self.fold) : Array(text.lowercased().utf8)
        var shifts = [UInt8](repeating: UInt8(clamping: bytes.count), count: 256)
        for (offset, byte) in bytes.dropLast().enumerated() {
            shifts[Int(byte)] = UInt8(clamping: bytes.count - 1 - offset)
        }
        self.shifts = shifts
    }

    /// Whether `haystack` contains the needle, ignoring case. The empty needle is in every haystack.
    func isFound(in haystack: String) -> Bool {
        withNeedle { needle in comparableUTF8(of: haystack) { needle.firstOffset(in: $0, from: 0) != nil } }
    }

    /// Whether `haystack` starts with the needle, ignoring case.
    func isPrefix(of haystack: String) -> Bool {
        withNeedle { needle in comparableUTF8(of: haystack) { needle.isPrefix(of: $0) } }
    }

    /// The non-overlapping ranges of `text` that match the needle, in order, widened to whole characters.
    func ranges(in text: String) -> [Range<String.Index>] {
        guard !bytes.isEmpty else { return [] }
        return isASCII ? asciiRanges(in: text) : unicodeRanges(in: text)
    }

    // MARK: Search

    /// Calls `body` with UTF-8 of `haystack` that, once ASCII-folded byte by byte, compares with ``bytes``.
    private func comparableUTF8<Result>(
        of haystack: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
        if isASCII || Self.isASCII(haystack) { return Self.withUTF8(of: haystack, body) }
        return Self.withUTF8(of: haystack.lowercased(), body)
    }

    private func asciiRanges(in text: String) -> [Range<String.Index>] {
        let offsets = withNeedle { needle in Self.withUTF8(of: text) { needle.offsets(in: $0) } }
        guard !offsets.isEmpty else { return [] }
        // The needle's first and last bytes are ASCII, so every match starts and ends on a scalar boundary; it may
        // still start or end inside a character ("e" in "e\u{301}"), so widen it to whole characters.
        let isPlain = Self.isASCII(text)
        let utf8 = text.utf8
        var index = utf8.startIndex
        var position = 0
        var ranges: [Range<String.Index>] = []
        ranges.reserveCapacity(offsets.count)
        for offset in offsets {
            let start = utf8.index(index, offsetBy: offset - position)
            let end = utf8.index(start, offsetBy: bytes.count)
            index = end
            position = offset + bytes.count
            if isPlain {
                ranges.append(start..<end)
            } else {
                ranges.append(
                    Self.characterStart(atOrBefore: start, in: text)..<Self.characterStart(atOrAfter: end, in: text))
            }
        }
        return ranges
    }

    /// Lowercases `text` character by character, remembering which character each lowercased byte came from, so
    /// that a match in the lowercased text maps back to whole characters of `text`.
    private func unicodeRanges(in text: String) -> [Range<String.Index>] {
        var lowered: [UInt8] = []
        var owners: [String.Index] = []
        var index = text.startIndex
        while index < text.endIndex {
            for byte in text[index].lowercased().utf8 {
                lowered.append(byte)
                owners.append(index)
            }
            index = text.index(after: index)
        }
        let offsets = withNeedle { needle in lowered.withUnsafeBufferPointer { needle.offsets(in: $0) } }
        return offsets.map { offset in
            owners[offset]..<text.index(after: owners[offset + bytes.count - 1])
        }
    }

    // MARK: Bytes

    /// Calls `body` with the needle's bytes and shifts in place.
    private func withNeedle<Result>(_ body: (Searcher) -> Result) -> Result {
        bytes.withUnsafeBufferPointer { bytes in
            shifts.withUnsafeBufferPointer { shifts in body(Searcher(bytes: bytes, shifts: shifts)) }
        }
    }

    /// The needle's bytes and shifts, borrowed for one search.
    private struct Searcher {
        let bytes: UnsafeBufferPointer<UInt8>
        let shifts: UnsafeBufferPointer<UInt8>

        /// The offset of the first match in `haystack` at or after `start`, comparing ASCII-folded bytes.
        func firstOffset(in haystack: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
            let count = bytes.count
            guard count > 0 else { return start <= haystack.count ? start : nil }
            guard haystack.count - start >= count else { return nil }
            let last = bytes[count - 1]
            let end = haystack.count - count
            var offset = start
            while offset <= end {
                let byte = QueryNeedle.fold(haystack[offset + count - 1])
                if byte == last {
                    var matched = 0
                    while matched < count - 1, QueryNeedle.fold(haystack[offset + matched]) == bytes[matched] {
                        matched += 1
                    }
                    if matched == count - 1 { return offset }
                }
                offset += Int(shifts[Int(byte)])
            }
            return nil
        }

        /// The offsets of the non-overlapping matches in `haystack`, in order.
        func offsets(in haystack: UnsafeBufferPointer<UInt8>) -> [Int] {
            guard !bytes.isEmpty else { return [] }
            var offsets: [Int] = []
            var from = 0
            while let offset = firstOffset(in: haystack, from: from) {
                offsets.append(offset)
                from = offset + bytes.count
            }
            return offsets
        }

        /// Whether `haystack` starts with the needle, comparing ASCII-folded bytes.
        func isPrefix(of haystack: UnsafeBufferPointer<UInt8>) -> Bool {
            guard haystack.count >= bytes.count else { return false }
            for offset in 0..<bytes.count where QueryNeedle.fold(haystack[offset]) != bytes[offset] { return false }
            return true
        }
    }

    /// `byte` with ASCII `A`–`Z` lowercased.
    @inline(__always)
    static func fold(_ byte: UInt8) -> UInt8 { byte &- 0x41 < 26 ? byte | 0x20 : byte }

    static func isASCII(_ text: String) -> Bool {
        withUTF8(of: text) { bytes in
            for byte in bytes where byte >= 0x80 { return false }
            return true
        }
    }

    /// Calls `body` with the UTF-8 of `text`, copying only a string that is not stored contiguously.
    static func withUTF8<Result>(of text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = text
        return copy.withUTF8(body)
    }

    /// The start of the character that contains the scalar at `index`.
    private static func characterStart(atOrBefore index: String.Index, in text: String) -> String.Index {
        var index = index
        while String.Index(index, within: text) == nil { index = text.unicodeScalars.index(before: index) }
        return index
    }

    /// `index` if a character starts there, else the start of the next character (or the end).
    private static func characterStart(atOrAfter index: String.Index, in text: String) -> String.Index {
        var index = index
        while String.Index(index, within: text) == nil { index = text.unicodeScalars.index(after: index) }
        return index
    }
}
