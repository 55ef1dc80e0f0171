import CMalloc
import Foundation

/// The CLI's own OS calls: process-wide settings made once at start-up.
enum ProcessCalls {
    /// One malloc arena for the whole process. glibc otherwise gives threads their own arenas
    /// (up to eight per core), and the window's short-lived worker, journal and emboss threads
    /// each leave free memory parked in theirs: resident memory climbs for minutes before it
    /// levels off. The few allocations per frame do not contend for the lock.
    static func useOneMallocArena() {
        _ = mallopt(M_ARENA_MAX, 1)
    }

    /// Replaces this process with this program run with `arguments` (argv[1...]): what a window
    /// does to open another file once its session has ended. Returns only on failure, saying why.
    static func execSelf(_ arguments: [String]) -> String {
        let argv = [CommandLine.arguments.first ?? "quicksilver"] + arguments
        var cArgs = argv.map { strdup($0) } + [nil]
        defer { for p in cArgs { free(p) } }
        execv("/proc/self/exe", &cArgs)
        return String(cString: strerror(errno))
    }
}
