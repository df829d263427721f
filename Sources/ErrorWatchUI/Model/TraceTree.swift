import ErrorStreaming

/// The spans of a trace arranged as a tree for drawing: each root, then its children depth first, children in order
/// of their start. Never hangs and never drops a span: a span whose parent is not drawn (not received, over a
/// limit, or left out of the snapshot, each said as it is), or is itself, is a root with a note; spans that only
/// reach each other through a cycle of parents are drawn as roots of what they hold, noted, once each.
enum TraceTree {
    /// One row: a span, its depth, and why it is a root when it should not be; for drawing the guides, whether it
    /// is its parent's last child, and for each ancestor level below the root (at most ``guideLimit``), whether a
    /// later sibling of that ancestor is still to come.
    struct Row: Equatable {
        var span: TraceSpan
        var depth: Int
        var note: String?
        var last = true
        var guides: [Bool] = []
    }

    /// Ancestor levels whose guides are kept per row (so a chain of 100,000 spans costs no more per row).
    static let guideLimit = 12

    /// The trace's time: its earliest known start and how long until its latest known end.
    struct Extent: Equatable {
        var start: UInt64
        var nanos: UInt64
    }

    /// The earliest start and latest end among spans whose times are known; `nil` when none are.
    static func extent(of spans: [TraceSpan]) -> Extent? {
        var start = UInt64.max
        var end: UInt64 = 0
        for span in spans where span.durationNanos != nil {
            start = min(start, span.startUnixNano)
            end = max(end, span.endUnixNano)
        }
        guard end >= start, start != .max else { return nil }
        return Extent(start: start, nanos: end - start)
    }

    /// Spans shown at most as rows of one trace (a snapshot holds at most the store's limit).
    static let shownLimit = 400

    /// The rows of `snapshot` as the trace's waterfall shows them and `j`/`k` select them: its first ``shownLimit``
    /// spans. Spans past them were received too: a parent among them is "not shown", never "not received".
    static func rows(of snapshot: TraceSnapshot) -> [Row] {
        var unshown = snapshot.unshownParents
        for span in snapshot.spans.dropFirst(shownLimit) { unshown.insert(span.spanID) }
        return rows(of: Array(snapshot.spans.prefix(shownLimit)), unshown: unshown, dropped: snapshot.droppedSpans > 0)
    }

    /// Every span of `spans` once, as rows of the tree. A span whose parent is not among `spans` is a root noted
    /// with why: its parent is in `unshown` (received, only not drawn), or spans of the trace were `dropped` over the
    /// per-trace limit (its parent may be one of them), or it was not received.
    static func rows(of spans: [TraceSpan], unshown: Set<UInt64> = [], dropped: Bool = false) -> [Row] {
        var positions: [UInt64: Int] = [:]
        for (position, span) in spans.enumerated() where positions[span.spanID] == nil {
            positions[span.spanID] = position
        }
        var children: [Int: [Int]] = [:]
        var roots: [(Int, String?)] = []
        for (position, span) in spans.enumerated() {
            guard let parent = span.parentSpanID else {
                roots.append((position, nil))
                continue
            }
            if parent == span.spanID {
                roots.append((position, "its parent is itself"))
            } else if let parentPosition = positions[parent] {
                children[parentPosition, default: []].append(position)
            } else if unshown.contains(parent) {
                roots.append((position, "parent \(TraceSpan.hex(parent)) received, not shown"))
            } else if dropped {
                let hex = TraceSpan.hex(parent)
                roots.append((position, "parent \(hex) not kept (over the per-trace limit) or not received"))
            } else {
                roots.append((position, "parent \(TraceSpan.hex(parent)) not received"))
            }
        }
        let byStart: (Int, Int) -> Bool = { a, b in
            (spans[a].startUnixNano, a) < (spans[b].startUnixNano, b)
        }
        for key in children.keys { children[key]!.sort(by: byStart) }
        roots.sort { byStart($0.0, $1.0) }
        var visited = [Bool](repeating: false, count: spans.count)
        var rows: [Row] = []
        rows.reserveCapacity(spans.count)
        // Depth first without recursion, so a chain of 100,000 spans costs no stack.
        func walk(from root: Int, note: String?) {
            var stack: [(position: Int, depth: Int, last: Bool, guides: [Bool])] = [(root, 0, true, [])]
            while let (position, depth, last, guides) = stack.popLast() {
                guard !visited[position] else { continue }
                visited[position] = true
                rows.append(
                    Row(span: spans[position], depth: depth, note: depth == 0 ? note : nil, last: last, guides: guides))
                let pending = (children[position] ?? []).filter { !visited[$0] }
                let childGuides = depth == 0 ? [] : Array((guides + [!last]).prefix(guideLimit))
                for (index, child) in pending.enumerated().reversed() {
                    stack.append((child, depth + 1, index == pending.count - 1, childGuides))
                }
            }
        }
        for (position, note) in roots { walk(from: position, note: note) }
        // What is left hangs off a cycle of parents: drawn from its earliest-starting span, once.
        for position in spans.indices.sorted(by: byStart) where !visited[position] {
            walk(from: position, note: "in a cycle of parents")
        }
        return rows
    }
}
