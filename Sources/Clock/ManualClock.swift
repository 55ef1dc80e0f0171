/// A frame clock whose time moves only when told, like NIO's `EmbeddedEventLoop`: for fast,
/// deterministic tests of the frame loop (deadlines, pauses, missed frames).
///
/// `wait` never sleeps: it returns at once with the input scheduled for the earliest time, or,
/// when the alarm comes first, moves time to the alarm. A test makes a frame late by advancing
/// the clock inside its draw callback.
public final class ManualClock: FrameClock {
    public private(set) var nowNS: Int64
    /// The armed alarm, if any.
    public private(set) var alarmNS: Int64?
    /// Descriptors that become readable at a time, earliest first.
    private var inputs: [(atNS: Int64, fd: Int32)] = []
    /// Waits so far (a loop that spins shows here).
    public private(set) var waits = 0

    public init(nowNS: Int64 = 0) { self.nowNS = nowNS }

    /// Moves time forward by `ns` nanoseconds (never back).
    public func advance(by ns: Int64) { nowNS += max(0, ns) }

    /// Makes `fd` readable `ns` nanoseconds from now, once: the next wait that reaches that
    /// time reports it.
    public func input(on fd: Int32, afterNS ns: Int64 = 0) {
        inputs.append((nowNS + max(0, ns), fd))
        inputs.sort { $0.atNS < $1.atNS }
    }

    public func arm(at deadlineNS: Int64?) { alarmNS = deadlineNS }

    /// Returns the earlier of the alarm and the next scheduled input, moving time to it. With
    /// neither, a real clock would sleep forever: that is a bug in the loop under test.
    public func wait(for fds: [Int32]) -> ClockWake {
        waits += 1
        let nextInput = inputs.first { fds.contains($0.fd) }
        let next = [alarmNS, nextInput?.atNS].compactMap { $0 }.min()
        guard let next else { preconditionFailure("ManualClock: wait with no alarm and no input would sleep forever") }
        nowNS = max(nowNS, next)
        let alarm = alarmNS.map { $0 <= nowNS } ?? false
        if alarm { alarmNS = nil }
        var readable = [Bool](repeating: false, count: fds.count)
        inputs.removeAll { input in
            guard input.atNS <= nowNS, let i = fds.firstIndex(of: input.fd) else { return false }
            readable[i] = true
            return true
        }
        return ClockWake(alarm: alarm, readable: readable, broken: [Bool](repeating: false, count: fds.count))
    }
}
