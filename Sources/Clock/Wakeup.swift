/// A descriptor another thread makes readable to wake the frame loop (an eventfd): how the
/// journal's writer says at once that writing failed or works again, though no input came.
public final class Wakeup: @unchecked Sendable {
    public let fileDescriptor: Int32

    public init() {
        fileDescriptor = ClockCalls.eventCreate()
        precondition(fileDescriptor >= 0, "quicksilver: eventfd failed")
    }

    deinit { ClockCalls.closeFD(fileDescriptor) }

    /// Wakes whoever polls the descriptor (from any thread).
    public func signal() { ClockCalls.eventAdd(fileDescriptor) }

    /// True when `signal()` was called since the last take (never blocks).
    public func take() -> Bool { ClockCalls.eventRead(fileDescriptor) > 0 }
}
