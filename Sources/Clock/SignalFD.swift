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

extension SignalFD {
    /// Until the frame loop polls the descriptor, nothing does: a start-up that waits (a big
    /// journal being played, a display that does not answer, a pipe with no writer) would not
    /// end on SIGTERM. This watches on a thread of its own and calls `onSignal` (which must end
    /// the process: nothing has been written yet) with the signal that came, until `stop()`.
    public func watchDuringStartUp(_ onSignal: @escaping @Sendable (Int32) -> Void) -> StartUpWatch {
        StartUpWatch(signals: fileDescriptor, onSignal: onSignal)
    }
}

/// A thread that ends the process on a signal while it starts up (see `watchDuringStartUp`).
public final class StartUpWatch: @unchecked Sendable {
    private let stopper = Wakeup()
    private var thread: pthread_t?

    fileprivate init(signals: Int32, onSignal: @escaping @Sendable (Int32) -> Void) {
        let stopFD = stopper.fileDescriptor
        let body = Box {
            while true {
                let ready = Poll.wait([signals, stopFD], timeoutMS: -1)
                if ready[1].readable { return }
                if ready[0].readable, let signal = ClockCalls.readSignal(signals) { onSignal(signal) }
            }
        }
        var t = pthread_t()
        let context = Unmanaged.passRetained(body).toOpaque()
        if pthread_create(&t, nil, { raw in
            let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
            box.body()
            return nil
        }, context) == 0 {
            thread = t
        } else {
            Unmanaged<Box>.fromOpaque(context).release()
        }
    }

    /// Stops watching (the frame loop takes the descriptor over; a signal that comes meanwhile
    /// waits in it) and waits for the thread to end.
    public func stop() {
        stopper.signal()
        if let thread { pthread_join(thread, nil) }
        thread = nil
    }

    private final class Box {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }
}
