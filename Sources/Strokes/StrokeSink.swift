import Geometry

/// Where a stroke's geometry goes: the libmypaint `MyPaintSurface` idea. The sink owns pixels;
/// the brush engine only describes shapes.
public protocol StrokeSink {
    /// Geometry wholly outside this rectangle is skipped (and costs nothing).
    var clip: Rect { get }
    /// An anti-aliased round dab centred at (x, y) in canvas pixels (pixel centres at +0.5).
    mutating func dab(x: Double, y: Double, radius: Double)
    /// A hard horizontal run of full coverage: pixels `x0..<x1` of row `y`, already clipped.
    mutating func span(y: Int, x0: Int, x1: Int)
}

/// A sink that only records what it is given: for tests and for measuring geometry.
public struct RecordingSink: StrokeSink {
    public struct Dab: Equatable, Sendable {
        public var x, y, radius: Double
        public init(x: Double, y: Double, radius: Double) { self.x = x; self.y = y; self.radius = radius }
    }
    public var clip: Rect
    public private(set) var dabs: [Dab] = []
    public private(set) var spans: [(y: Int, x0: Int, x1: Int)] = []
    public init(clip: Rect) { self.clip = clip }
    public mutating func dab(x: Double, y: Double, radius: Double) { dabs.append(Dab(x: x, y: y, radius: radius)) }
    public mutating func span(y: Int, x0: Int, x1: Int) { spans.append((y, x0, x1)) }
}
