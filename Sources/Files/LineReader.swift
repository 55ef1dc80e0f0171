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
        // Not zeroed: a short file touches only the pages it fills (zeroing 1 MiB was a
        // fifteenth of an empty `render`).
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { chunk.deallocate() }
        var pending: [UInt8] = []
        var line = 0
        while true {
            let n: Int
            do { n = try FileCalls.read(fd, into: chunk) } catch { throw FileError(path: path, error) }
            if n == 0 { break }
            try chunk.withMemoryRebound(to: UInt8.self) { b in
                let buf = UnsafeBufferPointer(b)
                var start = 0
                while let i = newline(in: buf, from: start, to: n) {
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

    /// The index of the first "\n" in `buf[from..<to]`, looked for eight bytes at a time.
    @inline(__always)
    static func newline(in buf: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Int? {
        guard let base = buf.baseAddress else { return nil }
        var i = from
        while i + 8 <= to {
            // A byte of `w` is zero where the newline is; the lowest one sets its high bit here.
            let w = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self) ^ 0x0a0a_0a0a_0a0a_0a0a
            let zero = (w &- 0x0101_0101_0101_0101) & ~w & 0x8080_8080_8080_8080
            if zero != 0 { return i + zero.trailingZeroBitCount / 8 }
            i += 8
        }
        while i < to {
            if base[i] == 0x0a { return i }
            i += 1
        }
        return nil
    }
}
