import Compute

/// Plays a replay through a session on a virtual 60 Hz frame clock: an event at time t is
/// delivered to frame ⌊t·60⌋, exactly as the window batches the samples that arrive between two
/// frames, and `draw` runs after each frame's events.
public enum ReplayPlayer {
    public static let framesPerSecond = 60.0

    /// The frame an event at `t` seconds belongs to.
    public static func frameIndex(at t: Double) -> Int {
        Int(min(max(t * framesPerSecond, 0), 1e15).rounded(.down))
    }

    public static func play(_ events: [Replay.TimedEvent], session: Session, presenter: Presenter) {
        var frame = 0
        func draw() {
            let t = Double(frame) / framesPerSecond
            session.draw(FrameInfo(index: frame, timestamp: t, targetTimestamp: t + 1 / framesPerSecond), to: presenter)
        }
        for e in events {
            let f = frameIndex(at: e.t)
            if f != frame { draw(); frame = f }
            session.handle(e.event)
        }
        draw()
    }
}
