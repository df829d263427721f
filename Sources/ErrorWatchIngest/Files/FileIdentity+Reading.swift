import CZlib
import ErrorStreaming
import Foundation

extension FileIdentity {
    /// The identity of the file open on `descriptor` (whose `fstat` is `info`), and the mark among `marks` that was
    /// made of this very file (same device and inode, and the same first bytes as when it was marked), if any.
    static func reading(
        descriptor: Int32, info: stat, marks: [FileMark], unit: FileMark.Unit
    ) -> (identity: FileIdentity, mark: FileMark?) {
        let size = Int(info.st_size)
        for mark in marks where mark.unit == unit && mark.identity.prefixLength <= size {
            if checksum(descriptor, length: mark.identity.prefixLength) == mark.identity.prefixChecksum {
                return (mark.identity, mark)
            }
        }
        let prefix = min(size, prefixLimit)
        return (
            FileIdentity(
                device: UInt64(info.st_dev), inode: UInt64(info.st_ino), prefixLength: prefix,
                prefixChecksum: checksum(descriptor, length: prefix) ?? 0),
            nil
        )
    }

    /// zlib's CRC-32 of the first `length` bytes of the file, or `nil` when they cannot all be read.
    static func checksum(_ descriptor: Int32, length: Int) -> UInt32? {
        guard length > 0 else { return 0 }
        var bytes = [UInt8](repeating: 0, count: length)
        var done = 0
        while done < length {
            let count = bytes.withUnsafeMutableBytes {
                pread(descriptor, $0.baseAddress! + done, length - done, off_t(done))
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return nil }
            done += count
        }
        return bytes.withUnsafeBufferPointer { UInt32(truncatingIfNeeded: crc32(0, $0.baseAddress, UInt32(length))) }
    }
}

extension FileIdentity {
    /// The identity of the regular file at `path` now, and the mark of `unit` among `ledger`'s that was made of
    /// this very file; `nil` when it cannot be opened.
    public static func of(
        path: String, unit: FileMark.Unit, ledger: (_ device: UInt64, _ inode: UInt64) -> [FileMark]
    ) -> (identity: FileIdentity, mark: FileMark?)? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return reading(
            descriptor: descriptor, info: info, marks: ledger(UInt64(info.st_dev), UInt64(info.st_ino)), unit: unit)
    }
}
