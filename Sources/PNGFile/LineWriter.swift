/// Appends text lines to a file through a buffer: the recorder's and journal's writer.
/// `flush()` hands the buffer to the kernel; `sync()` also waits for the disk.
public final class LineWriter {
    public let path: String
    private let fd: Int32
    private var buffer: [UInt8] = []

    /// Creates (or truncates) `path`.
    public init(creating path: String) throws(FileError) {
        self.path = path
        do { fd = try FileCalls.openForWriting(path) } catch { throw FileError(path: path, message: error.message) }
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
        do { try FileCalls.writeAll(fd, buffer) } catch { throw FileError(path: path, message: error.message) }
    }

    public func sync() throws(FileError) {
        try flush()
        do { try FileCalls.sync(fd) } catch { throw FileError(path: path, message: error.message) }
    }
}
