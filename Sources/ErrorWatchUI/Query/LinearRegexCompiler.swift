/// Turns a ``LinearRegexNode`` into ``LinearRegex``'s program (Thompson's construction, with priorities for
/// greedy and lazy quantifiers), refusing a program over ``LinearRegex/maximumProgramSize``.
struct LinearRegexCompiler {
    var program: [LinearRegex.Instruction] = []

    mutating func emit(_ node: LinearRegexNode) throws(LinearRegex.Unsupported) {
        guard program.count <= LinearRegex.maximumProgramSize else {
            throw LinearRegex.Unsupported(description: "the pattern is too large")
        }
        switch node {
        case .empty:
            break
        case .scalar(let scalar):
            program.append(.scalar(CaseFold.fold(scalar)))
        case .anyButNewline:
            program.append(.anyButNewline)
        case .set(let set):
            program.append(.set(set))
        case .assertion(let assertion):
            program.append(.assert(assertion))
        case .concatenation(let items):
            for item in items { try emit(item) }
        case .group(let inner):
            try emit(inner)
        case .alternation(let branches):
            // split L1, next; L1: branch; jump end; next: split … ; last branch; end:
            var jumps: [Int] = []
            for (offset, branch) in branches.enumerated() {
                if offset < branches.count - 1 {
                    let split = program.count
                    program.append(.split(split + 1, -1))
                    try emit(branch)
                    jumps.append(program.count)
                    program.append(.jump(-1))
                    program[split] = .split(split + 1, program.count)
                } else {
                    try emit(branch)
                }
            }
            for jump in jumps { program[jump] = .jump(program.count) }
        case .repetition(let inner, let minimum, let maximum, let lazy):
            for _ in 0..<minimum { try emit(inner) }
            if let maximum {
                // Each optional copy: split (take it, or skip to the end).
                var splits: [Int] = []
                for _ in minimum..<max(minimum, maximum) {
                    splits.append(program.count)
                    program.append(.split(-1, -1))
                    try emit(inner)
                }
                let end = program.count
                for split in splits { program[split] = ordered(split + 1, end, lazy: lazy) }
            } else {
                // loop: split body, end; body; jump loop; end:
                let loop = program.count
                program.append(.split(-1, -1))
                try emit(inner)
                program.append(.jump(loop))
                program[loop] = ordered(loop + 1, program.count, lazy: lazy)
            }
            guard program.count <= LinearRegex.maximumProgramSize else {
                throw LinearRegex.Unsupported(description: "the pattern is too large")
            }
        }
    }

    /// A split preferring `take` (greedy) or `skip` (lazy).
    private func ordered(_ take: Int, _ skip: Int, lazy: Bool) -> LinearRegex.Instruction {
        lazy ? .split(skip, take) : .split(take, skip)
    }
}
