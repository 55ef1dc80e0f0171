import Strokes

/// The first `Stabilizer`, kept as the reference the bench and the tests compare with: the pen
/// follows the plain mean of the path's last `window` pixels of arc length (64 at full
/// strength), resampled every half pixel, and jumps straight to the last sample on release. A
/// heavy tremor uses the window up: the path is several times longer than the travel.
public struct PathAverage {
    /// Resampling distance, pixels.
    public static let step = 0.5
    /// Arc length averaged, pixels.
    public let window: Double
    private var ring: [StrokePoint]
    private var head = 0, count = 0
    private var sumX = 0.0, sumY = 0.0
    private var last: StrokePoint
    private var toNext = step

    /// An average over `window` pixels of path, the pen at `start`.
    public init(window: Double = 64, start: StrokePoint) {
        self.window = window
        ring = Array(repeating: start, count: Int((window / Self.step).rounded()))
        last = start
        push(start)
    }

    /// The pen's position after sample `p`.
    public mutating func add(_ p: StrokePoint) -> StrokePoint {
        let dx = p.x - last.x, dy = p.y - last.y
        let length = (dx * dx + dy * dy).squareRoot()
        if length > 0 {
            var travelled = toNext
            while travelled <= length {
                push(StrokePoint(x: last.x + dx * travelled / length, y: last.y + dy * travelled / length, pressure: p.pressure))
                travelled += Self.step
            }
            toNext = travelled - length
        }
        last = p
        return StrokePoint(x: sumX / Double(count), y: sumY / Double(count), pressure: p.pressure)
    }

    /// The pen's positions for `samples`, as the first version fed it: the last sample ends
    /// the stroke directly.
    public static func pens(_ samples: [StrokePoint]) -> [StrokePoint] {
        guard let first = samples.first, let last = samples.last, samples.count > 1 else { return samples }
        var average = PathAverage(start: first)
        return [first] + samples.dropFirst().dropLast().map { average.add($0) } + [last]
    }

    private mutating func push(_ q: StrokePoint) {
        if count == ring.count {
            sumX -= ring[head].x; sumY -= ring[head].y
        } else {
            count += 1
        }
        ring[head] = q
        sumX += q.x; sumY += q.y
        head = (head + 1) % ring.count
    }
}
