import Foundation
import DequeModule
import OrderedCollections

/// The Logs slice of ``DashboardState``: the ring of recent lines, the lines that pass the filters, the scroll
/// position, the selection, the pause, and how the handler tree dealt with recent errors. Changed only by
/// ``reduce(_:)``, with the actions of ``Action``: what it needs of the filters comes with the action, so it sees
/// nothing of the other slices.
///
/// One timeline: the ring is kept in the order of the lines' own times (their producer's `time`, else when they
/// were read), whatever order they arrive in. A line that arrives late (another file's, an error that took
/// another path, an OTLP batch behind another) goes in its place; lines of the same time keep their arrival order.
/// The ring is the reorder window: a line older than every line it keeps, once it is full, is not kept, and is
/// counted in ``olderThanKept`` (the pane's title says so) rather than shown out of place.
public struct LogsState: Sendable, Equatable {
    /// Recent events and log lines, oldest first, at most ``capacity``.
    public private(set) var lines: Deque<DashboardEvent> = []
    /// The lines that pass the filters, oldest first, kept up to date as lines arrive and filters change, so
    /// drawing and scrolling a filtered view costs the rows shown, not the history. Empty while nothing filters.
    /// While ``isRefiltering``, it holds the matches among the lines examined so far: the newest part of the
    /// history, and every line that arrived since.
    public private(set) var filtered: Deque<DashboardEvent> = []
    /// How many of the oldest ``lines`` the filters in force have not examined yet: a filter change re-examines the
    /// history newest first, a bounded slice per reducer step (the first on ``Action/filterChanged(_:)``, the next
    /// on each ``Action/frameStarted(_:)``), so an expensive query over a long history never holds the keys up. 0
    /// when done.
    public private(set) var unexamined = 0
    /// How many lines the refilter in progress started with, for its progress.
    private(set) var refilterTotal = 0
    /// How many lines are kept; older ones are dropped.
    public let capacity: Int
    /// Rows hidden below the view: 0 follows the tail.
    public private(set) var scroll = 0
    /// The line selected with `e`/`E`, by sequence number.
    public private(set) var selectedSequence: UInt64?
    /// Whether the view is frozen; what arrives is still kept and counted.
    public private(set) var isPaused = false
    /// Events that arrived since the pause began (`PAUSED +N`).
    public private(set) var arrivedWhilePaused = 0
    /// How the handler tree dealt with recent errors, by sequence number, oldest report first: the last
    /// ``capacity`` reports, and up to as many older ones not trimmed yet. Trimming in bulk keeps a report O(1)
    /// amortised (`OrderedDictionary.removeFirst` is O(count): trimming one per report measured 8× slower than the
    /// dictionary and deque it replaces); ``handling(for:)`` sees only the last ``capacity``.
    private(set) var handlingReports: OrderedDictionary<UInt64, HandlingSummary> = [:]
    /// The number the next log line without one gets: log lines are numbered from 2⁶³ up, so they never collide
    /// with the stream's sequence numbers and can be selected and opened like errors.
    private(set) var nextLineNumber: UInt64 = 1 << 63
    /// Lines that arrived older than every line the full ring keeps, so had no place in it: counted, not shown.
    public private(set) var olderThanKept = 0

    /// An empty Logs pane keeping at most `capacity` lines.
    public init(capacity: Int = 2_000) { self.capacity = max(1, capacity) }

    /// How the handler tree dealt with the error of `sequence`, if it is among the last ``capacity`` reported.
    public func handling(for sequence: UInt64) -> HandlingSummary? {
        guard let index = handlingReports.index(forKey: sequence), index >= handlingReports.count - capacity else {
            return nil
        }
        return handlingReports.values[index]
    }

    /// The lines that pass `filter`, oldest first: ``filtered`` while it filters, else ``lines``.
    public func matching(_ filter: FilterState) -> Deque<DashboardEvent> { filter.isActive ? filtered : lines }

    /// What changes the Logs slice. The filters in force come with the actions that need them.
    enum Action: Sendable {
        /// Lines arrived, in the order of their own times.
        case received([DashboardEvent], filter: FilterState)
        /// How the handler tree dealt with the error of `sequence`.
        case handlingReported(sequence: UInt64, HandlingSummary)
        /// The filters now let other lines through: the history is examined again, its first slice at once.
        case filterChanged(FilterState)
        /// A frame is about to be drawn: the refilter in progress takes its next slice.
        case frameStarted(FilterState)
        /// A scroll key, in a view of `rows` rows over the lines that pass `filter`.
        case scrolled(ScrollMove, rows: Int, filter: FilterState)
        /// The filters changed: the view returns to the tail.
        case scrollReset
        /// Space or `p`: paused, or resumed at the tail.
        case pauseToggled
        /// `e` (`newer`) or `E`: the next or previous error line among those that pass `filter` is selected and
        /// scrolled into a view of `rows` rows.
        case errorStepped(newer: Bool, rows: Int, filter: FilterState)
        /// Esc: no line selected.
        case selectionCleared
    }

    /// Applies `action`; returns whether anything visible changed (a handling report is visible only in an open
    /// detail view, which the caller knows about), and for ``Action/errorStepped(newer:rows:filter:)`` whether an
    /// error line was there to select.
    mutating func reduce(_ action: Action) -> Bool {
        switch action {
        case .received(let events, let filter):
            // Events further back than the ring holds would be pushed out by later ones of this same batch (the
            // reducer hands batches over in time order): they are counted but not sanitised and stored.
            let skipped = max(0, events.count - capacity)
            if isPaused { arrivedWhilePaused += skipped }
            for event in events.dropFirst(skipped) { append(event, filter: filter) }
            return !events.isEmpty
        case .handlingReported(let sequence, var summary):
            summary.path = summary.path.prefix(32).map { Sanitizer.sanitize($0, limit: 60) }
            summary.outcome = Sanitizer.sanitize(summary.outcome, limit: 120)
            // A report for a sequence already trimmed from view arrives as a new one, at the end.
            if let index = handlingReports.index(forKey: sequence), index < handlingReports.count - capacity {
                handlingReports.remove(at: index)
            }
            handlingReports[sequence] = summary
            if handlingReports.count >= 2 * capacity {
                handlingReports.removeFirst(handlingReports.count - capacity)
            }
            return false
        case .filterChanged(let filter):
            refilter(filter)
        case .frameStarted(let filter):
            return continueRefilter(filter) > 0
        case .scrolled(let move, let rows, let filter):
            scroll(move, rows: rows, filter: filter)
        case .scrollReset:
            scroll = 0
        case .pauseToggled:
            if isPaused {
                isPaused = false
                arrivedWhilePaused = 0
                scroll = 0
            } else {
                isPaused = true
            }
        case .errorStepped(let newer, let rows, let filter):
            return stepError(newer: newer, rows: rows, filter: filter)
        case .selectionCleared:
            selectedSequence = nil
        }
        return true
    }

    /// The lines on screen in a view of `count` rows, oldest first: at most `count`, ending ``scroll`` matching lines
    /// before the newest.
    func visibleRows(_ filter: FilterState, count: Int) -> [DashboardEvent] {
        Array(visibleSlice(filter, count: count))
    }

    /// ``visibleRows(_:count:)`` as a slice of the kept lines, not a copy of them: the Logs pane draws it each frame.
    func visibleSlice(_ filter: FilterState, count: Int) -> Slice<Deque<DashboardEvent>> {
        // The matching lines are kept as they arrive: the view is a slice, whatever the history.
        let lines = matching(filter)
        guard count > 0 else { return lines[lines.endIndex...] }
        let skip = min(max(0, scroll), max(0, lines.count - count))
        let end = lines.count - skip
        return lines[max(0, end - count)..<end]
    }

    /// Adds an event to the ring in its place in time, keeping a scrolled or paused view where it is.
    private mutating func append(_ incoming: DashboardEvent, filter: FilterState) {
        var event = incoming
        if event.sequence == 0 {
            event.sequence = nextLineNumber
            nextLineNumber &+= 1
        }
        var position = Self.insertionIndex(of: event.timestamp, in: lines)
        if lines.count >= capacity, position == 0 {
            // Older than everything the full ring keeps: it would be dropped at once.
            olderThanKept += 1
            if isPaused { arrivedWhilePaused += 1 }
            return
        }
        event.message = Sanitizer.sanitize(event.message, limit: DashboardReducer.messageLimit)
        event.source = Sanitizer.sanitize(event.source, limit: 60)
        event.typeName = Sanitizer.sanitize(event.typeName, limit: 60)
        if let logMessage = event.logMessage {
            event.logMessage = Sanitizer.sanitize(logMessage, limit: DashboardReducer.messageLimit)
        }
        if let codeText = event.codeText { event.codeText = Sanitizer.sanitize(codeText, limit: 64) }
        if let user = event.userMessage {
            event.userMessage = Sanitizer.sanitize(user, limit: DashboardReducer.messageLimit)
        }
        // The fields only the detail view shows (qualified type, service, origin, stack trace, attributes) are made
        // safe when it draws them, not here for every line of a flood: the buffer writer escapes whatever reaches
        // it, and the detail view sanitises each value it lays out.
        if lines.count >= capacity {
            let dropped = lines.removeFirst()
            position -= 1
            if dropped.sequence == selectedSequence { selectedSequence = nil }
            if unexamined > 0 {
                // Not examined yet, so not in `filtered`: one line less for the refilter to do.
                unexamined -= 1
            } else if filtered.first?.sequence == dropped.sequence {
                filtered.removeFirst()
            }
        }
        let matches = filter.isActive && filter.matches(event)
        // Where it lands among the lines the view lists, and how many those were: a line landing below the rows
        // shown (scrolled up, or paused) moves the view's bottom by one, so what is shown stays put.
        var listed = lines.count
        var listedPosition = position
        if filter.isActive {
            listed = filtered.count
            listedPosition = position < unexamined ? 0 : Self.insertionIndex(of: event.timestamp, in: filtered)
        }
        let unexaminedPlace = position < unexamined
        lines.insert(event, at: position)
        if unexaminedPlace {
            // Among the lines the refilter has yet to examine: it will.
            unexamined += 1
        } else if matches {
            filtered.insert(event, at: listedPosition)
        }
        if isPaused { arrivedWhilePaused += 1 }
        let listedNow = !filter.isActive || (matches && !unexaminedPlace)
        if isPaused || scroll > 0, listedNow, listedPosition >= listed - scroll {
            scroll = min(scroll + 1, lines.count)
        }
    }

    /// Where a line of time `time` goes in `list` (oldest first): after every line not later than it, found from the
    /// end (arrivals are nearly always the newest) and by halving beyond.
    static func insertionIndex(of time: Date, in list: Deque<DashboardEvent>) -> Int {
        guard let last = list.last, last.timestamp > time else { return list.count }
        var low = 0
        var high = list.count - 1
        while low < high {
            let middle = (low + high) / 2
            if list[middle].timestamp > time { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// Starts rebuilding ``filtered`` after the filters changed, and takes its first slice: a history that fits in
    /// one slice (``refilterLinesPerStep`` lines, ``refilterWorkPerStep`` of matching) is done at once.
    private mutating func refilter(_ filter: FilterState) {
        filtered = []
        unexamined = filter.isActive ? lines.count : 0
        refilterTotal = unexamined
        continueRefilter(filter)
    }

    /// Examines the next slice of the history a refilter has not reached, newest first, and puts its matches in
    /// front of ``filtered``; returns how many lines it examined (0 when no refilter is in progress). A slice
    /// ends at ``refilterLinesPerStep`` lines or once its estimated cost reaches ``refilterWorkPerStep``
    /// (``refilterCost(of:_:)``), whichever comes first, so a step's work is bounded whatever the history, however
    /// long its lines and however expensive the query.
    @discardableResult
    private mutating func continueRefilter(_ filter: FilterState) -> Int {
        guard unexamined > 0 else { return 0 }
        var index = unexamined
        var work = 0
        let scanCost = filter.query.scanCost
        var matches: [DashboardEvent] = []
        while index > 0, unexamined - index < Self.refilterLinesPerStep, work < Self.refilterWorkPerStep {
            index -= 1
            let line = lines[index]
            work += Self.refilterCost(of: line, scanCost)
            if filter.matches(line) { matches.append(line) }
        }
        filtered.prepend(contentsOf: matches.reversed())
        let examined = unexamined - index
        unexamined = index
        if index == 0 { refilterTotal = 0 }
        return examined
    }

    /// Whether a refilter is still working through the history.
    public var isRefiltering: Bool { unexamined > 0 }

    /// How much of the history the refilter in progress has examined, from 0 to 1; `nil` when none is.
    public var refilterProgress: Double? {
        guard unexamined > 0, refilterTotal > 0 else { return nil }
        return Double(refilterTotal - min(unexamined, refilterTotal)) / Double(refilterTotal)
    }

    /// Most lines one refilter step examines.
    public static let refilterLinesPerStep = 4_096
    /// The estimated cost, in nanoseconds of a release build, after which a refilter step stops (after the line
    /// that reaches it): 30 ms, so a step and a frame fit well within the 100 ms a key may take. Measured: the
    /// query `/(a+)+$/` over 2,000 lines of 8,192 scalars took 196 ms a step with a budget of 256 KiB of message
    /// per step, 12.4 s in all; with this budget, steps of 4 such lines.
    public static let refilterWorkPerStep = 30_000_000

    /// The estimated cost of matching `line` at `scanCost` per scalar (``Query/scanCost``): its message and the
    /// short fields (about 64 scalars), and a fixed 200 for the line itself.
    static func refilterCost(of line: DashboardEvent, _ scanCost: Int) -> Int {
        200 + (line.message.utf8.count + 64) * scanCost
    }

    /// Scrolls by `move` in a view of `rows` rows over the lines that pass `filter`.
    private mutating func scroll(_ move: ScrollMove, rows: Int, filter: FilterState) {
        let maximum = max(0, matching(filter).count - rows)
        switch move {
        case .up: scroll += 1
        case .down: scroll -= 1
        case .pageUp: scroll += rows
        case .pageDown: scroll -= rows
        case .top: scroll = maximum
        case .bottom: scroll = 0
        }
        scroll = min(max(0, scroll), maximum)
    }

    /// `e` selects the next (newer) error line, `E` the previous (older) one; with nothing selected both select
    /// the newest. The view scrolls so the selection is visible. Returns whether there was an error line.
    private mutating func stepError(newer: Bool, rows: Int, filter: FilterState) -> Bool {
        let filtered = matching(filter)
        let errors = filtered.indices.filter { filtered[$0].kind == .error }
        guard let newest = errors.last else { return false }
        var target = newest
        if let selected = selectedSequence, let position = filtered.firstIndex(where: { $0.sequence == selected }) {
            if newer {
                target = errors.first { $0 > position } ?? position
            } else {
                target = errors.last { $0 < position } ?? position
            }
        }
        selectedSequence = filtered[target].sequence
        let bottom = filtered.count - scroll
        if target >= bottom || target < bottom - rows {
            scroll = min(max(0, filtered.count - target - rows / 2 - 1), max(0, filtered.count - rows))
        }
        return true
    }
}
