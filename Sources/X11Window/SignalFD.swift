import CX11

/// SIGTERM, SIGINT and SIGHUP as a file descriptor the frame loop polls, so a signal ends the
/// session through the normal path (journal synced, window closed) instead of killing it.
///
/// Create it before any other thread starts: the signals are blocked in this thread and every
/// thread created after it inherits that.
public final class SignalFD {
    public let fileDescriptor: Int32

    public init() {
        var set = sigset_t()
        sigemptyset(&set)
        for s in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&set, s) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
        fileDescriptor = signalfd(-1, &set, Int32(SFD_NONBLOCK | SFD_CLOEXEC))
        precondition(fileDescriptor >= 0, "quicksilver: signalfd failed")
    }

    deinit { close(fileDescriptor) }

    /// The signal that arrived, if any (never blocks).
    public func take() -> Int32? {
        var info = signalfd_siginfo()
        let n = read(fileDescriptor, &info, MemoryLayout<signalfd_siginfo>.size)
        return n == MemoryLayout<signalfd_siginfo>.size ? Int32(info.ssi_signo) : nil
    }
}
