/// Steadies a shaky hand: the pen follows the mean of the path's last `window` pixels of arc
/// length, so jitter averages out while the line keeps its course.
///
/// The path is resampled every `step` pixels of arc length (the remainder carried, as dab
/// spacing is) into a ring of the newest `window / step` points, whose mean is the pen's
/// position. A box filter over arc length lags by half its window on a steady line, and not at
/// all where the hand stops: the mean catches up as the ring fills with the resting point. On
/// release the stroke is finished at the last sample itself (the caller draws straight to it).
///
/// Why arc length and not time (Krita resamples by time; MyPaint's slow tracking is a one-pole
/// filter in time; AzPainter averages a fixed count of samples): a stroke's geometry must depend
/// only on its samples, never on when they arrived, so that a replay (whose samples carry frame
/// times, not event times) draws exactly what the window drew; and a window in pixels smooths a
/// slow hand and a fast one alike. Sums are kept in fixed point, so adding and removing points
/// for hours never drifts, and each sample costs at most one ring's worth of points, whatever
/// the stroke's length.
public struct Stabilizer: Sendable {
    /// 0…1; 0 is off (no stabilizer is made).
    public let strength: Double
    /// Arc length averaged, in pixels: up to `maxWindow` at full strength.
    public let window: Double
    /// Resampling distance, pixels.
    public static let step = 0.5
    /// The window at full strength.
    public static let maxWindow = 64.0

    /// Fixed point: positions in 1/256 px, pressure in 1/65536.
    private static let positionScale = 256.0, pressureScale = 65536.0
    private var ring: [(x: Int64, y: Int64, p: Int64)]
    private var head = 0, count = 0
    private var sumX: Int64 = 0, sumY: Int64 = 0, sumP: Int64 = 0
    private var last: StrokePoint
    /// Arc length still to go before the next resampled point.
    private var toNext = 0.0
    /// Points resampled by the last `add` (a bound on its cost: at most the ring's capacity).
    public private(set) var lastWork = 0

    /// The ring holds this many points.
    public var capacity: Int { ring.count }

    public init(strength: Double, start: StrokePoint) {
        self.strength = min(max(strength, 0), 1)
        window = max(Self.step, self.strength * Self.maxWindow)
        ring = Array(repeating: (0, 0, 0), count: max(1, Int((window / Self.step).rounded())))
        last = start
        push(start)
        toNext = Self.step
    }

    /// The pen's position after sample `p`.
    public mutating func add(_ p: StrokePoint) -> StrokePoint {
        let dx = p.x - last.x, dy = p.y - last.y
        let length = (dx * dx + dy * dy).squareRoot()
        lastWork = 0
        if length.isFinite, length > 0 {
            // Only the newest `capacity` points of a long segment can stay in the ring.
            var travelled = toNext
            let skipped = max(0, Int(((length - travelled) / Self.step).rounded(.down)) + 1 - capacity)
            travelled += Double(skipped) * Self.step
            while travelled <= length {
                push(StrokePoint.lerp(last, p, travelled / length))
                lastWork += 1
                travelled += Self.step
            }
            toNext = travelled - length
        }
        last = p
        return mean(pressure: p.pressure)
    }

    private mutating func push(_ q: StrokePoint) {
        // Far-off coordinates (a replay may say 1e308) are clamped where nothing is drawn anyway.
        func fixed(_ v: Double) -> Int64 { Int64((min(max(v, -1e12), 1e12) * Self.positionScale).rounded()) }
        let x = fixed(q.x), y = fixed(q.y)
        let p = Int64((q.pressure * Self.pressureScale).rounded())
        if count == ring.count {
            let old = ring[head]
            sumX -= old.x; sumY -= old.y; sumP -= old.p
        } else {
            count += 1
        }
        ring[head] = (x, y, p)
        sumX += x; sumY += y; sumP += p
        head = (head + 1) % ring.count
    }

    /// The ring's mean; the pressure is the newest sample's own when the ring holds one point.
    private func mean(pressure: Double) -> StrokePoint {
        let n = Double(count)
        return StrokePoint(x: Double(sumX) / n / Self.positionScale, y: Double(sumY) / n / Self.positionScale,
                           pressure: count == 1 ? pressure : Double(sumP) / n / Self.pressureScale)
    }
}
