import Strokes

/// A lazy rope (Lazy Nezumi's, Krita's "dynamic" smoothing), for the stabilizer table's
/// comparison: the pen is pulled by a string of length `length` and moves only when the string is
/// taut. It does not catch up when the pen lifts: the stroke ends where the pen is.
public struct LazyRope {
    /// The string's length, pixels.
    public let length: Double

    /// A rope `length` pixels long.
    public init(length: Double) { self.length = length }

    /// The pen's positions for `samples`.
    public func pens(_ samples: [StrokePoint]) -> [StrokePoint] {
        guard var pen = samples.first else { return [] }
        return samples.map { s in
            let dx = s.x - pen.x, dy = s.y - pen.y
            let d = (dx * dx + dy * dy).squareRoot()
            if d > length { pen = StrokePoint(x: pen.x + dx * (d - length) / d, y: pen.y + dy * (d - length) / d, pressure: s.pressure) }
            return pen
        }
    }
}
