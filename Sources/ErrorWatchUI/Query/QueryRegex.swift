import Synchronization

/// A `/regex/` term's pattern, compiled once, case-insensitive, shareable between threads.
///
/// Swift's `Regex` is not `Sendable` (swiftlang/swift-experimental-string-processing#792): the conformance was
/// backed out in #474, although its lazily lowered program is published atomically and matching is thread-safe.
/// Rather than assert that with `@unchecked Sendable`, the regex sits in a `Mutex`, so the compiler checks that
/// ``Query`` is `Sendable`. The lock is uncontended (one UI thread evaluates queries) and costs tens of nanoseconds
/// against the microseconds a regex match takes.
final class QueryRegex: Sendable {
    private let regex: Mutex<Regex<AnyRegexOutput>>

    /// Compiles `pattern` (with `\/` already turned into `/`) case-insensitively; throws Swift's error for a pattern
    /// it cannot parse.
    init(_ pattern: String) throws {
        let regex = try Regex(pattern).ignoresCase()
        // A Regex lowers its program on first use; do it now, once, rather than on the first line of a frame.
        _ = "".contains(regex)
        self.regex = Mutex(regex)
    }

    /// Whether `body`, given the compiled regex, finds it somewhere; `body` runs while the regex is held.
    func isFound(by body: (Regex<AnyRegexOutput>) -> Bool) -> Bool {
        regex.withLock { body($0) }
    }

    /// The non-empty ranges of `text` the regex matches, in order.
    func ranges(in text: String) -> [Range<String.Index>] {
        regex.withLock { text.ranges(of: $0) }.filter { !$0.isEmpty }
    }
}
