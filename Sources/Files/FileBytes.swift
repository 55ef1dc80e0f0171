/// Whole files read into memory, and their sizes.
public enum FileBytes {
    /// The bytes of the file at `path`, refused when longer than `limit`.
    public static func read(_ path: String, limit: Int) throws(FileError) -> [UInt8] {
        let fd: Int32
        do { fd = try FileCalls.openForReading(path) } catch { throw FileError(path: path, error) }
        defer { FileCalls.closeQuietly(fd) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n: Int
            do { n = try FileCalls.read(fd, into: &chunk) } catch { throw FileError(path: path, error) }
            if n == 0 { return out }
            out.append(contentsOf: chunk[..<n])
            if out.count > limit { throw FileError(path: path, message: "larger than \(limit) bytes") }
        }
    }

    /// The size in bytes of the file at `path` (0 when it cannot be read).
    public static func size(of path: String) -> Int { FileCalls.size(path) ?? 0 }
}
