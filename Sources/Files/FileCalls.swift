// Why raw Glibc here and not apple/swift-system (`FileDescriptor`, `Errno`), measured with
// 1.8.1, the version this machine has: it wraps only half of these calls. open, close, read,
// write, lseek, ftruncate, fstat and stat, yes; fsync, rename, link, unlink, mkdir, flock and
// fcntl (F_GETFL/F_SETFL), no (nor fchmod, mkstemp, fdatasync or O_TMPFILE): adopting it would
// leave two error paths in this file, its `Errno` and errno, not one. Its calls throw
// untyped errors (only `stat` throws `Errno`), where this module throws typed. It costs, built
// fresh: 18 s more CPU in a debug build (25 s against 7 s for a probe package making the same
// calls) and 18 s in a release one, and 312 KB more in a stripped release probe (324 KB against
// 12 KB). And its `FilePath` makes `Files.FilePath` ambiguous as a type in any file that imports
// both. Worth another look when it wraps the rest.

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

    /// A new file in `folder` named `prefix` and six random letters or digits, open for writing,
    /// with mode 0644 less the umask: the kernel applies the umask (or the folder's default ACL)
    /// as for any file created. Not mkstemp, whose 0600 would have to be widened with fchmod,
    /// knowing the umask; and reading the umask means setting it (umask(0), then back), which is
    /// process-wide: a file another thread created meanwhile (the journal writes on its own) got
    /// 0666 (AtomicFileTests catch that).
    static func makeTemporary(in folder: String, prefix: String) throws(Failure) -> (Int32, String) {
        // As mkstemp: a name taken meanwhile is tried again, under another name.
        for _ in 0..<100 {
            let path = folder + "/" + randomName(prefix)
            let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if fd >= 0 { return (fd, path) }
            if errno != EEXIST { break }
        }
        throw errorText("cannot create a file in \(folder)")
    }

    /// `prefix` and six random letters or digits.
    static func randomName(_ prefix: String) -> String {
        let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
        var bits = UInt64.random(in: .min ... .max)
        let suffix = (0..<6).map { _ in
            defer { bits /= UInt64(letters.count) }
            return letters[Int(bits % UInt64(letters.count))]
        }
        return prefix + String(decoding: suffix, as: UTF8.self)
    }

    /// Linux's `O_TMPFILE` (`__O_TMPFILE | O_DIRECTORY`), which Glibc's Swift module leaves out
    /// (a macro built of macros). `__O_TMPFILE` is 020000000 on every architecture but alpha,
    /// parisc and sparc.
    private static let tmpFileFlag: Int32 = 0o20000000 | O_DIRECTORY

    /// A new file in `folder` with no name, open for writing (mode 0644 less the umask), or nil
    /// where the file system or kernel has none (the caller then names one). Until it is given a
    /// name (`nameUnnamed`) it is nowhere: a process killed while writing it leaves nothing.
    static func openUnnamed(in folder: String) -> Int32? {
        let fd = open(folder, tmpFileFlag | O_WRONLY | O_CLOEXEC, 0o644)
        return fd >= 0 ? fd : nil
    }

    /// Gives the unnamed file open on `fd` the name `path`: false when `path` exists (nothing
    /// changes), as `link` does. Through /proc's name of the descriptor (linkat's AT_EMPTY_PATH
    /// would need a capability).
    static func nameUnnamed(_ fd: Int32, _ path: String) throws(Failure) -> Bool {
        if linkat(AT_FDCWD, "/proc/self/fd/\(fd)", AT_FDCWD, path, AT_SYMLINK_FOLLOW) == 0 { return true }
        if errno == EEXIST { return false }
        throw errorText("cannot create the file")
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

    /// Cuts the file open on `fd` to `length` bytes and moves its offset there. Best effort: it
    /// undoes a write that failed part-way, and shrinking a file needs no space.
    static func truncate(_ fd: Int32, to length: Int) {
        _ = ftruncate(fd, off_t(length))
        _ = lseek(fd, off_t(length), SEEK_SET)
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
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { closeQuietly(fd) }
        return flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK
    }

    /// Opens a file for reading without waiting in open(), where a FIFO with no writer would
    /// block for good. A regular file is kept, and so is a stream (a FIFO, a pipe, a character
    /// device such as /dev/stdin): its reads then wait again, for a writer that exists, and a
    /// FIFO with no writer reads as empty at once. A folder, a socket or a block device is
    /// refused.
    static func openForReading(_ path: String) throws(Failure) -> Int32 {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            // Opening a socket fails with ENXIO, "No such device or address": say what it is.
            if errno == ENXIO, fileType(path) == S_IFSOCK { throw Failure(message: "not a regular file", kind: .notRegularFile) }
            throw errorText("cannot open")
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return try closing(fd, errorText("cannot open")) }
        switch info.st_mode & S_IFMT {
        case S_IFREG, S_IFIFO, S_IFCHR:
            let flags = fcntl(fd, F_GETFL)
            guard flags >= 0, fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == 0 else { return try closing(fd, errorText("cannot open")) }
            return fd
        case S_IFDIR:
            return try closing(fd, Failure(message: "is a folder, not a file", kind: .isFolder))
        default:
            return try closing(fd, Failure(message: "not a regular file", kind: .notRegularFile))
        }
    }

    enum Entry { case folder, file, other }

    /// Whether `path` is a folder, a regular file or something else (a FIFO, a device),
    /// following links; nil when there is nothing.
    static func entry(at path: String) -> Entry? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        switch st.st_mode & S_IFMT {
        case S_IFDIR: return .folder
        case S_IFREG: return .file
        default: return .other
        }
    }

    /// The names in a folder but "." and ".." (opendir, readdir); none where it cannot be opened.
    static func names(in path: String) -> [String] {
        guard let dir = opendir(path) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// What kind of stream `path` names, following links: "a FIFO or pipe", "a character
    /// device", "a block device", "a socket"; nil for a regular file, a folder or nothing.
    static func streamKind(_ path: String) -> String? {
        switch fileType(path) {
        case S_IFIFO: "a FIFO or pipe"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: nil
        }
    }

    static func makeFolder(_ path: String) throws(Failure) {
        if mkdir(path, 0o755) != 0 { throw errorText("cannot create the folder") }
    }

    /// The size of the file at `path`, or nil when it cannot be stat'ed.
    static func size(_ path: String) -> Int? {
        var st = stat()
        return stat(path, &st) == 0 ? Int(st.st_size) : nil
    }

    /// Closes `fd` and throws `failure` (made before the close, which may change errno).
    private static func closing(_ fd: Int32, _ failure: Failure) throws(Failure) -> Int32 {
        closeQuietly(fd)
        throw failure
    }

    /// The S_IFMT bits of what `path` names, nil when it cannot be looked at.
    private static func fileType(_ path: String) -> mode_t? {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & S_IFMT : nil
    }

    /// The size of the regular file open as `fd`; nil for a stream, whose size is not known
    /// until it ends.
    static func regularFileSize(_ fd: Int32) -> Int? {
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int(info.st_size)
    }

    /// Reads up to `buffer.count - start` bytes into `buffer` from index `start`; 0 at end of file.
    static func read(_ fd: Int32, into buffer: inout [UInt8], from start: Int = 0) throws(Failure) -> Int {
        let result = buffer.withUnsafeMutableBytes { b in
            Result { () throws(Failure) in try read(fd, into: UnsafeMutableRawBufferPointer(rebasing: b[start...])) }
        }
        return try result.get()
    }

    /// Reads into `buffer`: the bytes read (0 at the end of the file).
    static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(Failure) -> Int {
        while true {
            let n = Glibc.read(fd, buffer.baseAddress, buffer.count)
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
