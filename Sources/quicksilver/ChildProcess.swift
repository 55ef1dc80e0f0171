import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A program run with a pipe to its standard input (the timelapse's encoder): the thin wrapper
/// of posix_spawn, pipe, write and waitpid. Its standard output is /dev/null and its standard
/// error a file read back when it fails (a pipe nobody drains could block it): a file with no
/// name, made with mkstemp in $TMPDIR and unlinked at once, so nothing is left behind whatever
/// ends the process, and no link planted under a predictable name can redirect the write.
///
/// posix_spawn rather than Foundation's `Process`, as the end-to-end tests do: Swift 6.3's
/// `Process.run()` on Linux now and then over-reads while scanning /proc/self/fd.
final class ChildProcess {
    private let pid: pid_t
    private var input: Int32
    /// The child's standard error, a file with no name (read through this descriptor).
    private let errorLog: Int32
    private var status: Int32?

    /// The first executable called `name` on $PATH, if any.
    static func find(_ name: String) -> String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(dir)/\(name)"
            if access(path, X_OK) == 0, FileManager.default.fileExists(atPath: path) { return path }
        }
        return nil
    }

    /// Starts `path` with `args`; what it says on stderr is kept for `lastErrorLine`.
    init(_ path: String, _ args: [String]) throws(ChildProcessError) {
        // A child that dies makes writes to its pipe fail with EPIPE instead of killing us.
        signal(SIGPIPE, SIG_IGN)
        let log = try Self.unnamedFile()
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            close(log)
            throw ChildProcessError("cannot make a pipe: \(String(cString: strerror(errno)))")
        }
        // Ours only: the child must not inherit the writing end, or it never sees the end of its input.
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[0], 0)
        posix_spawn_file_actions_addclose(&actions, fds[0])
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, log, 2)
        posix_spawn_file_actions_addclose(&actions, log)
        func cStrings(_ strings: [String]) -> [UnsafeMutablePointer<CChar>?] { strings.map { strdup($0) } + [nil] }
        let argv = cStrings([path] + args)
        defer { argv.forEach { free($0) } }
        var child = pid_t()
        let rc = posix_spawn(&child, path, &actions, nil, argv, environ)
        close(fds[0])
        guard rc == 0 else {
            close(fds[1])
            close(log)
            throw ChildProcessError("cannot start \(path): \(String(cString: strerror(rc)))")
        }
        pid = child
        input = fds[1]
        errorLog = log
    }

    /// A new file in $TMPDIR (else /tmp) that only this process can reach: made by mkstemp
    /// (O_EXCL, mode 0600) and unlinked at once; closed on exec, the child gets it by dup2.
    private static func unnamedFile() throws(ChildProcessError) -> Int32 {
        let folder = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((folder + "/quicksilver-child-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw ChildProcessError("cannot make a file in \(folder): \(String(cString: strerror(errno)))") }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        return fd
    }

    /// Writes all of `words`' bytes to the child's standard input; fails once the child has
    /// stopped reading.
    func write(_ words: [UInt32]) throws(ChildProcessError) {
        let fd = input
        // The errno of a failed write, nil when all went.
        let failure: Int32? = words.withUnsafeBytes { bytes in
            var done = 0
            while done < bytes.count {
                let n = Glibc.write(fd, bytes.baseAddress! + done, bytes.count - done)
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                done += n
            }
            return nil
        }
        if let failure { throw ChildProcessError("the encoder stopped reading (\(String(cString: strerror(failure))))") }
    }

    /// Closes its input and waits for it to exit: its exit status (128 + the signal that killed it).
    func finish() -> Int32 {
        if input >= 0 { close(input); input = -1 }
        if let status { return status }
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
        let s = raw & 0x7f == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
        status = s
        return s
    }

    /// Stops it now (SIGTERM) and waits for it.
    func stop() {
        if status == nil { kill(pid, SIGTERM) }
        _ = finish()
    }

    /// The last non-empty line the child wrote on stderr (its last 4 KiB are read).
    var lastErrorLine: String {
        let end = lseek(errorLog, 0, SEEK_END)
        guard end > 0 else { return "" }
        var bytes = [UInt8](repeating: 0, count: Int(min(end, 4096)))
        let n = bytes.withUnsafeMutableBytes { pread(errorLog, $0.baseAddress, $0.count, end - off_t($0.count)) }
        let text = String(decoding: bytes.prefix(max(0, n)), as: UTF8.self)
        return text.split(separator: "\n").last.map(String.init) ?? ""
    }

    deinit {
        stop()
        close(errorLog)
    }
}

/// A child process could not be started or fed.
struct ChildProcessError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
