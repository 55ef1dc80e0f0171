/// A Linux timerfd on CLOCK_MONOTONIC firing at absolute deadlines: a clock that poll() can
/// wait on together with the X connection.
final class TimerFD {
    /// The descriptor to poll for readability (readable once a deadline has passed).
    let fileDescriptor: Int32

    /// Creates a disarmed timer. Fails only when the process is out of file descriptors.
    init() {
        fileDescriptor = OSCalls.timerCreate()
        precondition(fileDescriptor >= 0, "quicksilver: timerfd_create failed")
    }

    deinit { OSCalls.closeFD(fileDescriptor) }

    /// Fires at monotonic time `firstNS` and every `intervalNS` after it. The kernel counts from
    /// the absolute first deadline, so a late read does not shift the later deadlines.
    func arm(firstNS: Int64, intervalNS: Int64) {
        OSCalls.timerArm(fileDescriptor, firstNS: firstNS, intervalNS: intervalNS)
    }

    /// Stops the timer; it stays unreadable until armed again.
    func disarm() { OSCalls.timerDisarm(fileDescriptor) }

    /// How many deadlines passed since the last read (0 if none); reading resets the count.
    func readExpirations() -> Int { Int(OSCalls.timerRead(fileDescriptor)) }
}
