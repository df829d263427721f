import ArgumentParser
import ErrorWatchStore
import ErrorWatchUI
import Foundation

/// `errorwatch issues`: the store's issues for scripts and other tools, read and triaged while a dashboard runs.
struct IssuesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "issues",
        abstract: "List, show and triage the issues in the store (also while a dashboard runs).",
        discussion: """
            Exit codes: 0 done; 1 --fail-on matched an issue; 2 no store, no such issue, or the store cannot be \
            read. A running dashboard shows a triage change within a second.
            """,
        subcommands: [List.self, Show.self, Resolve.self, Ignore.self, Reopen.self],
        defaultSubcommand: List.self)

    /// Options every `issues` subcommand takes.
    struct Location: ParsableArguments {
        @Option(
            name: .customLong("store"),
            help: ArgumentHelp("The store file (default: the dashboard's).", valueName: "path"))
        var path: String?

        /// Opens the existing store, or exits 2 saying why.
        func open() throws -> IssueStore {
            let path = self.path ?? IssueStore.defaultPath()
            guard FileManager.default.fileExists(atPath: path) else {
                printError("errorwatch: no store at \(path) (a dashboard creates it; --store PATH for another)")
                throw ExitCode(2)
            }
            do {
                let store = try IssueStore.open(at: path)
                if let notice = store.openingNotice { printError("errorwatch: \(notice)") }
                return store
            } catch {
                printError("errorwatch: \(error)")
                throw ExitCode(2)
            }
        }
    }

    /// Which issues `list` prints (and `--fail-on` counts).
    enum StatusFilter: String, ExpressibleByArgument, CaseIterable {
        case unresolved, new, regressed, resolved, ignored, all

        func matches(_ record: IssueRecord, at now: Date) -> Bool {
            switch self {
            case .all: true
            case .unresolved: record.triage.status.isOpen
            case .new: record.triage.isNew(firstSeen: record.firstSeen, at: now)
            case .regressed: record.triage.status == .regressed
            case .resolved: record.triage.status == .resolved
            case .ignored: record.triage.status == .ignored
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List issues, most recently seen first.")

        @OptionGroup var location: Location

        @Option(help: "Which issues: unresolved (open, the default), new, regressed, resolved, ignored or all.")
        var status: StatusFilter = .unresolved

        @Option(help: ArgumentHelp("Only issues seen within this long, e.g. 1h, 1d.", valueName: "duration"))
        var since: String?

        @Flag(help: "Print a JSON array.")
        var json = false

        @Option(
            name: .customLong("fail-on"),
            help: ArgumentHelp("Exit 1 if any listed issue is new or regressed.", valueName: "new|regressed"))
        var failOn: [StatusFilter] = []

        func validate() throws {
            if let since, IssueTriageAction.parseDuration(since) == nil {
                throw ValidationError("--since \(since): expected a duration like 30m, 1h, 1d")
            }
            for status in failOn where status != .new && status != .regressed {
                throw ValidationError("--fail-on \(status.rawValue): expected new or regressed")
            }
        }

        func run() throws {
            let store = try location.open()
            let now = Date()
            let all: [StoredIssue]
            do { all = try store.issues(changedAfter: 0).issues } catch {
                printError("errorwatch: \(error)")
                throw ExitCode(2)
            }
            let cutoff = since.flatMap(IssueTriageAction.parseDuration).map { now.addingTimeInterval(-$0) }
            let listed = all.filter { issue in
                status.matches(issue.record, at: now) && cutoff.map { issue.record.lastSeen >= $0 } ?? true
            }
            if json {
                print(try IssueJSON.json(listed.map { IssueJSON($0, at: now) }))
            } else if listed.isEmpty {
                print("no \(status == .all ? "" : status.rawValue + " ")issues in \(IssueJSON.safe(store.path))")
            } else {
                print(IssueJSON.table(listed, at: now))
            }
            // The gate names what failed it, one issue a line on stderr, before exiting 1.
            let failing = listed.filter { issue in failOn.contains { $0.matches(issue.record, at: now) } }
            if !failing.isEmpty {
                for issue in failing { printError(IssueJSON.gateLine(issue, at: now)) }
                throw ExitCode(1)
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "Print one issue with its versions, history and latest occurrence.")

        @OptionGroup var location: Location
        @Argument(help: "The issue's id (the first column of `errorwatch issues`).") var id: Int64
        @Flag(help: "Print JSON.") var json = false

        func run() throws {
            let issue = try IssuesCommand.load(id, from: location.open())
            let now = Date()
            if json {
                print(try IssueJSON.json(IssueJSON(issue, at: now, full: true)))
            } else {
                print(IssueJSON.details(issue, at: now))
            }
        }
    }

    struct Resolve: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "resolve", abstract: "Mark an issue fixed; any further occurrence is a regression.")

        @OptionGroup var location: Location
        @Argument(help: "The issue's id.") var id: Int64
        @Flag(
            name: .customLong("in-next-release"),
            help: "Fixed in the next release: only an occurrence in a newer version than the newest seen regresses.")
        var inNextRelease = false

        func run() throws {
            try IssuesCommand.triage(id, inNextRelease ? .resolveInNextRelease : .resolve, store: location.open())
        }
    }

    struct Ignore: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "ignore", abstract: "Hide an issue: forever, for a time, or until more occurrences.")

        @OptionGroup var location: Location
        @Argument(help: "The issue's id.") var id: Int64
        @Option(name: .customLong("for"), help: ArgumentHelp("For this long, e.g. 1h, 1d.", valueName: "duration"))
        var duration: String?
        @Option(name: .customLong("until-count"), help: "Until this many more occurrences.")
        var untilCount: Int?

        func validate() throws {
            if duration != nil, untilCount != nil { throw ValidationError("--for and --until-count: choose one") }
            if let duration, IssueTriageAction.parseDuration(duration) == nil {
                throw ValidationError("--for \(duration): expected a duration like 30m, 1h, 1d")
            }
            if let untilCount, untilCount < 1 { throw ValidationError("--until-count must be at least 1") }
        }

        func run() throws {
            let condition: IssueTriageAction.IgnoreCondition =
                if let seconds = duration.flatMap(IssueTriageAction.parseDuration) {
                    .duration(seconds)
                } else if let untilCount {
                    .occurrences(untilCount)
                } else {
                    .forever
                }
            try IssuesCommand.triage(id, .ignore(condition), store: location.open())
        }
    }

    struct Reopen: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "reopen", abstract: "Open an issue again.")

        @OptionGroup var location: Location
        @Argument(help: "The issue's id.") var id: Int64

        func run() throws { try IssuesCommand.triage(id, .reopen, store: location.open()) }
    }

    static func load(_ id: Int64, from store: IssueStore) throws -> StoredIssue {
        do { return try store.issue(id: id) } catch {
            printError("errorwatch: \(error)")
            throw ExitCode(2)
        }
    }

    static func triage(_ id: Int64, _ action: IssueTriageAction, store: IssueStore) throws {
        do {
            let issue = try store.triage(id: id, action, at: Date(), actor: "errorwatch issues (pid \(getpid()))")
            var line = "issue \(id) (\(IssueJSON.safe(issue.record.typeName, limit: 60))): \(action.summary)"
            if action == .resolveInNextRelease {
                line +=
                    issue.record.triage.resolvedThrough.map { ", regresses only after \(IssueJSON.safe($0, limit: 60))" }
                    ?? ", no version seen yet: regresses on the first occurrence that has one"
            }
            print(line)
        } catch {
            printError("errorwatch: \(error)")
            throw ExitCode(2)
        }
    }
}
