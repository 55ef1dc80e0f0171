import Foundation

/// Where tests keep their files: one folder per test process under the temporary directory,
/// removed when the process exits, so that `make test` leaves nothing behind. Set
/// QS_KEEP_TEST_FILES=1 to keep it (its path is `root`) for a look after a failure. Folders of
/// runs that died before they could clean up are removed by the next run.
public enum ScratchFolder {
    private static let prefix = "quicksilver-tests-"

    /// This process's folder, made on first use.
    public static let root: String = {
        let temporary = NSTemporaryDirectory()
        removeAbandoned(in: temporary)
        let root = temporary + prefix + "\(getpid())"
        try? FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        if ProcessInfo.processInfo.environment["QS_KEEP_TEST_FILES"] == nil {
            atexit { try? FileManager.default.removeItem(atPath: ScratchFolder.root) }
        }
        return root
    }()

    /// A new empty folder, its name starting with `name`, inside `root`.
    public static func make(_ name: String) throws -> String {
        let dir = root + "/\(name)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Removes the folders of test processes that no longer run.
    private static func removeAbandoned(in temporary: String) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? []
        for name in names where name.hasPrefix(prefix) {
            guard let pid = pid_t(name.dropFirst(prefix.count)), kill(pid, 0) != 0, errno == ESRCH else { continue }
            try? FileManager.default.removeItem(atPath: temporary + name)
        }
    }
}
