/// Byte-level searches for ASCII needles in log lines, where Foundation's `range(of:)` and `contains(_:)` would go
/// through `NSString` (a UTF-16 copy of every line) and `trimmingCharacters(in:)` through `CharacterSet`.
///
/// An ASCII needle never matches inside a multi-byte UTF-8 sequence, so an offset found in a line's UTF-8 is a
/// valid index of the line's characters' scalars.
enum ASCIIScan {
    /// The offset of the first occurrence of `needle` in `haystack`, if any.
    static func firstOffset(of needle: StaticString, in haystack: UnsafeRawBufferPointer) -> Int? {
        let count = needle.utf8CodeUnitCount
        guard count > 0, haystack.count >= count else { return count == 0 ? 0 : nil }
        return needle.withUTF8Buffer { needle in
            let first = needle[0]
            var index = 0
            let last = haystack.count - count
            while index <= last {
                if haystack[index] == first {
                    var matched = 1
                    while matched < count, haystack[index + matched] == needle[matched] { matched += 1 }
                    if matched == count { return index }
                }
                index += 1
            }
            return nil
        }
    }

    /// Whether `needle` occurs in `haystack`.
    static func contains(_ haystack: UnsafeRawBufferPointer, _ needle: StaticString) -> Bool {
        firstOffset(of: needle, in: haystack) != nil
    }

    /// The range of the first occurrence of `needle` in `text`, if any.
    static func range(of needle: StaticString, in text: String) -> Range<String.Index>? {
        let found: Int?? = text.utf8.withContiguousStorageIfAvailable { buffer in
            firstOffset(of: needle, in: UnsafeRawBufferPointer(buffer))
        }
        let offset: Int?
        if let found {
            offset = found
        } else {
            offset = Array(text.utf8).withUnsafeBytes { firstOffset(of: needle, in: $0) }
        }
        guard let offset else { return nil }
        let utf8 = text.utf8
        let lower = utf8.index(utf8.startIndex, offsetBy: offset)
        return lower..<utf8.index(lower, offsetBy: needle.utf8CodeUnitCount)
    }

    /// Whether a scalar is horizontal white space as `CharacterSet.whitespaces` has it: a tab or a space
    /// separator (general category Zs).
    @inline(__always)
    static func isBlank(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value < 0x80 { return scalar == " " || scalar == "\t" }
        return scalar.properties.generalCategory == .spaceSeparator
    }

    /// `text` without leading and trailing horizontal white space (``isBlank(_:)``), as
    /// `trimmingCharacters(in: .whitespaces)` trims it.
    static func trimmingBlanks(_ text: Substring) -> Substring {
        let scalars = text.unicodeScalars
        var start = scalars.startIndex
        var end = scalars.endIndex
        while start < end, isBlank(scalars[start]) { start = scalars.index(after: start) }
        while end > start {
            let previous = scalars.index(before: end)
            guard isBlank(scalars[previous]) else { break }
            end = previous
        }
        return Substring(scalars[start..<end])
    }
}
