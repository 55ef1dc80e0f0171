/// Steadies a shaky hand: the pen follows a weighted mean of the path near the newest sample,
/// the weights falling off with straight-line distance from it, so jitter averages out while the
/// line keeps its course.
///
/// The path is resampled every `step` pixels of arc length (the remainder carried, as dab
/// spacing is) into a ring. A point at distance d from the newest sample weighs `reach - d`
/// (nothing beyond `reach`): on a steady line the pen lags `reach / 3` behind the pointer, and a
/// falling ramp is the causal weighting that averages the most uncorrelated jitter for that
/// lag. Points leave the ring from its old end once they are out of reach, or when the ring
/// holds `pathPerReach × reach` of path (a hand dithering in one place), so where the hand rests
/// the pen settles on the resting point. The pen is held within `lag` of the newest sample (a
/// lazy rope on top of the mean), so after a pause it never hangs back on the resting spot.
///
/// Why distance travelled and not path length (the window of the first version): a heavy tremor
/// makes the path several times longer than the travel, and a window of path was used up by the
/// jitter itself. Why distance and not time (Krita resamples by time; MyPaint's slow tracking is
/// a one-pole filter in time; AzPainter averages a fixed count of samples): a stroke's geometry
/// must depend only on its samples, never on when they arrived, so that a replay (whose samples
/// carry frame times, not event times) draws exactly what the window drew; and a reach in pixels
/// smooths a slow hand and a fast one alike. The mean is recomputed from the ring for every
/// sample, so nothing accumulates and nothing drifts over hours.
///
/// On release, `finish(at:)` drains the lag instead of jumping: the same mean with a reach
/// shrinking to nothing, so the pen runs on along the averaged line and arrives exactly at the
/// last sample. (A straight jump from 30 px behind to a last sample that jitter put 7 px off
/// the line is a visible slant; the drain keeps it to the last few pixels.)
public struct Stabilizer: Sendable {
    /// 0…1; 0 is off (no stabilizer is made).
    public let strength: Double
    /// How far from the newest sample the path still counts, pixels: up to `maxReach`.
    public let reach: Double
    /// Resampling distance, pixels.
    public static let step = 1.0
    /// The reach at full strength: a lag of 30 px on a steady line.
    public static let maxReach = 90.0
    /// The ring holds at most this many reaches of path.
    public static let pathPerReach = 4.0
    /// Steps of the drain at release, per pixel of reach (the pen moves about 4/3 px a step).
    private static let drainStepsPerPixel = 1.0 / 4

    private var ring: [StrokePoint]
    /// Index of the oldest point and how many there are.
    private var oldest = 0, count = 0
    private var last: StrokePoint
    /// Arc length still to go before the next resampled point.
    private var toNext = 0.0
    /// Points resampled by the last `add` (a bound on its cost: at most `reach / step + 1`).
    public private(set) var lastWork = 0

    /// The ring holds at most this many points.
    public var capacity: Int { ring.count }

    /// How far the pen trails the pointer on a steady straight line, and at most, pixels.
    public var lag: Double { reach / 3 }

    public init(strength: Double, start: StrokePoint) {
        self.strength = min(max(strength, 0), 1)
        reach = max(2 * Self.step, self.strength * Self.maxReach)
        ring = Array(repeating: start, count: Int((Self.pathPerReach * reach / Self.step).rounded(.up)) + 1)
        last = Self.bounded(start)
        push(last)
        toNext = Self.step
    }

    /// The pen's position after sample `p`.
    public mutating func add(_ sample: StrokePoint) -> StrokePoint {
        lastWork = 0
        guard sample.x.isFinite, sample.y.isFinite else { return leashed(mean(around: last, reach: reach), to: last) }
        let p = Self.bounded(sample)
        let dx = p.x - last.x, dy = p.y - last.y
        let length = (dx * dx + dy * dy).squareRoot()
        if length > 0 {
            // Only the points within reach of `p` count: a long segment starts there.
            var travelled = toNext
            let skipped = max(0, ((length - reach - travelled) / Self.step).rounded(.down))
            travelled += skipped * Self.step
            while travelled <= length {
                push(StrokePoint.lerp(last, p, travelled / length))
                lastWork += 1
                travelled += Self.step
            }
            toNext = travelled - length
        }
        last = p
        // The old end leaves once out of reach: the window is the travel, not the path.
        while count > 1, Self.distance(ring[oldest], p) > reach { drop() }
        return leashed(mean(around: p, reach: reach), to: p)
    }

    /// Ends the stroke at `p` (added first when it is not the newest sample): the pen's
    /// positions from where it is to just short of `p`, each the mean with a smaller reach. The
    /// caller then ends the stroke exactly at `p`.
    public mutating func finish(at p: StrokePoint) -> [StrokePoint] {
        if p.x != last.x || p.y != last.y { _ = add(p) }
        let steps = max(1, Int((reach * Self.drainStepsPerPixel).rounded(.up)))
        return (1..<steps).map { k in leashed(mean(around: last, reach: reach * Double(steps - k) / Double(steps)), to: last) }
    }

    /// `pen`, pulled along the line to `sample` until no farther from it than `lag`: on a steady
    /// line the mean is already that near, but after a pause the ring is full of the resting
    /// spot and the mean would hang back (a lazy rope of length `lag` on top of the mean).
    private func leashed(_ pen: StrokePoint, to sample: StrokePoint) -> StrokePoint {
        let d = Self.distance(pen, sample)
        guard d > lag else { return pen }
        return StrokePoint.lerp(pen, sample, (d - lag) / d)
    }

    private mutating func push(_ q: StrokePoint) {
        let slot = (oldest + count) % ring.count
        ring[slot] = q
        if count == ring.count { oldest = (oldest + 1) % ring.count } else { count += 1 }
    }

    private mutating func drop() {
        oldest = (oldest + 1) % ring.count
        count -= 1
    }

    /// The ring's points within `reach` of `centre`, weighted by how much nearer they are; the
    /// pressure is averaged alike. `centre` itself when no point is near enough.
    private func mean(around centre: StrokePoint, reach: Double) -> StrokePoint {
        var sx = 0.0, sy = 0.0, sp = 0.0, sw = 0.0
        var i = oldest
        for _ in 0..<count {
            let q = ring[i]
            let w = reach - Self.distance(q, centre)
            if w > 0 { sx += w * q.x; sy += w * q.y; sp += w * q.pressure; sw += w }
            i = i + 1 == ring.count ? 0 : i + 1
        }
        guard sw > 0 else { return centre }
        return StrokePoint(x: sx / sw, y: sy / sw, pressure: sp / sw)
    }

    private static func distance(_ a: StrokePoint, _ b: StrokePoint) -> Double {
        let dx = a.x - b.x, dy = a.y - b.y
        return (dx * dx + dy * dy).squareRoot()
    }

    /// Far-off coordinates (a replay may say 1e308) are clamped where nothing is drawn anyway.
    private static func bounded(_ p: StrokePoint) -> StrokePoint {
        StrokePoint(x: min(max(p.x, -1e9), 1e9), y: min(max(p.y, -1e9), 1e9), pressure: p.pressure)
    }
}
