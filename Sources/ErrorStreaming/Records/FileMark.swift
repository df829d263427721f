/// Which file a path named when it was read: its device and inode, and a checksum of its first bytes, so that a
/// file rotated or truncated and written again (the same inode, other contents), or a new file that reuses a freed
/// inode, is a different file. A store keys what it counted of each file by it (idempotent reading).
public struct FileIdentity: Sendable, Hashable, Codable {
    /// `st_dev` and `st_ino`.
    public var device: UInt64
    public var inode: UInt64
    /// How many of the file's first bytes ``prefixChecksum`` covers: at most ``prefixLimit``, fewer for a shorter
    /// file (the same number is checked when the file is met again).
    public var prefixLength: Int
    /// CRC-32 of those bytes (zlib's).
    public var prefixChecksum: UInt32

    /// The most leading bytes checked.
    public static let prefixLimit = 4_096

    /// An identity from its parts.
    public init(device: UInt64, inode: UInt64, prefixLength: Int, prefixChecksum: UInt32) {
        self.device = device
        self.inode = inode
        self.prefixLength = prefixLength
        self.prefixChecksum = prefixChecksum
    }
}

/// How far a file has been read and counted.
///
/// A log file is counted in bytes: every line that ends at or before ``offset`` (bytes of its lines; a `.gz` file's
/// inflated bytes) is counted. A recording is counted in events, which a replay plays in time order rather than in
/// file order: every event before position ``offset`` is counted, and so are the positions in ``beyond`` (events a
/// replay stopped midway had already played out of file order; at most its reorder window).
public struct FileMark: Sendable, Hashable {
    /// What ``offset`` counts.
    public enum Unit: String, Sendable, Hashable, Codable {
        /// Bytes of lines: a log file read by ``FileTailer``-like readers.
        case bytes
        /// Events by their position in the file: a recording played back.
        case events
    }

    /// The file.
    public var identity: FileIdentity
    /// Its path when it was read (shown, never used to find it again).
    public var path: String
    /// Where its counted part ends, in ``unit``.
    public var offset: Int64
    /// What ``offset`` counts.
    public var unit: Unit
    /// Positions past ``offset`` counted too (recordings only), in increasing order.
    public var beyond: [Int64]

    /// A mark.
    public init(identity: FileIdentity, path: String, offset: Int64, unit: Unit = .bytes, beyond: [Int64] = []) {
        self.identity = identity
        self.path = path
        self.offset = offset
        self.unit = unit
        self.beyond = beyond
    }

    /// Whether the event at `position` (a recording's) is counted.
    public func counts(position: Int64) -> Bool {
        position < offset || beyond.contains(position)
    }
}
