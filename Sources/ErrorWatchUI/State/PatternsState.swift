import ErrorStreaming
import Foundation

/// The Patterns slice of ``DashboardState``: the templates of every line the dashboard received (logs too), mined
/// Drain-style, and the Patterns view's selection. Changed only by ``reduce(_:)``, with the actions of ``Action``
/// (and ``add(message:level:service:source:at:sequence:now:)``, which mines one line).
///
/// Each line's message is first masked (``TemplateMask``: numbers, ids, addresses, quoted strings, paths; the same
/// masking the issues' fingerprints use), then split into words. Lines are grouped by their level, their number of
/// words and their first word: lines of different levels never share a template. Within a group a line joins the
/// template whose words it has (a `<*>` matching any). A line that differs from a template in a few words (at least
/// half of them the same) does not join it at once: the template notes the differing words, and only once a
/// position has shown ``variableAfter`` different words has it proved variable; it becomes `<*>`, and the templates
/// that differed only there are folded into it. Until then the line keeps its words in a template of its own, so
/// `checkout started for order <num>` and `checkout failed for order <num>` stay two (docs/formats.md, Patterns).
/// At most ``capacity`` templates are kept; a line that would start one more is counted in ``otherCount``, so
/// memory is bounded however many distinct lines arrive.
public struct PatternsState: Sendable, Equatable {
    /// How many templates are kept by default (`--patterns N` changes it).
    public static let defaultCapacity = 500
    /// The most words of a message a template keeps; longer messages are grouped by their first words.
    public static let maximumTokens = 64
    /// The share of words two lines must have in common to be candidates for one template.
    public static let similarityThreshold = 0.5
    /// How many different words a position must show before it is taken as variable (`<*>`).
    public static let variableAfter = 4
    /// How long a template counts as `new` after it first appeared.
    public static let newFor: TimeInterval = 60
    /// How many services and sources a template keeps, for queries.
    public static let namesKept = 8

    /// The templates, in order of first appearance; a template folded into another (``PatternRecord/mergedInto``)
    /// stays as a forwarding entry, so ids stay indices.
    public private(set) var patterns: [PatternRecord] = []
    /// How many templates are kept.
    public let capacity: Int
    /// Lines that would have started a template past ``capacity``: counted, not kept.
    public private(set) var otherCount = 0
    /// The selected template's id; `nil` selects the first row.
    public private(set) var selectedID: Int?
    /// First row shown.
    public private(set) var scroll = 0
    /// How many templates are live (not folded into another).
    public private(set) var liveCount = 0

    /// The live templates by count, most first (ties: the most recently seen first, then the first found), as
    /// indices into ``patterns``: the Patterns view's rows. Kept in order as lines are counted, not sorted per
    /// frame: a template's count and latest line only grow, so a counted template only moves up, past the few it
    /// now outranks (``moveUp(_:)``).
    private(set) var order: [Int] = []
    /// Each template's place in ``order``, by index into ``patterns``; -1 for a template folded into another.
    private var place: [Int] = []
    /// The templates of each group (level, word count and first word), by index into ``patterns``.
    private var groups: [String: [Int]] = [:]
    /// For each template, the different words seen at each position by lines that nearly matched it.
    private var variants: [Int: [Int: Set<String>]] = [:]

    /// No templates yet, keeping at most `capacity`.
    public init(capacity: Int = PatternsState.defaultCapacity) { self.capacity = max(1, capacity) }

    /// The live templates by count, most first (ties: the most recently seen first).
    public var byCount: [PatternRecord] { indicesByCount.map { patterns[$0] } }

    /// The live templates that pass `filter`, by count.
    public func visible(_ filter: FilterState) -> [PatternRecord] { visibleIndices(filter).map { patterns[$0] } }

    /// ``byCount`` as indices into ``patterns``.
    var indicesByCount: [Int] { order }

    /// ``visible(_:)`` as indices into ``patterns``: a view draws the records of the rows it shows only.
    func visibleIndices(_ filter: FilterState) -> [Int] {
        guard filter.isActive else { return order }
        return order.filter { filter.matches(patterns[$0]) }
    }

    /// Moves live template `index` up ``order`` to its place: its count or latest line grew, so it now precedes
    /// some of the templates above it. The place is found by bisection over the sorted rows above it (a storm's
    /// templates often share a count, and a counted one passes them all), then those rows shift down one.
    private mutating func moveUp(_ index: Int) {
        let from = place[index]
        guard from > 0 else { return }
        // Read through the buffers: subscripting the records would copy each one compared.
        let to = patterns.withUnsafeBufferPointer { records in
            order.withUnsafeBufferPointer { order in
                let (count, lastSeen) = (records[index].count, records[index].lastSeen)
                var (low, high) = (0, from)
                while low < high {
                    let middle = (low + high) / 2
                    let other = order[middle]
                    // More lines, then the later latest line, then the first found (ids are indices, unique).
                    if (count, lastSeen, other) > (records[other].count, records[other].lastSeen, index) {
                        high = middle
                    } else {
                        low = middle + 1
                    }
                }
                return low
            }
        }
        guard to < from else { return }
        var rows = order
        order = []
        rows.withUnsafeMutableBufferPointer { rows in
            place.withUnsafeMutableBufferPointer { place in
                var at = from
                while at > to {
                    rows[at] = rows[at - 1]
                    place[rows[at]] = at
                    at -= 1
                }
                rows[to] = index
                place[index] = to
            }
        }
        order = rows
    }

    /// Takes template `index`, folded into another, out of ``order``.
    private mutating func removeFromOrder(_ index: Int) {
        let at = place[index]
        guard at >= 0 else { return }
        order.remove(at: at)
        place[index] = -1
        for later in at..<order.count { place[order[later]] = later }
    }

    /// The template `id` became: itself, or the one it was folded into.
    public func resolved(_ id: Int) -> Int? {
        guard patterns.indices.contains(id) else { return nil }
        var current = id
        while let next = patterns[current].mergedInto { current = next }
        return current
    }

    /// Adds one line: its message, level, service, source, time and sequence number. Returns the id of its
    /// template, or `nil` when it was only counted (capacity reached).
    @discardableResult
    public mutating func add(
        message: String, level: ErrorSeverity, service: String? = nil, source: String? = nil, at time: Date,
        sequence: UInt64, now: Date
    ) -> Int? {
        let tokens = Self.tokens(of: message)
        let keys = tokens.map(Self.key)
        let first = keys.first.map { $0.hasPrefix("<") ? "<*>" : $0 } ?? ""
        let groupKey = "\(level.rawValue)\u{1F}\(tokens.count)\u{1F}" + first
        let members = groups[groupKey] ?? []
        var index: Int?
        var best: (index: Int, score: Double)?
        for member in members {
            let template = patterns[member].tokens
            if Self.matches(keys, template) {
                index = member
                break
            }
            let score = Self.similarity(keys, template)
            if score >= Self.similarityThreshold, score > (best?.score ?? -1) { best = (member, score) }
        }
        if index == nil, let best {
            index = learn(keys, near: best.index, group: groupKey)
        }
        if index == nil {
            guard liveCount < capacity else {
                otherCount += 1
                return nil
            }
            let started = patterns.count
            index = started
            patterns.append(PatternRecord(id: started, tokens: tokens, at: time, discovered: now))
            place.append(order.count)
            order.append(started)
            liveCount += 1
            groups[groupKey, default: []].append(started)
        }
        guard let index else { return nil }
        patterns[index].record(level: level, at: time, sequence: sequence)
        patterns[index].note(service: service, source: source, limit: Self.namesKept)
        moveUp(index)
        return index
    }

    /// A line whose words are `keys` nearly matched template `near`: its differing words are noted; when every
    /// position where they differ has shown ``variableAfter`` words, the template takes `<*>` there, folds in the
    /// templates of `group` it now covers, and the line joins it (its index is returned). Otherwise `nil`: the line
    /// keeps its words.
    private mutating func learn(_ keys: [String], near: Int, group: String) -> Int? {
        let template = patterns[near].tokens
        var proved = true
        var differing: [Int] = []
        for position in keys.indices where template[position] != "<*>" && Self.key(template[position]) != keys[position]
        {
            differing.append(position)
            var seen = variants[near, default: [:]][position] ?? [Self.key(template[position])]
            if seen.count < Self.variableAfter { seen.insert(keys[position]) }
            variants[near, default: [:]][position] = seen
            if seen.count < Self.variableAfter { proved = false }
        }
        guard proved, !differing.isEmpty else { return nil }
        for position in differing {
            patterns[near].tokens[position] = "<*>"
            variants[near]?[position] = nil
        }
        // Fold in the other templates of the group that the generalised one now covers.
        let generalised = patterns[near].tokens.map(Self.key)
        for other in groups[group] ?? [] where other != near {
            guard Self.matches(patterns[other].tokens.map(Self.key), generalised) else { continue }
            patterns[near].absorb(patterns[other], namesKept: Self.namesKept)
            patterns[other].mergedInto = near
            patterns[other].count = 0
            patterns[other].recent = []
            variants[other] = nil
            removeFromOrder(other)
            liveCount -= 1
            if selectedID == other { selectedID = near }
        }
        groups[group]?.removeAll { patterns[$0].mergedInto != nil }
        return near
    }

    /// The words of a message's template, at most ``maximumTokens``.
    static func tokens(of message: String) -> [String] {
        let template = TemplateMask.template(of: message)
        // An ASCII template splits at its space bytes, as splitting its characters at " " does, without grapheme
        // breaking: this runs for every line.
        let split: [String]? =
            template.utf8.withContiguousStorageIfAvailable { bytes -> [String]? in
                for byte in bytes where byte >= 0x80 { return nil }
                var words: [String] = []
                var start = 0
                for index in 0...bytes.count where index == bytes.count || bytes[index] == 0x20 {
                    if index > start {
                        guard words.count < maximumTokens else { break }
                        words.append(
                            String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
                    }
                    start = index + 1
                }
                return words
            } ?? nil
        return split ?? template.split(separator: " ").prefix(maximumTokens).map(String.init)
    }

    /// A word as templates are compared: its grouping form (a hex id and a number are both variable parts).
    static func key(_ token: String) -> String {
        // Only a token with a placeholder (`<hex>`) has another grouping form: most words skip the search.
        token.utf8.contains(0x3C) ? TemplateMask.groupingKey(ofTemplate: token) : token
    }

    /// Whether words `keys` are template `template`'s, a `<*>` matching any word.
    static func matches(_ keys: [String], _ template: [String]) -> Bool {
        guard keys.count == template.count else { return false }
        for (a, b) in zip(keys, template) where b != "<*>" && a != key(b) { return false }
        return true
    }

    /// The share of positions where `tokens` and `template` hold the same word (`<*>` matches any).
    static func similarity(_ tokens: [String], _ template: [String]) -> Double {
        guard !tokens.isEmpty, tokens.count == template.count else { return tokens.isEmpty ? 1 : 0 }
        var same = 0
        for (a, b) in zip(tokens, template) where a == key(b) || b == "<*>" { same += 1 }
        return Double(same) / Double(tokens.count)
    }

    /// What changes the Patterns slice.
    enum Action: Sendable {
        /// Lines arrived, in the order of their own times. Log lines get their sequence number as Logs stores them:
        /// from `firstLineNumber` up, in order; the oldest of a batch larger than Logs keeps (`keptFrom`) are
        /// counted without one, as Logs does not store them.
        case received([DashboardEvent], firstLineNumber: UInt64, keptFrom: Int, now: Date)
        /// A scroll key in the Patterns view, `page` rows a page, over the templates that pass `filter`.
        case selectionMoved(ScrollMove, page: Int, filter: FilterState)
    }

    /// Applies `action`; returns whether anything changed.
    mutating func reduce(_ action: Action) -> Bool {
        switch action {
        case .received(let events, let firstLineNumber, let capacity, let now):
            let skipped = max(0, events.count - capacity)
            var next = firstLineNumber
            // Each event's fields are read where it lies: binding the whole event (as `enumerated()` does) copies
            // every field of it, once per line at the rate a storm fills a frame.
            for index in events.indices {
                var sequence = events[index].sequence
                if sequence == 0, index >= skipped {
                    sequence = next
                    next &+= 1
                }
                add(
                    message: events[index].logMessage ?? events[index].message, level: events[index].level,
                    service: events[index].service, source: events[index].source, at: events[index].timestamp,
                    sequence: sequence, now: now)
            }
            return !events.isEmpty
        case .selectionMoved(let move, let page, let filter):
            // `j`/`k`, PgUp/PgDn, `g`/`G` move the selection through the templates by count.
            let rows = visible(filter)
            guard !rows.isEmpty else { return true }
            let current = selectedID.flatMap { id in rows.firstIndex { $0.id == id } } ?? 0
            let index = move.selection(from: current, page: page, count: rows.count, top: 0, bottom: rows.count - 1)
            selectedID = rows[index].id
            scroll = ScrollMove.firstRow(showing: index, from: scroll, page: page, count: rows.count)
            return true
        }
    }

    /// The selected template: the selected id's (or the one it was folded into), else the first by count.
    public var selected: PatternRecord? { selected(FilterState()) }

    /// The selected template among those that pass `filter`: the selected id's (or the one it was folded into),
    /// else the first by count.
    public func selected(_ filter: FilterState) -> PatternRecord? {
        if let selectedID, let id = resolved(selectedID), filter.matches(patterns[id]) { return patterns[id] }
        return visible(filter).first
    }
}

extension PatternRecord {
    fileprivate mutating func record(level: ErrorSeverity, at time: Date, sequence: UInt64) {
        count += 1
        levels[level.rawValue] += 1
        if time < firstSeen { firstSeen = time }
        if time > lastSeen { lastSeen = time }
        countLines(1, inSecond: Self.second(of: time))
        guard sequence != 0 else { return }
        recent.append(sequence)
        if recent.count > Self.recentLimit { recent.removeFirst(recent.count - Self.recentLimit) }
    }

    /// Keeps `service` and `source` among the names a query can find it by (at most `limit` of each).
    fileprivate mutating func note(service: String?, source: String?, limit: Int) {
        if let service, !service.isEmpty, services.count < limit, !services.contains(service) {
            services.append(service)
        }
        if let source, !source.isEmpty, sources.count < limit, !sources.contains(source) { sources.append(source) }
    }

    /// Takes in the lines of `other`, a template this one now covers.
    fileprivate mutating func absorb(_ other: PatternRecord, namesKept: Int) {
        count += other.count
        for index in levels.indices where index < other.levels.count { levels[index] += other.levels[index] }
        firstSeen = min(firstSeen, other.firstSeen)
        lastSeen = max(lastSeen, other.lastSeen)
        discovered = min(discovered, other.discovered)
        // The other's kept seconds, oldest first, so that each moves the window on as a line of it would have.
        for second in (other.latestSecond - Self.secondsKept + 1)...other.latestSecond {
            let lines = other.lines(inSecond: second)
            if lines > 0 { countLines(lines, inSecond: second) }
        }
        recent = Array((recent + other.recent).sorted().suffix(Self.recentLimit))
        for service in other.services { note(service: service, source: nil, limit: namesKept) }
        for source in other.sources { note(service: nil, source: source, limit: namesKept) }
    }
}
