/// A one-shot alarm on the monotonic clock as a descriptor the frame loop polls (a timerfd):
/// how something with a deadline of its own, such as a clipboard transfer that may stall, wakes
/// an idle loop though no input comes. It fires once per `set`, so it never makes a loop spin.
public final class Alarm {
    /// Readable from the deadline until `take()` or the next `set`.
    public let fileDescriptor: Int32

    /// Creates a disarmed alarm. Traps only when the process is out of file descriptors.
    public init() {
        fileDescriptor = ClockCalls.timerCreate()
        precondition(fileDescriptor >= 0, "quicksilver: timerfd_create failed")
    }

    deinit { ClockCalls.closeFD(fileDescriptor) }

    /// Nanoseconds on the clock the alarm keeps (CLOCK_MONOTONIC: a change of the wall clock
    /// moves no deadline).
    public static var nowNS: Int64 { ClockCalls.monotonicNanoseconds() }

    /// Makes the alarm go off once at `deadlineNS` (at once if that has passed), replacing any
    /// earlier setting and a firing not yet taken; nil disarms it.
    public func set(at deadlineNS: Int64?) {
        // timerfd_settime clears a firing not yet read: no read needed here.
        if let deadlineNS {
            // 0 would disarm the timer rather than fire it.
            ClockCalls.timerArm(fileDescriptor, atNS: max(deadlineNS, 1))
        } else {
            ClockCalls.timerDisarm(fileDescriptor)
        }
    }

    /// True when the alarm went off since the last take or set; never blocks.
    public func take() -> Bool { ClockCalls.timerRead(fileDescriptor) > 0 }
}
