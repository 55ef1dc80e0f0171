/// A file that failed to be written or read: which and why, ready for one line on stderr.
public struct FileError: Error, CustomStringConvertible, Sendable {
    public var path: String
    public var message: String
    public init(path: String, message: String) { self.path = path; self.message = message }
    public var description: String { "\(path): \(message)" }
}

/// Writes whole files so that readers see the old content or the new, never a mix: the bytes go
/// to a temporary file in the same folder, are synced, and the temporary is renamed into place.
public enum AtomicFile {
    public static func write(_ bytes: [UInt8], to path: String) throws(FileError) {
        let folder = FileCalls.folder(of: path)
        let name = FileCalls.baseName(of: path)
        let (fd, temp): (Int32, String)
        do { (fd, temp) = try FileCalls.makeTemporary(in: folder, prefix: ".\(name).") } catch {
            throw FileError(path: path, message: error.message)
        }
        do {
            try FileCalls.writeAll(fd, bytes)
            try FileCalls.sync(fd)
            try FileCalls.close(fd)
            try FileCalls.rename(temp, to: path)
        } catch {
            FileCalls.closeQuietly(fd)
            FileCalls.unlink(temp)
            throw FileError(path: path, message: error.message)
        }
    }
}
