/// What a `FrameLoop` waits on: a monotonic clock with one alarm, and the readiness of file
/// descriptors (the X connection, signals). The real clock is a timerfd polled with the
/// descriptors (`TimerFDClock`); tests use a `ManualClock`, whose time moves only when told.
public protocol FrameClock: AnyObject {
    /// Nanoseconds since a fixed, arbitrary point; never goes backwards.
    var nowNS: Int64 { get }
    /// Sets the alarm to go off at `deadlineNS` (absolute, on `nowNS`'s scale), or clears it.
    func arm(at deadlineNS: Int64?)
    /// Sleeps until the alarm's time has come or one of `fds` is readable or broken.
    func wait(for fds: [Int32]) -> ClockWake
}

/// Why a `FrameClock.wait` returned.
public struct ClockWake: Sendable, Equatable {
    /// The alarm's time has come (it is then cleared).
    public var alarm: Bool
    /// Per descriptor passed to `wait`, in order: data can be read.
    public var readable: [Bool]
    /// Per descriptor: hung up, failed or invalid, with nothing left to read.
    public var broken: [Bool]
    public init(alarm: Bool, readable: [Bool], broken: [Bool]) {
        self.alarm = alarm; self.readable = readable; self.broken = broken
    }
}
