import Geometry
import Strokes

/// The footprint of the brush under the pointer: a dark ring with a light one inside it, so it
/// reads on any paint, of the radius the brush would paint at (in window pixels: its size at
/// the current pressure, times the zoom).
public struct BrushOutline: Equatable, Sendable {
    public var x: Double, y: Double
    public var radius: Double

    public init(x: Double, y: Double, radius: Double) { self.x = x; self.y = y; self.radius = radius }

    /// The outline of `tip` at `pressure` under window point (x, y), at `zoom`: the radius each
    /// kind paints at (the pixel pen's whole pixels, the mercurial brush's spray reach).
    public init(x: Double, y: Double, tip: BrushTip, pressure: Double, zoom: Double) {
        let canvasRadius = switch tip.kind {
        case .pen, .eraser: tip.diameter(pressure: pressure) / 2
        case .pixel: Double(Int(tip.diameter(pressure: pressure) / 2)) + 0.5
        case .mercurial: Double(tip.size) * pressure
        }
        self.init(x: x, y: y, radius: canvasRadius * zoom)
    }

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
