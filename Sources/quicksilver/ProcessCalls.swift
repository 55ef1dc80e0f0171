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

    /// The process's resident memory in bytes (/proc/self/statm), 0 where it cannot be read.
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
