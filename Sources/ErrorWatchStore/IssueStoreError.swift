/// Why the store cannot be used, in words for the header and the terminal.
public struct IssueStoreError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure.
    public enum Kind: Sendable, Hashable {
        /// The file is not an errorwatch store (corrupt, another program's, a newer schema): it can be moved aside.
        case unusableFile
        /// The folder or disk refuses (read-only, full, missing permissions): run without the store.
        case unavailable
        /// No issue with that id (`errorwatch issues show 42`).
        case notFound
    }

    /// What kind of failure.
    public var kind: Kind
    /// What happened.
    public var description: String

    /// An error.
    public init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}
