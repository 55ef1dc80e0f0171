/// Whole files read into memory: a regular file, or a stream (a FIFO, a pipe such as
/// /dev/stdin, a character device) read to its end. Nothing here waits for a writer that does
/// not exist: a FIFO nobody has open for writing reads as empty, at once.
public enum FileBytes {
    /// The bytes of the file at `path`. More than `limit` bytes is an error (`.tooLarge`),
    /// found before any byte is read for a regular file and after `limit + 1` for a stream.
    /// A folder (`.isFolder`), a socket or a block device (`.notRegularFile`) is refused.
    public static func read(_ path: String, limit: Int) throws(FileError) -> [UInt8] {
        let fd: Int32
        do { fd = try FileCalls.openForReading(path) } catch { throw FileError(path: path, error) }
        defer { FileCalls.closeQuietly(fd) }
        do { return try read(fd, limit: limit) } catch { throw FileError(path: path, error) }
    }

    /// True when `path` names a regular file (not a folder, a FIFO or a device).
    public static func isRegularFile(_ path: String) -> Bool { FileCalls.entry(at: path) == .file }

    /// True when `path` names a stream: a FIFO, a pipe such as /dev/stdin, a device.
    public static func isStream(_ path: String) -> Bool { FileCalls.entry(at: path) == .other }

    /// The size in bytes of the file at `path` (0 when it cannot be looked at).
    public static func size(of path: String) -> Int { FileCalls.size(path) ?? 0 }

    private static func read(_ fd: Int32, limit: Int) throws(FileCalls.Failure) -> [UInt8] {
        let size = FileCalls.regularFileSize(fd)
        if let size, size > limit { throw tooLarge(limit) }
        // One byte to spare, so that the read which finds the end needs no more room (and a
        // file that grew is noticed).
        var bytes = [UInt8](repeating: 0, count: min(size ?? 1 << 16, limit) + 1)
        var count = 0
        while true {
            if count == bytes.count {
                if count > limit { throw tooLarge(limit) }
                bytes += repeatElement(0, count: min(count, limit - count + 1))
            }
            let n = try FileCalls.read(fd, into: &bytes, from: count)
            if n == 0 { break }
            count += n
        }
        if count > limit { throw tooLarge(limit) }
        bytes.removeSubrange(count...)
        return bytes
    }

    private static func tooLarge(_ limit: Int) -> FileCalls.Failure {
        let mib = 1 << 20
        let amount = limit >= mib && limit % mib == 0 ? "\(limit / mib) MiB" : "\(limit) byte\(limit == 1 ? "" : "s")"
        return FileCalls.Failure(message: "too large: more than \(amount)", kind: .tooLarge)
    }
}
