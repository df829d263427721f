/// A regular expression matched in time linear in the text: a Thompson NFA run as a Pike VM, never backtracking.
///
/// Swift's `Regex` backtracks, so `/(a+)+$/` over a line of `aaaa…b` takes time exponential in the line: one such
/// query froze the dashboard for minutes. A query's regex runs on every line of the history on the UI thread, so it
/// runs here instead: each text scalar is looked at once per live NFA state, at most ``program`` instructions, so a
/// line costs at most its length times the pattern's size, whatever the pattern.
///
/// The syntax is the usual one (and Swift's): literals and escapes, `.`, classes `[a-z]` `[^…]`, `\d \w \s` and
/// their negations, anchors `^ $ \A \z \Z \b \B`, groups `(…)` `(?:…)` `(?<name>…)`, alternation, and the
/// quantifiers `* + ? {n} {n,} {n,m}` with their lazy forms. What needs backtracking is refused when compiling
/// (backreferences, lookaround, atomic groups, possessive quantifiers). Matching ignores case. Text is matched as
/// Unicode scalars.
struct LinearRegex: Sendable {
    /// Why a pattern could not be compiled, in a few words.
    struct Unsupported: Error, CustomStringConvertible {
        var description: String
    }

    /// The most instructions a pattern may compile to (a counted repetition is copied out).
    static let maximumProgramSize = 20_000

    let program: [Instruction]

    /// Compiles `pattern`; throws ``Unsupported`` for what needs backtracking or would be too large.
    init(_ pattern: String) throws(Unsupported) {
        var parser = LinearRegexParser(Array(pattern.unicodeScalars))
        let node = try parser.parse()
        var compiler = LinearRegexCompiler()
        try compiler.emit(.group(node))
        compiler.program.append(.match)
        program = compiler.program
    }

    /// Whether the regex matches somewhere in `text`.
    func isFound(in text: String) -> Bool {
        var steps = 0
        return isFound(in: text, steps: &steps)
    }

    /// Whether the regex matches somewhere in `text`, counting in `steps` the thread steps taken: at most the
    /// text's scalars plus one, times the program's size.
    func isFound(in text: String, steps: inout Int) -> Bool {
        let scalars = Array(text.unicodeScalars)
        return firstMatch(in: scalars, from: 0, wantEnd: false, steps: &steps) != nil
    }

    /// The non-empty, non-overlapping matches in `text`, leftmost first, each as long as the pattern's priorities
    /// make it (greedy quantifiers take as much as they can, lazy ones as little).
    func ranges(in text: String) -> [Range<String.Index>] {
        let scalars = Array(text.unicodeScalars)
        var indices: [String.Index] = []
        indices.reserveCapacity(scalars.count + 1)
        var index = text.unicodeScalars.startIndex
        while index != text.unicodeScalars.endIndex {
            indices.append(index)
            index = text.unicodeScalars.index(after: index)
        }
        indices.append(text.unicodeScalars.endIndex)
        var found: [Range<String.Index>] = []
        var start = 0
        var steps = 0
        while start <= scalars.count, let match = firstMatch(in: scalars, from: start, wantEnd: true, steps: &steps) {
            if match.upperBound > match.lowerBound {
                found.append(indices[match.lowerBound]..<indices[match.upperBound])
                start = match.upperBound
            } else {
                start = match.upperBound + 1
            }
        }
        return found
    }

    // MARK: The machine

    private struct Thread {
        var pc: Int
        var start: Int
    }

    /// The leftmost match starting at or after `from`: its start and, when `wantEnd`, the end the priorities choose
    /// (otherwise the first end found).
    private func firstMatch(in text: [Unicode.Scalar], from: Int, wantEnd: Bool, steps: inout Int) -> Range<Int>? {
        var current = ThreadList(capacity: program.count)
        var next = ThreadList(capacity: program.count)
        var matched: Range<Int>?
        var position = from
        while true {
            // A new thread starts at each position until a match is found (the search is unanchored).
            if matched == nil { addThread(&current, Thread(pc: 0, start: position), at: position, in: text) }
            // No thread left: after a match, it is final; before one, the search goes on at the next position.
            if current.isEmpty, matched != nil { break }
            let scalar = position < text.count ? text[position] : nil
            let folded = scalar.map(CaseFold.fold)
            steps += current.threads.count
            for thread in current.threads {
                switch program[thread.pc] {
                case .match:
                    matched = thread.start..<position
                    if !wantEnd { return matched }
                    // Lower-priority threads are dropped: the leftmost-first match is this one or a longer one of
                    // a higher-priority thread already in `next`.
                    break
                case .scalar(let expected):
                    if let folded, folded == expected {
                        addThread(&next, Thread(pc: thread.pc + 1, start: thread.start), at: position + 1, in: text)
                    }
                    continue
                case .anyButNewline:
                    if let scalar, scalar != "\n" {
                        addThread(&next, Thread(pc: thread.pc + 1, start: thread.start), at: position + 1, in: text)
                    }
                    continue
                case .set(let set):
                    if let scalar, set.contains(scalar) {
                        addThread(&next, Thread(pc: thread.pc + 1, start: thread.start), at: position + 1, in: text)
                    }
                    continue
                case .split, .jump, .assert:
                    continue  // followed when added
                }
                break  // a match cuts the threads after it
            }
            guard position < text.count else { break }
            position += 1
            swap(&current, &next)
            next.clear()
        }
        return matched
    }

    /// Adds `thread` and every thread its jumps, splits and assertions lead to, in priority order.
    private func addThread(_ list: inout ThreadList, _ thread: Thread, at position: Int, in text: [Unicode.Scalar]) {
        var stack = [thread]
        while let thread = stack.popLast() {
            guard list.mark(thread.pc) else { continue }
            switch program[thread.pc] {
            case .jump(let target):
                stack.append(Thread(pc: target, start: thread.start))
            case .split(let first, let second):
                // The second is pushed first so the first is explored (and listed) first.
                stack.append(Thread(pc: second, start: thread.start))
                stack.append(Thread(pc: first, start: thread.start))
            case .assert(let assertion):
                if assertion.holds(at: position, in: text) { stack.append(Thread(pc: thread.pc + 1, start: thread.start)) }
            case .match, .scalar, .anyButNewline, .set:
                list.threads.append(thread)
            }
        }
    }
}

extension LinearRegex {
    /// One instruction of the compiled program.
    enum Instruction: Sendable, Equatable {
        /// A scalar, case-folded.
        case scalar(Unicode.Scalar)
        /// Any scalar but a newline.
        case anyButNewline
        /// A class.
        case set(ScalarSet)
        /// Continue at both, the first with priority.
        case split(Int, Int)
        /// Continue at the target.
        case jump(Int)
        /// Continue only where the assertion holds.
        case assert(Assertion)
        /// The pattern matched.
        case match
    }

    /// A zero-width test.
    enum Assertion: Sendable, Equatable {
        case startOfText, endOfText, endOfTextOrFinalNewline, wordBoundary, notWordBoundary

        func holds(at position: Int, in text: [Unicode.Scalar]) -> Bool {
            switch self {
            case .startOfText: return position == 0
            case .endOfText: return position == text.count
            case .endOfTextOrFinalNewline:
                return position == text.count || (position == text.count - 1 && text[position] == "\n")
            case .wordBoundary, .notWordBoundary:
                let before = position > 0 && ScalarSet.isWord(text[position - 1])
                let after = position < text.count && ScalarSet.isWord(text[position])
                return (before != after) == (self == .wordBoundary)
            }
        }
    }

    /// The threads alive at one position, each program counter at most once (what keeps the machine linear).
    private struct ThreadList {
        var threads: [Thread] = []
        private var generation: [UInt32]
        private var current: UInt32 = 1

        init(capacity: Int) {
            generation = [UInt32](repeating: 0, count: capacity)
            threads.reserveCapacity(min(capacity, 64))
        }

        var isEmpty: Bool { threads.isEmpty }

        /// Marks `pc` as visited at this position; `false` when it already was.
        mutating func mark(_ pc: Int) -> Bool {
            if generation[pc] == current { return false }
            generation[pc] = current
            return true
        }

        mutating func clear() {
            threads.removeAll(keepingCapacity: true)
            current &+= 1
            if current == 0 {
                for index in generation.indices { generation[index] = 0 }
                current = 1
            }
        }
    }
}
