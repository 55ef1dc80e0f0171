/// Whole files read into memory: a regular file, or a stream (a FIFO, a pipe such as
/// /dev/stdin, a character device) read to its end, never past a limit. Nothing here waits for
/// a writer that does not exist: a FIFO nobody has open for writing reads as empty, at once. A
/// reader that can tell from a file's first bytes what it is, and so how long it may be, reads
/// through `FileReader` instead.
public enum FileBytes {
    /// The bytes of the file at `path`. More than `limit` bytes is an error (`.tooLarge`),
    /// found before any byte is read for a regular file and after `limit + 1` for a stream.
    /// A folder (`.isFolder`), a socket or a block device (`.notRegularFile`) is refused.
    public static func read(_ path: String, limit: Int) throws(FileError) -> [UInt8] {
        try FileReader(path).readAll(limit: limit)
    }

    /// What kind of stream `path` names, in a few words ("a FIFO", "a pipe", "a character
    /// device"); nil for a regular file, a folder, or nothing at all.
    public static func streamKind(_ path: String) -> String? { FileCalls.streamKind(path) }

    /// True when `path` names a regular file (not a folder, a FIFO or a device).
    public static func isRegularFile(_ path: String) -> Bool { FileCalls.entry(at: path) == .file }

    /// True when `path` names a stream: a FIFO, a pipe such as /dev/stdin, a device.
    public static func isStream(_ path: String) -> Bool { FileCalls.entry(at: path) == .other }

    /// The size in bytes of the file at `path` (0 when it cannot be looked at).
    public static func size(of path: String) -> Int { FileCalls.size(path) ?? 0 }
}
