import Foundation

/// What an error reporter SDK (a Sentry SDK) sent about one error beyond its type and message, as typed values: the
/// exception chain with each exception's stack frames (their source lines and local variables), tags, contexts,
/// user, request, and the SDK's own breadcrumbs.
///
/// Every value is the producer's own text, already bounded by the receiver that built it (see docs/sentry.md,
/// "Limits"); unknown stays `nil`. It travels on a remote error from the receiver to the detail view, never as
/// metadata strings.
///
/// ```swift
/// let frame = ExceptionReport.Frame(function: "charge", file: "shop/pay.py", line: 42, inApp: true,
///                                   contextLine: "    raise PaymentError(code)")
/// let report = ExceptionReport(exceptions: [.init(type: "PaymentError", value: "declined", frames: [frame])])
/// ```
public struct ExceptionReport: Sendable, Hashable {
    /// A name and the producer's value for it: a tag, a variable, a header, a context's field.
    public struct Field: Sendable, Hashable {
        /// The name as sent.
        public var name: String
        /// The value as sent, written as text (JSON for structured values).
        public var value: String

        /// A field.
        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// One stack frame, as the SDK describes it.
    public struct Frame: Sendable, Hashable {
        /// The function (`function`), if sent.
        public var function: String?
        /// The module or package (`module`, else `package`), if sent.
        public var module: String?
        /// The file (`filename`, else `abs_path`), if sent.
        public var file: String?
        /// The line, from 1, if sent.
        public var line: Int?
        /// The column, from 1, if sent.
        public var column: Int?
        /// Whether the SDK counts the frame as the app's own code (`in_app`); `nil` when it did not say.
        public var inApp: Bool?
        /// The source lines before the failing one (`pre_context`), oldest first.
        public var preContext: [String]
        /// The failing line itself (`context_line`), if sent.
        public var contextLine: String?
        /// The source lines after it (`post_context`).
        public var postContext: [String]
        /// The local variables (`vars`), in the order sent.
        public var variables: [Field]

        /// A frame.
        public init(
            function: String? = nil, module: String? = nil, file: String? = nil, line: Int? = nil,
            column: Int? = nil, inApp: Bool? = nil, preContext: [String] = [], contextLine: String? = nil,
            postContext: [String] = [], variables: [Field] = []
        ) {
            self.function = function
            self.module = module
            self.file = file
            self.line = line
            self.column = column
            self.inApp = inApp
            self.preContext = preContext
            self.contextLine = contextLine
            self.postContext = postContext
            self.variables = variables
        }
    }

    /// One exception of the chain.
    public struct Exception: Sendable, Hashable {
        /// The exception's type (`type`), if sent.
        public var type: String?
        /// Its message (`value`), if sent.
        public var value: String?
        /// The module the type lives in (`module`), if sent.
        public var module: String?
        /// How it was caught (`mechanism.type`: `excepthook`, `threading`, `logging`), if sent.
        public var mechanism: String?
        /// Whether the app handled it (`mechanism.handled`); `false` marks a crash, `nil` is unknown.
        public var handled: Bool?
        /// The stack frames, in the SDK's order: oldest call first, the failing frame last.
        public var frames: [Frame]
        /// Frames the SDK sent beyond what was kept.
        public var framesOmitted: Int

        /// An exception.
        public init(
            type: String? = nil, value: String? = nil, module: String? = nil, mechanism: String? = nil,
            handled: Bool? = nil, frames: [Frame] = [], framesOmitted: Int = 0
        ) {
            self.type = type
            self.value = value
            self.module = module
            self.mechanism = mechanism
            self.handled = handled
            self.frames = frames
            self.framesOmitted = framesOmitted
        }
    }

    /// One of the SDK's breadcrumbs: what the app did before the error.
    public struct Breadcrumb: Sendable, Hashable {
        /// When, if sent.
        public var timestamp: Date?
        /// `category` (`http`, `query`, the logger's name), if sent.
        public var category: String?
        /// `level`, as sent.
        public var level: String?
        /// `type` (`default`, `http`, `navigation`), if sent.
        public var type: String?
        /// `message`, if sent.
        public var message: String?
        /// `data`, in the order sent.
        public var data: [Field]

        /// A breadcrumb.
        public init(
            timestamp: Date? = nil, category: String? = nil, level: String? = nil, type: String? = nil,
            message: String? = nil, data: [Field] = []
        ) {
            self.timestamp = timestamp
            self.category = category
            self.level = level
            self.type = type
            self.message = message
            self.data = data
        }
    }

    /// A named group of fields: a context (`os`, `runtime`, `trace`), the user, the request.
    public struct Section: Sendable, Hashable {
        /// The section's name as sent.
        public var name: String
        /// Its fields, in the order sent; nested objects flattened to dotted names.
        public var fields: [Field]

        /// A section.
        public init(_ name: String, _ fields: [Field]) {
            self.name = name
            self.fields = fields
        }
    }

    /// The exception chain, outermost (the one raised last) first.
    public var exceptions: [Exception]
    /// `tags`, in the order sent.
    public var tags: [Field]
    /// `contexts`, in the order sent.
    public var contexts: [Section]
    /// `user`, if sent.
    public var user: [Field]
    /// `request` (method, url, query, headers without cookie or authorization values), if sent.
    public var request: [Field]
    /// The SDK's breadcrumbs, oldest first.
    public var breadcrumbs: [Breadcrumb]
    /// Everything else the event said about itself: level, logger, platform, release, environment, server name,
    /// the SDK's name and version, the event id.
    public var about: [Field]
    /// What the receiver left out to stay within its limits (`frames: kept 250 of 100000`), for the detail to say.
    public var cut: [String]

    /// A report.
    public init(
        exceptions: [Exception] = [], tags: [Field] = [], contexts: [Section] = [], user: [Field] = [],
        request: [Field] = [], breadcrumbs: [Breadcrumb] = [], about: [Field] = [], cut: [String] = []
    ) {
        self.exceptions = exceptions
        self.tags = tags
        self.contexts = contexts
        self.user = user
        self.request = request
        self.breadcrumbs = breadcrumbs
        self.about = about
        self.cut = cut
    }
}
