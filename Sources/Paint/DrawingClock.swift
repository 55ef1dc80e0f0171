/// A session's drawing time: the player's 60 Hz clock with idle gaps squeezed, so that a long
/// pause is a short one. A timelapse spreads its frames over it; a window playing a session
/// (`window --play`) shows it at this pace.
public enum DrawingClock {
    /// How a gap in the drawing counts: at most this many of the player's 60 Hz frames (half a second).
    public static let idleFrames = 30

    /// The drawing clock at each of `playedFrames` (the player's frame indices that drew, in
    /// order), in 60 Hz frames since the opening canvas: the first counts one frame, each next
    /// one its distance from the one before, at most `idleFrames`.
    public static func squeezed(_ playedFrames: [Int]) -> [Int] {
        var clock: [Int] = []
        clock.reserveCapacity(playedFrames.count)
        var previous: Int?, d = 0
        for f in playedFrames {
            d += previous.map { min(max(f - $0, 0), idleFrames) } ?? 1
            clock.append(d)
            previous = f
        }
        return clock
    }
}
