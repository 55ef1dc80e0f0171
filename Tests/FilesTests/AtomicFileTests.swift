import Files
import Foundation
import Testing
import TestSupport

/// The mode of what AtomicFile writes, and of what other threads create meanwhile: the umask is
/// process-wide, so a writer that set it to 0 even for an instant gave another thread's new file
/// the wrong mode (the journal writes on its own thread while the app saves pictures).
@Suite struct AtomicFileTests {
    /// The process's umask, read without setting it (the `Umask:` line of /proc/self/status).
    static let umask: mode_t? = {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Umask:") }),
              let value = line.split(separator: "\t").last.flatMap({ mode_t($0, radix: 8) }) else { return nil }
        return value
    }()

    /// A new folder on /dev/shm when it is a tmpfs, else in the scratch folder.
    private static func fastFolder() throws -> String {
        let mounts = (try? String(contentsOfFile: "/proc/mounts", encoding: .utf8)) ?? ""
        guard mounts.split(separator: "\n").contains(where: { $0.hasPrefix("tmpfs /dev/shm tmpfs ") }) else { return try ScratchFolder.make("atomic") }
        let dir = "/dev/shm/quicksilver-tests-\(getpid())-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false)
        return dir
    }

    private func mode(_ path: String) -> mode_t? {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o777 : nil
    }

    @Test(.enabled(if: umask != nil, "needs /proc/self/status"))
    func aFileWrittenGetsTheModeOfAnyNewFile() throws {
        let mask = try #require(Self.umask)
        let path = try ScratchFolder.make("atomic") + "/a.png"
        try AtomicFile.write([1, 2, 3], to: path)
        #expect(mode(path) == 0o644 & ~mask)
        #expect(try AtomicFile.writeNew([4], to: path + ".2"))
        #expect(mode(path + ".2") == 0o644 & ~mask)
    }

    /// Files created with mode 0666 on this thread while another writes atomically in a loop, for
    /// 3 s, all get 0666 less the umask. Against the writer that set the umask to 0 and back
    /// around each write, this failed in 11 runs of 12, after 0.02–2.4 s (a file got 0666).
    @Test(.enabled(if: umask.map { $0 & 0o022 != 0 } ?? false, "needs a umask that takes write bits away"))
    func writingDoesNotChangeTheModeOfFilesOtherThreadsCreate() throws {
        let mask = try #require(Self.umask)
        // On a tmpfs where there is one (fsync costs nothing there), so that the writer loops fast.
        let dir = try Self.fastFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let done = Flag()
        let writer = Thread {
            var i = 0
            while !done.isSet { try? AtomicFile.write([UInt8(truncatingIfNeeded: i)], to: dir + "/written"); i += 1 }
        }
        writer.start()
        defer {
            done.set()
            while !writer.isFinished { usleep(1000) }
        }
        var wrong: mode_t?
        var created = 0
        let start = Date()
        while wrong == nil, Date().timeIntervalSince(start) < 3 {
            let path = dir + "/created"
            let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            try #require(fd >= 0, "cannot create \(path)")
            var info = stat()
            fstat(fd, &info)
            close(fd)
            unlink(path)
            if info.st_mode & 0o777 != 0o666 & ~mask { wrong = info.st_mode & 0o777 }
            created += 1
        }
        #expect(wrong == nil, "file \(created) created got mode \(String(wrong ?? 0, radix: 8)), not \(String(0o666 & ~mask, radix: 8))")
    }
}

/// A flag set once, read from another thread.
private final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
