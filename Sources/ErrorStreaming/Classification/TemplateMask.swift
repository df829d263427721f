/// The template of a message: the message with the parts that vary between occurrences of one failure masked, so
/// that `row 12 changed on both sides` and `row 31 changed on both sides` read alike and group as one.
///
/// Masked, each as a placeholder that says what it was: quoted strings (`<str>`), UUIDs (`<uuid>`), IPv4 and IPv6
/// addresses with or without a port (`<ip>`), hexadecimal ids (`0x1f`, or 8 or more hex digits with at least one
/// digit and one letter: `<hex>`), paths and URLs (`/var/log/app.log`, `C:\logs`, `https://…`: `<path>`), e-mail
/// addresses (`<email>`) and numbers (`<num>`; a number glued to the end of a word, like `utf8` or `v2`, is part
/// of the word and stays). Runs of spaces become one; only the first line, and at most ``maximumBytes`` of it, is
/// read. Deterministic and stateless: the same message always gives the same template, in any process, so it can
/// key a store.
///
/// ```swift
/// TemplateMask.template(of: "row 12 changed on both sides")            // "row <num> changed on both sides"
/// TemplateMask.template(of: "dial tcp 10.0.0.9:6379: connection refused") // "dial tcp <ip>: connection refused"
/// ```
public enum TemplateMask {
    /// The most bytes of a message's first line read; the rest is ignored.
    public static let maximumBytes = 1024

    /// The message's template.
    public static func template(of message: String) -> String {
        var message = message
        return message.withUTF8 { buffer in
            var end = 0
            while end < buffer.count, end < maximumBytes, buffer[end] != 0x0A, buffer[end] != 0x0D { end += 1 }
            // Never end inside a UTF-8 sequence.
            while end < buffer.count, end > 0, buffer[end] & 0xC0 == 0x80 { end -= 1 }
            // Written into a buffer on the stack, sized for the longest template `end` bytes can make, rather than
            // grown in an array: every error's fingerprint is made here, where its bytes were most of the cost.
            let capacity = Output.capacity(forMessageBytes: end)
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { storage in
                var output = Output(storage)
                mask(UnsafeBufferPointer(rebasing: buffer[0..<end]), into: &output)
                return String(decoding: output.written, as: UTF8.self)
            }
        }
    }

    /// Where a template is written: a buffer the caller sized with ``capacity(forMessageBytes:)``.
    private struct Output {
        private let storage: UnsafeMutableBufferPointer<UInt8>
        private var count = 0

        init(_ storage: UnsafeMutableBufferPointer<UInt8>) { self.storage = storage }

        /// The most bytes the template of `count` bytes of message can take: each byte of the message is copied
        /// once, or is part of a token a placeholder stands for, and no placeholder (at most seven bytes, `<email>`)
        /// stands for fewer bytes than a fifth of its length (`<num>` for one digit).
        static func capacity(forMessageBytes count: Int) -> Int { 5 * count + 8 }

        var written: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: storage[0..<count]) }
        var last: UInt8? { count > 0 ? storage[count - 1] : nil }

        mutating func append(_ byte: UInt8) {
            // A bug in the bound above stops here rather than writing past the buffer.
            precondition(count < storage.count, "a template outgrew its bound")
            storage[count] = byte
            count += 1
        }

        mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
            guard !bytes.isEmpty else { return }
            precondition(count + bytes.count <= storage.count, "a template outgrew its bound")
            (storage.baseAddress! + count).initialize(from: bytes.baseAddress!, count: bytes.count)
            count += bytes.count
        }

        mutating func append(_ placeholder: StaticString) {
            append(contentsOf: UnsafeBufferPointer(start: placeholder.utf8Start, count: placeholder.utf8CodeUnitCount))
        }

        mutating func removeLast() { count -= 1 }
    }

    /// The template as errors and patterns are grouped by: ``template(of:)`` with every `<hex>` read as `<num>`, so
    /// a hex id that happens to hold only digits (`q-12345` beside `q-12f76`: one id in ten of five hex digits)
    /// groups with the others. What is shown keeps ``template(of:)``'s words.
    public static func groupingKey(of message: String) -> String { groupingKey(ofTemplate: template(of: message)) }

    /// ``groupingKey(of:)`` of a template already made.
    public static func groupingKey(ofTemplate template: String) -> String {
        // An ASCII template is read as bytes (a byte a character, so this is the search below): called for every line
        // the Patterns view mines, where Foundation's search cost more than masking the line.
        let fast: String?? = template.utf8.withContiguousStorageIfAvailable { bytes in
            var hexAt: [Int] = []
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte >= 0x80 { return nil }
                if byte == 0x3C, index + 4 < bytes.count, bytes[index + 1] == 0x68, bytes[index + 2] == 0x65,
                    bytes[index + 3] == 0x78, bytes[index + 4] == 0x3E
                {
                    hexAt.append(index)
                    index += 5
                    continue
                }
                index += 1
            }
            guard !hexAt.isEmpty else { return template }
            var key = Array(bytes)
            for start in hexAt { key.replaceSubrange((start + 1)..<(start + 4), with: [0x6E, 0x75, 0x6D]) }
            return String(decoding: key, as: UTF8.self)
        }
        if let fast, let key = fast { return key }
        return template.contains("<hex>") ? template.replacing("<hex>", with: "<num>") : template
    }

    private static func mask(_ bytes: UnsafeBufferPointer<UInt8>, into output: inout Output) {
        var index = 0
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            if byte == 0x20 || byte == 0x09 {
                if let last = output.last, last != 0x20 { output.append(0x20) }
                index += 1
                continue
            }
            var wordEnd = index
            while wordEnd < count, bytes[wordEnd] != 0x20, bytes[wordEnd] != 0x09 { wordEnd += 1 }
            index = maskWord(bytes, from: index, to: wordEnd, into: &output)
        }
        while output.last == 0x20 { output.removeLast() }
    }

    /// Masks the word `start..<end`; a quoted string may run past the word's end: returns where reading goes on.
    private static func maskWord(
        _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int, into output: inout Output
    ) -> Int {
        var index = start
        // Leading punctuation stays as written.
        while index < end, isOpening(bytes[index]) {
            output.append(bytes[index])
            index += 1
        }
        guard index < end else { return end }
        let first = bytes[index]
        if first == quote || first == apostrophe || first == backtick {
            // A quoted string: up to the same quote followed by the end of a word or punctuation.
            var close = index + 1
            while close < bytes.count {
                if bytes[close] == 0x5C {
                    close += 2
                    continue
                }
                if bytes[close] == first {
                    let after = close + 1
                    if after == bytes.count || bytes[after] == 0x20 || bytes[after] == 0x09 || isClosing(bytes[after]) {
                        break
                    }
                }
                close += 1
            }
            if close < bytes.count {
                output.append(placeholderString)
                var after = close + 1
                while after < bytes.count, bytes[after] != 0x20, bytes[after] != 0x09 {
                    output.append(bytes[after])
                    after += 1
                }
                return after
            }
        }
        // Trailing punctuation stays as written.
        var coreEnd = end
        while coreEnd > index, isClosing(bytes[coreEnd - 1]) { coreEnd -= 1 }
        // `key=value`: the key stays, the value is masked.
        var valueStart = index
        var scan = index
        while scan < coreEnd {
            if bytes[scan] == 0x3D {
                valueStart = scan + 1
                break
            }
            if !isWordByte(bytes[scan]) { break }
            scan += 1
        }
        if valueStart > index {
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<valueStart]))
            if valueStart < coreEnd, bytes[valueStart] == quote || bytes[valueStart] == apostrophe {
                return maskWord(bytes, from: valueStart, to: end, into: &output)
            }
        }
        let core = UnsafeBufferPointer(rebasing: bytes[valueStart..<coreEnd])
        if let placeholder = classify(core) {
            output.append(placeholder)
        } else {
            maskSegments(core, into: &output)
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[coreEnd..<end]))
        return end
    }

    /// The placeholder of a whole token, or `nil` when only its numbers are masked.
    private static func classify(_ token: UnsafeBufferPointer<UInt8>) -> StaticString? {
        let count = token.count
        guard count > 0 else { return nil }
        var hexDigits = 0
        var digits = 0
        var letters = 0
        var dots = 0
        var colons = 0
        var dashes = 0
        var slashes = 0
        var at = -1
        for (offset, byte) in token.enumerated() {
            switch byte {
            case 0x30...0x39:
                digits += 1
                hexDigits += 1
            case 0x41...0x46, 0x61...0x66:
                letters += 1
                hexDigits += 1
            case 0x2E: dots += 1
            case 0x3A: colons += 1
            case 0x2D: dashes += 1
            case 0x2F, 0x5C: slashes += 1
            case 0x40: if at < 0 { at = offset }
            default: letters += 1
            }
        }
        // E-mail: `name@host.tld`.
        if at > 0, at < count - 1, token[(at + 1)...].contains(0x2E) { return placeholderEmail }
        // Paths and URLs: `/a/b`, `./x`, `~/x`, `C:\x`, `scheme://…`.
        if slashes > 0 {
            let startsPath = token[0] == 0x2F || (token[0] == 0x2E && count > 1 && token[1] == 0x2F)
                || (token[0] == 0x7E && count > 1 && token[1] == 0x2F)
                || (count > 2 && isLetter(token[0]) && token[1] == 0x3A && token[2] == 0x5C)
            if startsPath && count > 1 { return placeholderPath }
            if let scheme = firstIndex(of: 0x3A, in: token), scheme > 0, scheme + 2 < count,
                token[scheme + 1] == 0x2F, token[scheme + 2] == 0x2F
            {
                return placeholderPath
            }
        }
        // UUID: 8-4-4-4-12 hex digits.
        if count == 36, dashes == 4, hexDigits == 32, token[8] == 0x2D, token[13] == 0x2D, token[18] == 0x2D,
            token[23] == 0x2D
        {
            return placeholderUUID
        }
        // IPv4, with an optional port.
        if dots == 3, digits + dots + colons == count, colons <= 1, isIPv4(token) { return placeholderIP }
        // IPv6: hex groups and at least two colons, with a hex letter or `::` (so `10:00:01` stays a time).
        if colons >= 2, hexDigits + colons + dots == count,
            letters > 0 || contains(0x3A, 0x3A, in: token)
        {
            return placeholderIP
        }
        // `[::1]:8080`-style addresses arrive with their bracket stripped as punctuation; hex ids.
        if count > 2, token[0] == 0x30, token[1] | 0x20 == 0x78, hexDigits == count - 1 { return placeholderHex }
        if count >= 8, hexDigits == count, digits > 0, letters > 0 { return placeholderHex }
        return nil
    }

    /// Copies `token` with its variable segments masked. The token is cut into segments at `-`, `:`, `/`, `#`,
    /// `@`, `+`, `|`, `;` and `=`, and at `.` and `,` unless a digit stands on both sides (`10.5`, `1,234` stay one
    /// number); each segment is then, in this order:
    ///
    /// - a hex id, `<hex>`: four or more hex digits with at least one digit and one letter (`12f76` in `q-12f76`,
    ///   the parts of a UUID written inside a longer word, a short commit hash);
    /// - a mixed id, `<id>`: five or more letters and digits, at least two of each, mixed both ways (a digit after a
    ///   letter and a letter after a digit: `x2k4p`, a pod name's suffix), so words like `sha256`, `utf16` or
    ///   `md5sum` and numbers with units (`300ms`) stay;
    /// - a short prefix and a long number, the number masked: one or two letters then three or more digits
    ///   (`u640` → `u<num>`), where `v2`, `utf8` or `x86` keep their digits;
    /// - otherwise every number that does not continue a word (`12`, `-3.5`, the `42` of `sku-42`, the `12` of
    ///   `12ms`); `utf8`, `v2` and `sha256` keep their digits.
    private static func maskSegments(_ token: UnsafeBufferPointer<UInt8>, into output: inout Output) {
        let count = token.count
        var start = 0
        var index = 0
        while index <= count {
            if index == count || isSeparator(token, at: index) {
                if index > start { maskSegment(UnsafeBufferPointer(rebasing: token[start..<index]), into: &output) }
                if index < count { output.append(token[index]) }
                start = index + 1
            }
            index += 1
        }
    }

    /// Whether `token[index]` cuts the token into segments.
    private static func isSeparator(_ token: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        switch token[index] {
        case 0x2D, 0x3A, 0x2F, 0x23, 0x40, 0x2B, 0x7C, 0x3B, 0x3D: return true
        case 0x2E, 0x2C:
            // A decimal point or a thousands separator between digits stays inside the number.
            return !(index > 0 && index + 1 < token.count && isDigit(token[index - 1]) && isDigit(token[index + 1]))
        default: return false
        }
    }

    /// Masks one segment (see ``maskSegments(_:into:)``).
    private static func maskSegment(_ segment: UnsafeBufferPointer<UInt8>, into output: inout Output) {
        var digits = 0
        var hexLetters = 0
        var otherLetters = 0
        var letterAfterDigit = false
        var digitAfterLetter = false
        var leadingLetters = 0
        var other = false
        for byte in segment {
            if isDigit(byte) {
                if hexLetters + otherLetters > 0 { digitAfterLetter = true }
                digits += 1
            } else if isHexLetter(byte) {
                hexLetters += 1
                if digits > 0 { letterAfterDigit = true }
            } else if isLetter(byte) && byte < 0x80 {
                otherLetters += 1
                if digits > 0 { letterAfterDigit = true }
            } else if byte != 0x5F {
                other = true
            }
            if digits == 0, !isDigit(byte) { leadingLetters += 1 }
        }
        let letters = hexLetters + otherLetters
        if !other {
            if otherLetters == 0, digits > 0, hexLetters > 0, segment.count >= 4, !segment.contains(0x5F) {
                output.append(placeholderHex)
                return
            }
            if segment.count >= 5, digits >= 2, letters >= 2, letterAfterDigit, digitAfterLetter {
                output.append(placeholderID)
                return
            }
            if !letterAfterDigit, (1...2).contains(leadingLetters), leadingLetters == letters, digits >= 3,
                !segment.contains(0x5F)
            {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: segment[0..<leadingLetters]))
                output.append(placeholderNumber)
                return
            }
        }
        maskNumbers(segment, into: &output)
    }

    /// Copies `token` with every number that does not continue a word (`12`, `-3.5`, the `42` of `sku-42`, the
    /// `12` of `12ms`) replaced by `<num>`; `utf8`, `v2` and `sha256` keep their digits.
    private static func maskNumbers(_ token: UnsafeBufferPointer<UInt8>, into output: inout Output) {
        var index = 0
        let count = token.count
        while index < count {
            let byte = token[index]
            if isDigit(byte), index > 0, isLetter(token[index - 1]) || token[index - 1] == 0x5F {
                // Digits that continue a word (`sha256`, `utf16`, `x86_64`) stay, all of them.
                var end = index
                while end < count, isDigit(token[end]) {
                    output.append(token[end])
                    end += 1
                }
                index = end
            } else if isDigit(byte) {
                var end = index + 1
                while end < count, isDigit(token[end]) || (token[end] == 0x2E && end + 1 < count && isDigit(token[end + 1]))
                    || token[end] == 0x2C && end + 3 < count && isDigit(token[end + 1]) && isDigit(token[end + 3])
                {
                    end += 1
                }
                output.append(placeholderNumber)
                index = end
            } else {
                output.append(byte)
                index += 1
            }
        }
    }

    private static func isIPv4(_ token: UnsafeBufferPointer<UInt8>) -> Bool {
        var octets = 0
        var value = 0
        var length = 0
        for byte in token {
            if isDigit(byte) {
                value = value * 10 + Int(byte - 0x30)
                length += 1
                if length > 5 { return false }
            } else {
                guard length > 0 else { return false }
                if octets < 4 {
                    guard value <= 255 else { return false }
                    octets += 1
                }
                value = 0
                length = 0
            }
        }
        return length > 0 && (octets == 3 ? value <= 255 : octets == 4)
    }

    private static func firstIndex(of byte: UInt8, in token: UnsafeBufferPointer<UInt8>) -> Int? {
        token.firstIndex(of: byte)
    }

    private static func contains(_ a: UInt8, _ b: UInt8, in token: UnsafeBufferPointer<UInt8>) -> Bool {
        guard token.count > 1 else { return false }
        for index in 0..<(token.count - 1) where token[index] == a && token[index + 1] == b { return true }
        return false
    }

    @inline(__always) private static func isDigit(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 }
    @inline(__always) private static func isHexLetter(_ byte: UInt8) -> Bool { (byte | 0x20) &- 0x61 < 6 }
    @inline(__always) private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) &- 0x61 < 26 || byte >= 0x80 }
    @inline(__always) private static func isWordByte(_ byte: UInt8) -> Bool {
        isLetter(byte) || isDigit(byte) || byte == 0x5F || byte == 0x2E || byte == 0x2D
    }
    /// `(`, `[`, `{`, `<`: kept before a masked token.
    @inline(__always) private static func isOpening(_ byte: UInt8) -> Bool {
        byte == 0x28 || byte == 0x5B || byte == 0x7B || byte == 0x3C
    }
    /// `)`, `]`, `}`, `>`, `,`, `;`, `:`, `.`, `!`, `?`: kept after a masked token.
    @inline(__always) private static func isClosing(_ byte: UInt8) -> Bool {
        byte == 0x29 || byte == 0x5D || byte == 0x7D || byte == 0x3E || byte == 0x2C || byte == 0x3B || byte == 0x3A
            || byte == 0x2E || byte == 0x21 || byte == 0x3F
    }

    private static let quote: UInt8 = 0x22
    private static let apostrophe: UInt8 = 0x27
    private static let backtick: UInt8 = 0x60
    private static let placeholderString: StaticString = "<str>"
    private static let placeholderNumber: StaticString = "<num>"
    private static let placeholderHex: StaticString = "<hex>"
    private static let placeholderID: StaticString = "<id>"
    private static let placeholderUUID: StaticString = "<uuid>"
    private static let placeholderIP: StaticString = "<ip>"
    private static let placeholderPath: StaticString = "<path>"
    private static let placeholderEmail: StaticString = "<email>"
}
