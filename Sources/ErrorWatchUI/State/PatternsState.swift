import ErrorStreaming
import Foundation

/// The Patterns slice of ``DashboardState``: the templates of every line the dashboard received (logs too), mined
/// Drain-style, and the Patterns view's selection. Written only by reducers.
///
/// Each line's message is first masked (``TemplateMask``: numbers, ids, addresses, quoted strings, paths), then
/// split into words. Lines are grouped by their number of words and their first word; within a group a line joins
/// the template it shares the most words with, when at least half of them match, and the words that differ become
/// `<*>` (Drain's fixed-depth tree, He et al. 2017). Otherwise it starts a template of its own. At most
/// ``capacity`` templates are kept; a line that would start one more is counted in ``otherCount``, so memory is
/// bounded however many distinct lines arrive.
public struct PatternsState: Sendable, Equatable {
    /// How many templates are kept by default (`--patterns N` changes it).
    public static let defaultCapacity = 500
    /// The most words of a message a template keeps; longer messages are grouped by their first words.
    public static let maximumTokens = 64
    /// The share of words two lines must have in common to share a template.
    public static let similarityThreshold = 0.5
    /// How long a template counts as `new` after it first appeared.
    public static let newFor: TimeInterval = 60

    /// The templates, in order of first appearance.
    public internal(set) var patterns: [PatternRecord] = []
    /// How many templates are kept.
    public let capacity: Int
    /// Lines that would have started a template past ``capacity``: counted, not kept.
    public internal(set) var otherCount = 0
    /// The selected template's id; `nil` selects the first row.
    public internal(set) var selectedID: Int?
    /// First row shown.
    public internal(set) var scroll = 0

    /// The templates of each group (word count and first word), by index into ``patterns``.
    private var groups: [String: [Int]] = [:]

    /// No templates yet, keeping at most `capacity`.
    public init(capacity: Int = PatternsState.defaultCapacity) { self.capacity = max(1, capacity) }

    /// The templates by count, most first (ties: the most recently seen first).
    public var byCount: [PatternRecord] {
        patterns.sorted { ($0.count, $0.lastSeen, $1.id) > ($1.count, $1.lastSeen, $0.id) }
    }

    /// Adds one line: its message, level, time and sequence number. Returns the id of its template, or `nil` when
    /// it was only counted (capacity reached).
    @discardableResult
    public mutating func add(message: String, level: ErrorSeverity, at time: Date, sequence: UInt64, now: Date) -> Int?
    {
        let tokens = Self.tokens(of: message)
        let key = "\(tokens.count)\u{1F}" + (tokens.first.map { $0.hasPrefix("<") ? "<*>" : $0 } ?? "")
        var best: (index: Int, score: Double)?
        for index in groups[key] ?? [] {
            let score = Self.similarity(tokens, patterns[index].tokens)
            if score >= Self.similarityThreshold, score > (best?.score ?? -1) { best = (index, score) }
        }
        let index: Int
        if let best {
            index = best.index
            for position in tokens.indices where patterns[index].tokens[position] != tokens[position] {
                patterns[index].tokens[position] = "<*>"
            }
        } else {
            guard patterns.count < capacity else {
                otherCount += 1
                return nil
            }
            index = patterns.count
            patterns.append(
                PatternRecord(
                    id: index, tokens: tokens, count: 0, levels: Array(repeating: 0, count: ErrorSeverity.allCases.count),
                    firstSeen: time, lastSeen: time, discovered: now, seconds: [:], recent: []))
            groups[key, default: []].append(index)
        }
        patterns[index].record(level: level, at: time, sequence: sequence)
        return index
    }

    /// The words of a message's template, at most ``maximumTokens``.
    static func tokens(of message: String) -> [String] {
        TemplateMask.template(of: message).split(separator: " ").prefix(maximumTokens).map(String.init)
    }

    /// The share of positions where `tokens` and `template` hold the same word (`<*>` matches any).
    static func similarity(_ tokens: [String], _ template: [String]) -> Double {
        guard !tokens.isEmpty, tokens.count == template.count else { return tokens.isEmpty ? 1 : 0 }
        var same = 0
        for (a, b) in zip(tokens, template) where a == b || b == "<*>" { same += 1 }
        return Double(same) / Double(tokens.count)
    }

    /// Adds the events of an arriving batch. Log lines get their sequence number as Logs stores them: from
    /// `firstLineNumber` up, in order; the oldest of a batch larger than Logs keeps (`keptFrom`) are counted without
    /// one, as Logs does not store them.
    mutating func reduce(_ action: DashboardAction, firstLineNumber: UInt64, keptFrom capacity: Int, now: Date) -> Bool
    {
        var next = firstLineNumber
        func take(_ event: DashboardEvent, stored: Bool) {
            var sequence = event.sequence
            if sequence == 0, stored {
                sequence = next
                next &+= 1
            }
            let message = event.logMessage ?? event.message
            add(message: message, level: event.level, at: event.timestamp, sequence: sequence, now: now)
        }
        switch action {
        case .eventReceived(let event):
            take(event, stored: true)
            return true
        case .eventsReceived(let events):
            let skipped = max(0, events.count - capacity)
            for (index, event) in events.enumerated() { take(event, stored: index >= skipped) }
            return !events.isEmpty
        default:
            return false
        }
    }

    /// The selected template: the selected id's, else the first by count.
    public var selected: PatternRecord? {
        if let selectedID, patterns.indices.contains(selectedID) { return patterns[selectedID] }
        return byCount.first
    }
}

extension PatternRecord {
    fileprivate mutating func record(level: ErrorSeverity, at time: Date, sequence: UInt64) {
        count += 1
        levels[level.rawValue] += 1
        if time < firstSeen { firstSeen = time }
        if time > lastSeen { lastSeen = time }
        let second = Int(time.timeIntervalSince1970.rounded(.down))
        seconds[second, default: 0] += 1
        if seconds.count > 120 { seconds = seconds.filter { $0.key > second - 60 } }
        guard sequence != 0 else { return }
        recent.append(sequence)
        if recent.count > Self.recentLimit { recent.removeFirst(recent.count - Self.recentLimit) }
    }
}
