import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A program run with a pipe to its standard input (the timelapse's encoder): the thin wrapper
/// of posix_spawn, pipe, write and waitpid. Its standard output is /dev/null and its standard
/// error a file, read back when it fails (a pipe nobody drains could block it).
///
/// posix_spawn rather than Foundation's `Process`, as the end-to-end tests do: Swift 6.3's
/// `Process.run()` on Linux now and then over-reads while scanning /proc/self/fd.
final class ChildProcess {
    private let pid: pid_t
    private var input: Int32
    private let errorLog: String
    private var status: Int32?

    /// The first executable called `name` on $PATH, if any.
    static func find(_ name: String) -> String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(dir)/\(name)"
            if access(path, X_OK) == 0, FileManager.default.fileExists(atPath: path) { return path }
        }
        return nil
    }

    /// Starts `path` with `args`; what it says on stderr goes to `errorLog`.
    init(_ path: String, _ args: [String], errorLog: String) throws(ChildProcessError) {
        // A child that dies makes writes to its pipe fail with EPIPE instead of killing us.
        signal(SIGPIPE, SIG_IGN)
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw ChildProcessError("cannot make a pipe: \(String(cString: strerror(errno)))") }
        // Ours only: the child must not inherit the writing end, or it never sees the end of its input.
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[0], 0)
        posix_spawn_file_actions_addclose(&actions, fds[0])
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, errorLog, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        func cStrings(_ strings: [String]) -> [UnsafeMutablePointer<CChar>?] { strings.map { strdup($0) } + [nil] }
        let argv = cStrings([path] + args)
        defer { argv.forEach { free($0) } }
        var child = pid_t()
        let rc = posix_spawn(&child, path, &actions, nil, argv, environ)
        close(fds[0])
        guard rc == 0 else {
            close(fds[1])
            throw ChildProcessError("cannot start \(path): \(String(cString: strerror(rc)))")
        }
        pid = child
        input = fds[1]
        self.errorLog = errorLog
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

    /// The last non-empty line the child wrote on stderr.
    var lastErrorLine: String {
        let text = (try? String(contentsOfFile: errorLog, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").last.map(String.init) ?? ""
    }

    deinit {
        if status == nil {
            kill(pid, SIGTERM)
            _ = finish()
        }
        unlink(errorLog)
    }
}

/// A child process could not be started or fed.
struct ChildProcessError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
