/// Appends text lines to a file through a buffer: the recorder's and journal's writer.
/// `flush()` hands the buffer to the kernel; `sync()` also waits for the disk.
public final class LineWriter {
    public private(set) var path: String
    private let fd: Int32
    private var buffer: [UInt8] = []

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

    public func flush() throws(FileError) {
        guard !buffer.isEmpty else { return }
        defer { buffer.removeAll(keepingCapacity: true) }
        do { try FileCalls.writeAll(fd, buffer) } catch { throw FileError(path: path, error) }
    }

    /// Writes `bytes` at once, past the buffer (which must be flushed first to keep order).
    public func write(_ bytes: [UInt8]) throws(FileError) {
        try flush()
        do { try FileCalls.writeAll(fd, bytes) } catch { throw FileError(path: path, error) }
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
