/// When a frame runs: the CPU stand-in for CADisplayLink's timestamp and targetTimestamp.
public struct FrameInfo: Sendable, Equatable {
    /// 0, 1, 2, … counted from when the clock started; skipped deadlines still count.
    public var index: Int
    /// When this frame's deadline was (seconds on the session clock).
    public var timestamp: Double
    /// When the frame is due to be shown (the next deadline).
    public var targetTimestamp: Double
    public init(index: Int, timestamp: Double, targetTimestamp: Double) {
        self.index = index; self.timestamp = timestamp; self.targetTimestamp = targetTimestamp
    }
}
