import Geometry

/// Where a stroke's geometry goes: the libmypaint `MyPaintSurface` idea, as a batch. The brush
/// engine only describes shapes here, in order; whoever owns the pixels draws the batch in one
/// go (the stroke layer stamps it into its mask) and empties it for the next sample. One hand-over
/// per sample rather than a call per dab, and the engine's loops compiled for this one type.
public struct StrokeSink: Sendable {
    /// An anti-aliased round dab centred at (x, y) in canvas pixels (pixel centres at +0.5).
    public struct Dab: Equatable, Sendable {
        public var x, y, radius: Double
        public init(x: Double, y: Double, radius: Double) { self.x = x; self.y = y; self.radius = radius }
    }
    /// A hard horizontal run of full coverage: pixels `x0..<x1` of row `y`, already clipped.
    public struct Span: Equatable, Sendable {
        public var y, x0, x1: Int
        public init(y: Int, x0: Int, x1: Int) { self.y = y; self.x0 = x0; self.x1 = x1 }
    }

    /// Geometry wholly outside this rectangle is skipped (and costs nothing).
    public var clip: Rect
    public private(set) var dabs: [Dab] = []
    public private(set) var spans: [Span] = []

    @inlinable public init(clip: Rect) { self.clip = clip }

    public mutating func dab(x: Double, y: Double, radius: Double) { dabs.append(Dab(x: x, y: y, radius: radius)) }
    public mutating func span(y: Int, x0: Int, x1: Int) { spans.append(Span(y: y, x0: x0, x1: x1)) }

    /// Empties the batch, keeping its storage for the next.
    public mutating func removeAll() {
        dabs.removeAll(keepingCapacity: true)
        spans.removeAll(keepingCapacity: true)
    }
}
