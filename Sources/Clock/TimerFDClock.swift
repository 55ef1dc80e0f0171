/// The real frame clock: CLOCK_MONOTONIC, with the alarm on a timerfd that poll() waits on
/// together with the input descriptors. Its absolute deadlines do not drift with late reads.
public final class TimerFDClock: FrameClock {
    private let timer: Int32

    /// Creates a disarmed clock. Traps only when the process is out of file descriptors.
    public init() {
        timer = ClockCalls.timerCreate()
        precondition(timer >= 0, "quicksilver: timerfd_create failed")
    }

    deinit { ClockCalls.closeFD(timer) }

    public var nowNS: Int64 { ClockCalls.monotonicNanoseconds() }

    public func arm(at deadlineNS: Int64?) {
        if let deadlineNS {
            // A deadline already passed would disarm the timer if given as 0: it fires at once.
            ClockCalls.timerArm(timer, atNS: max(deadlineNS, 1))
        } else {
            ClockCalls.timerDisarm(timer)
            _ = ClockCalls.timerRead(timer)
        }
    }

    public func wait(for fds: [Int32]) -> ClockWake {
        let results = Poll.wait([timer] + fds, timeoutMS: -1)
        let alarm = results[0].readable && ClockCalls.timerRead(timer) > 0
        let rest = results.dropFirst()
        return ClockWake(alarm: alarm, readable: rest.map(\.readable), broken: rest.map(\.broken))
    }
}
