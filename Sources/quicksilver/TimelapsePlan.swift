import Paint

/// Which picture of a session each frame of its timelapse shows: the frames are spread evenly
/// over the session's drawing time, from its opening canvas to its final one, then held.
///
/// Drawing time is the player's clock with idle gaps squeezed (`DrawingClock`): between two
/// frames that played events, at most half a second counts, so a long pause is a short one.
/// Every value here is computed from the frames a first playback reported, so the second
/// playback, which takes the pictures, needs no clock of its own.
struct TimelapsePlan: Equatable {
    /// The drawing clock at each played frame, in 60 Hz frames since the opening canvas.
    let drawingClock: [Int]
    /// Frames of the video that move through the drawing (the first shows the opening canvas,
    /// the last the final one).
    let movingFrames: Int
    /// Frames that then hold the final canvas.
    let holdFrames: Int

    var totalFrames: Int { movingFrames + holdFrames }
    /// The session's drawing time, in seconds.
    var drawingSeconds: Double { Double(drawingClock.last ?? 0) / 60 }

    /// How long the video runs.
    enum Length: Equatable {
        /// The whole video, hold included, lasts this many seconds.
        case seconds(Double)
        /// The drawing plays this many times faster than it was drawn, then the hold.
        case speed(Double)
        /// `seconds(30)`, or real time (`speed(1)`) when the drawing is shorter than that.
        case automatic
    }

    /// The hold on the result: a second, or a fifth of a shorter video.
    static let holdSeconds = 1.0

    /// The drawing time, in seconds, of a session whose player drew `playedFrames`.
    static func drawingSeconds(playedFrames: [Int]) -> Double { Double(DrawingClock.squeezed(playedFrames).last ?? 0) / 60 }

    /// - Parameter playedFrames: the player's frame indices that drew events, in order.
    /// - Parameter length: within the ranges `TimelapseCommand` checks: the video lasts at most a day.
    init(playedFrames: [Int], length: Length, fps: Double) {
        drawingClock = DrawingClock.squeezed(playedFrames)
        let drawing = Double(drawingClock.last ?? 0) / 60
        let seconds: Double
        var hold = Self.holdSeconds
        switch length {
        case .seconds(let s):
            hold = min(hold, s / 5)
            seconds = s - hold
        case .speed(let x):
            seconds = drawing / x
        case .automatic:
            seconds = min(drawing, 30 - hold)
        }
        // At least the opening and the final canvas, however short.
        movingFrames = max(2, Int((seconds * fps).rounded()))
        holdFrames = max(0, Int((hold * fps).rounded()))
    }

    /// The drawing clock video frame `k` (0 ..< movingFrames) shows, in 60 Hz frames, scaled
    /// by `movingFrames - 1` so that it stays an integer: frame k shows the canvas at
    /// `k * total / (movingFrames - 1)`.
    private func target(_ k: Int) -> Int { k * (drawingClock.last ?? 0) }

    /// How many of the moving frames show the canvas as it was before played frame `i` (0-based)
    /// was drawn, i.e. those whose target time comes before its time; all of them past the last.
    func framesBefore(played i: Int) -> Int {
        guard i < drawingClock.count else { return movingFrames }
        let scale = movingFrames - 1
        // target(k) < drawingClock[i] * scale  ⇔  k < drawingClock[i] * scale / total.
        let limit = drawingClock[i] * scale
        var k = 0
        // The first k whose target reaches the limit, by bisection over 0 ..< movingFrames.
        var hi = movingFrames
        while k < hi {
            let mid = (k + hi) / 2
            if target(mid) < limit { k = mid + 1 } else { hi = mid }
        }
        return k
    }
}
