import Geometry

/// The footprint of the brush under the pointer: a dark ring with a light one inside it, so it
/// reads on any paint, of the radius the brush would paint at (in window pixels: its size at
/// the current pressure, times the zoom).
public struct BrushOutline: Equatable, Sendable {
    public var x: Double, y: Double
    public var radius: Double

    public init(x: Double, y: Double, radius: Double) { self.x = x; self.y = y; self.radius = radius }

    /// Never smaller than this: a 1-pixel brush still shows where it is.
    static let smallest = 3.0

    var shownRadius: Double { max(radius, Self.smallest) }

    /// The window pixels it touches.
    var rect: Rect {
        let r = shownRadius + 2
        return Box(x: x - r, y: y - r, width: 2 * r, height: 2 * r).covering
    }

    func draw(_ p: Painter) {
        let r = shownRadius
        p.ring(cx: x, cy: y, inner: r, outer: r + 1, Theme.dark)
        p.ring(cx: x, cy: y, inner: r - 1, outer: r, Theme.light)
    }
}
