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
}
