/// Appends text lines to a file: the journal's and recording's writer. Every write is whole
/// or nothing: one that fails part-way (a full disk) is cut back, so the file always ends on a
/// whole line and a later write never glues onto half of an earlier one.
/// `flush()` hands the buffer to the kernel; `sync()` also waits for the disk.
public final class LineWriter {
    public private(set) var path: String
    private let fd: Int32
    private var buffer: [UInt8] = []
    /// Bytes in the file, all of them whole lines.
    public private(set) var length = 0

    /// Creates (or truncates) `path`.
    public init(creating path: String) throws(FileError) {
        self.path = path
        do { fd = try FileCalls.openForWriting(path) } catch { throw FileError(path: path, error) }
        buffer.reserveCapacity(1 << 16)
    }

    deinit { try? flush(); FileCalls.closeQuietly(fd) }

    /// Queues one line (a newline is added).
    public func append(_ line: String) {
        buffer.append(contentsOf: line.utf8)
        buffer.append(0x0a)
    }

    /// Writes the queued lines; on failure they stay queued and the file is as it was.
    public func flush() throws(FileError) {
        guard !buffer.isEmpty else { return }
        try writeWhole(buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes `bytes` (whole lines) at the end, after the queued lines (flushed first to keep
    /// order), or, when the write fails, nothing: the file is cut back to where it ended.
    public func write(_ bytes: [UInt8]) throws(FileError) {
        try flush()
        try writeWhole(bytes)
    }

    private func writeWhole(_ bytes: [UInt8]) throws(FileError) {
        do {
            try FileCalls.writeAll(fd, bytes)
        } catch {
            FileCalls.truncate(fd, to: length)
            throw FileError(path: path, error)
        }
        length += bytes.count
    }

    /// Cuts the file back to `newLength` bytes (≤ `length`), the end of a whole line: writes
    /// that reached the kernel but failed to sync are undone and written again.
    public func truncate(to newLength: Int) {
        FileCalls.truncate(fd, to: newLength)
        length = min(length, newLength)
    }

    /// Renames the file (it stays open): how a finished temporary file replaces the real one.
    /// The folder is synced after, so the new name outlives a power cut.
    public func rename(to newPath: String) throws(FileError) {
        do { try FileCalls.rename(path, to: newPath) } catch { throw FileError(path: newPath, error) }
        FileCalls.syncFolder(FilePath.folder(of: newPath))
        path = newPath
    }

    /// Marks the file as in use by this process (an advisory lock, released when the writer
    /// closes or the process dies, even by kill -9), so another process can tell a live file
    /// from one a crash left behind. Fails when another process holds it.
    public func lock() throws(FileError) {
        guard FileCalls.lockExclusive(fd) else { throw FileError(path: path, message: "in use by another process") }
    }

    /// True when a process holds the lock of the file at `path` (see `lock()`).
    public static func isLocked(_ path: String) -> Bool { FileCalls.isLocked(path) }

    public func sync() throws(FileError) {
        try flush()
        do { try FileCalls.sync(fd) } catch { throw FileError(path: path, error) }
    }
}
