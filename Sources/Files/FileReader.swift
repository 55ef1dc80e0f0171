/// A file read whole, in two steps: its first bytes, from which a reader tells what it is (a
/// PNG's signature and header, a zip's first entry) and so how many bytes the whole may have,
/// then the rest, never past that. A stream (a FIFO, a pipe such as /dev/stdin, a character
/// device such as /dev/zero) is read the same way, so one that is not what it should be is
/// refused after its first bytes, and one that is never reads beyond what it can need. Nothing
/// waits for a writer that does not exist: a FIFO nobody has open for writing reads as empty.
public final class FileReader {
    /// The path, as given.
    public let path: String
    /// The size of a regular file; nil for a stream, whose size is not known until it ends.
    public let regularFileSize: Int?
    /// True once a read found the end.
    public private(set) var atEnd = false
    private let fd: Int32
    /// What has been read so far is `buffer[..<count]`; the rest is room for the next read.
    private var buffer: [UInt8] = []
    private var count = 0

    /// Opens `path` for reading. A folder (`.isFolder`), a socket or a block device
    /// (`.notRegularFile`) is refused.
    public init(_ path: String) throws(FileError) {
        self.path = path
        do { fd = try FileCalls.openForReading(path) } catch { throw FileError(path: path, error) }
        regularFileSize = FileCalls.regularFileSize(fd)
    }

    deinit { FileCalls.closeQuietly(fd) }

    /// True for a FIFO, a pipe or a device.
    public var isStream: Bool { regularFileSize == nil }

    /// What has been read so far.
    public var bytes: [UInt8] { Array(buffer[..<count]) }

    /// Reads on until `wanted` bytes have been read in all, or the file ends; returns them.
    @discardableResult
    public func read(upTo wanted: Int) throws(FileError) -> [UInt8] {
        do throws(FileCalls.Failure) {
            while !atEnd && count < wanted { try readMore(upTo: wanted) }
        } catch { throw FileError(path: path, error) }
        return Array(buffer[..<min(count, wanted)])
    }

    /// Reads to the end and returns every byte. More than `limit` bytes in all is `.tooLarge`:
    /// found before reading for a regular file, and after `limit + 1` bytes for a stream.
    public func readAll(limit: Int) throws(FileError) -> [UInt8] {
        if let size = regularFileSize, size > limit { throw FileError(path: path, Self.tooLarge(limit)) }
        do throws(FileCalls.Failure) {
            // One byte to spare, so that the read which finds the end needs no more room (and a
            // file that grew is noticed).
            while !atEnd {
                if count > limit { throw Self.tooLarge(limit) }
                try readMore(upTo: limit + 1)
            }
        } catch { throw FileError(path: path, error) }
        if count > limit { throw FileError(path: path, Self.tooLarge(limit)) }
        var all = buffer
        buffer = []
        all.removeSubrange(count...)
        return all
    }

    /// One read(2), into room for at most `most` bytes in all: grown to the regular file's size
    /// (plus one, to find its end), or for a stream to twice what came so far (64 KiB first).
    private func readMore(upTo most: Int) throws(FileCalls.Failure) {
        if count == buffer.count {
            let wanted = regularFileSize.map { $0 + 1 } ?? max(1 << 16, 2 * count)
            let room = min(most, max(wanted, count + 1))
            // The bytes so far, and room after them left as it is (never written but by read(2),
            // so its pages cost nothing until they hold something).
            let old = buffer, kept = count
            buffer = [UInt8](unsafeUninitializedCapacity: room) { out, initialized in
                old.withUnsafeBufferPointer { from in
                    if let target = out.baseAddress, let source = from.baseAddress { target.update(from: source, count: kept) }
                }
                initialized = room
            }
        }
        let n = try FileCalls.read(fd, into: &buffer, from: count)
        if n == 0 { atEnd = true }
        count += n
    }

    static func tooLarge(_ limit: Int) -> FileCalls.Failure {
        let mib = 1 << 20
        let amount = limit >= mib && limit % mib == 0 ? "\(limit / mib) MiB" : "\(limit) byte\(limit == 1 ? "" : "s")"
        return FileCalls.Failure(message: "too large: more than \(amount)", kind: .tooLarge)
    }
}
