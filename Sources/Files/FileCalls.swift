#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The POSIX file calls this module makes, each with its error turned into a message.
enum FileCalls {
    struct Failure: Error {
        var message: String
        var kind: FileError.Kind = .other
    }

    /// `what` and errno's text, with errno's kind.
    static func errorText(_ what: String) -> Failure {
        let code = errno
        return Failure(message: "\(what): \(String(cString: strerror(code)))", kind: kind(of: code))
    }

    static func kind(of code: Int32) -> FileError.Kind {
        switch code {
        case ENOENT, ENOTDIR: .notFound
        case EACCES, EPERM: .permissionDenied
        case ENOSPC, EDQUOT: .noSpace
        case EROFS: .readOnlyFileSystem
        case EISDIR: .isFolder
        case EFBIG: .tooLarge
        default: .other
        }
    }

    /// mkstemp in `folder`; mode 0600 until renamed, then widened to the usual 0644 less umask.
    static func makeTemporary(in folder: String, prefix: String) throws(Failure) -> (Int32, String) {
        var template = Array((folder + "/" + prefix + "XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw errorText("cannot create a file in \(folder)") }
        let mask = umask(0); umask(mask)
        fchmod(fd, 0o644 & ~mask)
        return (fd, String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) throws(Failure) {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + done, bytes.count - done) }
            if n < 0 {
                if errno == EINTR { continue }
                throw errorText("write failed")
            }
            done += n
        }
    }

    static func sync(_ fd: Int32) throws(Failure) { if fsync(fd) != 0 { throw errorText("fsync failed") } }
    static func close(_ fd: Int32) throws(Failure) { if Glibc.close(fd) != 0 { throw errorText("close failed") } }
    static func closeQuietly(_ fd: Int32) { _ = Glibc.close(fd) }
    static func rename(_ from: String, to: String) throws(Failure) {
        if Glibc.rename(from, to) != 0 { throw errorText("cannot rename into place") }
    }
    static func unlink(_ path: String) { _ = Glibc.unlink(path) }

    /// Syncs a folder, so that a name just renamed or linked into it survives a power cut.
    /// Best effort: the file's own bytes are already synced, and some file systems refuse
    /// fsync on a folder.
    static func syncFolder(_ folder: String) {
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        _ = Glibc.close(fd)
    }

    /// Hard-links `from` as `to`; false when `to` already exists.
    static func linkIfAbsent(_ from: String, to: String) throws(Failure) -> Bool {
        if Glibc.link(from, to) == 0 { return true }
        if errno == EEXIST { return false }
        throw errorText("cannot create the file")
    }

    static func openForWriting(_ path: String) throws(Failure) -> Int32 {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw errorText("cannot create") }
        return fd
    }

    /// Takes an exclusive advisory lock on `fd` without waiting; false when another open file
    /// holds one. The lock goes with the descriptor (and with the process, even on kill -9).
    static func lockExclusive(_ fd: Int32) -> Bool { flock(fd, LOCK_EX | LOCK_NB) == 0 }

    /// True when some process holds a lock on the file at `path` (false if it cannot be opened).
    static func isLocked(_ path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { closeQuietly(fd) }
        return flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK
    }

    static func openForReading(_ path: String) throws(Failure) -> Int32 {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw errorText("cannot open") }
        return fd
    }

    /// Reads up to `buffer.count` bytes; 0 at end of file.
    static func read(_ fd: Int32, into buffer: inout [UInt8]) throws(Failure) -> Int {
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n >= 0 { return n }
            if errno != EINTR { throw errorText("read failed") }
        }
    }
}

extension FileError {
    /// `failure`'s message and kind, for the file at `path`.
    init(path: String, _ failure: FileCalls.Failure) {
        self.init(path: path, message: failure.message, kind: failure.kind)
    }
}
