/// Reads a text file line by line in bounded memory: 1 MiB at a time, lines split on "\n",
/// a final newline optional. A line longer than `maxLineBytes` stops the read.
public enum LineReader {
    public struct LineTooLong: Error, Sendable {
        public var line: Int
        public var limit: Int
    }

    /// Calls `body` with each line's bytes (without the newline) and whether a newline ended
    /// it (only the last line can lack one). Throws `FileError` when the file cannot be read,
    /// `LineTooLong`, or whatever `body` throws.
    public static func forEachLine(in path: String, maxLineBytes: Int = 1 << 20,
                                   _ body: (UnsafeBufferPointer<UInt8>, _ terminated: Bool) throws -> Void) throws {
        let fd: Int32
        do { fd = try FileCalls.openForReading(path) } catch { throw FileError(path: path, error) }
        defer { FileCalls.closeQuietly(fd) }
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        var pending: [UInt8] = []
        var line = 0
        while true {
            let n: Int
            do { n = try FileCalls.read(fd, into: &chunk) } catch { throw FileError(path: path, error) }
            if n == 0 { break }
            try chunk.withUnsafeBufferPointer { buf in
                var start = 0
                for i in 0..<n where buf[i] == 0x0a {
                    line += 1
                    if pending.isEmpty {
                        if i - start > maxLineBytes { throw LineTooLong(line: line, limit: maxLineBytes) }
                        try body(UnsafeBufferPointer(rebasing: buf[start..<i]), true)
                    } else {
                        pending.append(contentsOf: buf[start..<i])
                        if pending.count > maxLineBytes { throw LineTooLong(line: line, limit: maxLineBytes) }
                        try pending.withUnsafeBufferPointer { try body($0, true) }
                        pending.removeAll(keepingCapacity: true)
                    }
                    start = i + 1
                }
                pending.append(contentsOf: buf[start..<n])
                if pending.count > maxLineBytes { throw LineTooLong(line: line + 1, limit: maxLineBytes) }
            }
        }
        if !pending.isEmpty { try pending.withUnsafeBufferPointer { try body($0, false) } }
    }
}
