#if canImport(Glibc)
import Glibc
#endif

/// SIGTERM, SIGINT and SIGHUP as a file descriptor the frame loop polls, so a signal ends the
/// session through the normal path (journal synced, window closed) instead of killing it.
///
/// Create it before any other thread starts: the signals are blocked in this thread and every
/// thread created after it inherits that.
public final class SignalFD {
    public let fileDescriptor: Int32

    public init() {
        fileDescriptor = ClockCalls.signalDescriptor(for: [SIGTERM, SIGINT, SIGHUP])
        precondition(fileDescriptor >= 0, "quicksilver: signalfd failed")
    }

    deinit { ClockCalls.closeFD(fileDescriptor) }

    /// The signal that arrived, if any (never blocks).
    public func take() -> Int32? { ClockCalls.readSignal(fileDescriptor) }
}
