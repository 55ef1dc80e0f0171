import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// The Linux calls of the clock module, as thin named wrappers: the monotonic clock, timerfd,
/// signalfd and descriptors.
enum ClockCalls {
    /// Nanoseconds on CLOCK_MONOTONIC.
    static func monotonicNanoseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }

    /// A non-blocking timerfd on CLOCK_MONOTONIC, or -1.
    static func timerCreate() -> Int32 {
        timerfd_create(CLOCK_MONOTONIC, Int32(TFD_CLOEXEC | TFD_NONBLOCK))
    }

    /// Arms `fd` to fire once at absolute monotonic time `atNS` (> 0).
    static func timerArm(_ fd: Int32, atNS: Int64) {
        var value = itimerspec(it_interval: timespec(),
                               it_value: timespec(tv_sec: Int(atNS / 1_000_000_000), tv_nsec: Int(atNS % 1_000_000_000)))
        timerfd_settime(fd, Int32(TFD_TIMER_ABSTIME), &value, nil)
    }

    static func timerDisarm(_ fd: Int32) {
        var value = itimerspec()
        timerfd_settime(fd, 0, &value, nil)
    }

    /// Expirations since the last read (0 if none: the fd is non-blocking).
    static func timerRead(_ fd: Int32) -> UInt64 {
        var count: UInt64 = 0
        let n = read(fd, &count, MemoryLayout<UInt64>.size)
        return n == MemoryLayout<UInt64>.size ? count : 0
    }

    /// Blocks `signals` in this thread (and every thread it creates later) and returns a
    /// non-blocking signalfd that reads them, or -1.
    static func signalDescriptor(for signals: [Int32]) -> Int32 {
        var set = sigset_t()
        sigemptyset(&set)
        for s in signals { sigaddset(&set, s) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
        return signalfd(-1, &set, Int32(SFD_NONBLOCK | SFD_CLOEXEC))
    }

    /// The number of the next pending signal on a signalfd, if any (never blocks).
    static func readSignal(_ fd: Int32) -> Int32? {
        var info = signalfd_siginfo()
        let n = read(fd, &info, MemoryLayout<signalfd_siginfo>.size)
        return n == MemoryLayout<signalfd_siginfo>.size ? Int32(info.ssi_signo) : nil
    }

    /// A non-blocking eventfd, or -1.
    static func eventCreate() -> Int32 { eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK)) }

    static func eventAdd(_ fd: Int32) {
        var one: UInt64 = 1
        _ = write(fd, &one, MemoryLayout<UInt64>.size)
    }

    /// The count since the last read, reset to 0 (0 if none: the fd is non-blocking).
    static func eventRead(_ fd: Int32) -> UInt64 {
        var count: UInt64 = 0
        let n = read(fd, &count, MemoryLayout<UInt64>.size)
        return n == MemoryLayout<UInt64>.size ? count : 0
    }

    static func closeFD(_ fd: Int32) { _ = close(fd) }
}

/// poll(2): wait for descriptors to become readable. Public: the X11 window waits on its
/// connection with it too.
public enum Poll {
    /// What poll() said about one descriptor.
    public struct Result: Sendable, Equatable {
        /// Data can be read.
        public var readable: Bool
        /// Hung up, failed or invalid (and nothing left to read).
        public var broken: Bool
    }

    /// Blocks until one of `fds` is readable (or `timeoutMS` passes; -1 waits forever).
    /// Retries on EINTR.
    public static func wait(_ fds: [Int32], timeoutMS: Int32) -> [Result] {
        var pfds = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        while true {
            let n = Glibc.poll(&pfds, nfds_t(pfds.count), timeoutMS)
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return pfds.map { _ in Result(readable: false, broken: true) } }
            return pfds.map {
                let readable = $0.revents & Int16(POLLIN) != 0
                let broken = $0.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0
                return Result(readable: readable, broken: broken && !readable)
            }
        }
    }
}
