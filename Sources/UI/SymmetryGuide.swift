import Geometry
import Kernels

/// Mirror painting's axes as the window shows them: lines through the centre, out to the
/// window's edges (a mirror's axis both ways, a rotation's spokes one way each, the first
/// pointing up), and a ring on the centre. In window pixels, made from the canvas's symmetry
/// through the view's map, so it turns with the view.
public struct SymmetryGuide: Equatable, Sendable {
    /// The centre, and each line's direction from it (unit vectors), in window pixels.
    public var x: Double, y: Double
    public var directions: [SIMD2<Double>]
    /// How far the lines reach: far enough to leave the window from anywhere in it.
    public var length: Double

    /// The guide of `symmetry` (nil when off) as shown through `toWindow` (canvas point →
    /// window point) in a window of `window`.
    public init?(_ symmetry: Symmetry, window: Size, toWindow: (Double, Double) -> (x: Double, y: Double)) {
        let canvasDirections: [SIMD2<Double>]
        switch symmetry.mode {
        case .off: return nil
        case .vertical: canvasDirections = [[0, -1], [0, 1]]
        case .horizontal: canvasDirections = [[-1, 0], [1, 0]]
        case .both: canvasDirections = [[0, -1], [0, 1], [-1, 0], [1, 0]]
        case .rotational:
            canvasDirections = symmetry.copies.map { c in SIMD2(c.xy * -1, c.yy * -1) }  // each copy's image of "up"
        }
        let c = toWindow(symmetry.x, symmetry.y)
        guard c.x.isFinite, c.y.isFinite else { return nil }
        x = c.x
        y = c.y
        directions = canvasDirections.compactMap { d in
            let p = toWindow(symmetry.x + d.x * 64, symmetry.y + d.y * 64)
            let v = SIMD2(p.x - c.x, p.y - c.y), n = (v * v).sum().squareRoot()
            return n > 0 && n.isFinite ? v / n : nil
        }
        // From the centre to the far side of the window, wherever the centre is.
        length = abs(c.x) + abs(c.y) + Double(window.width + window.height)
    }

    static let handleRadius = 5.0
    static let color = Color(r: 66, g: 133, b: 244, a: 190)

    /// The window pixels it touches.
    var rect: Rect {
        let r = Self.handleRadius + 2
        var box = Rect.covering(minX: x - r, minY: y - r, maxX: x + r, maxY: y + r)
        for d in directions {
            let e = SIMD2(x, y) + d * length
            box = box.union(Rect.covering(minX: min(x, e.x) - 2, minY: min(y, e.y) - 2, maxX: max(x, e.x) + 2, maxY: max(y, e.y) + 2))
        }
        return box
    }

    func draw(_ p: Painter) {
        for d in directions { ray(d, p) }
        p.ring(cx: x, cy: y, inner: Self.handleRadius, outer: Self.handleRadius + 1.5, Theme.dark)
        p.ring(cx: x, cy: y, inner: Self.handleRadius - 1.5, outer: Self.handleRadius, Theme.light)
    }

    /// A line 1.5 px wide from the centre along `d`: walked along its longer axis, each step
    /// covering the two or three pixels across it by their distance from it.
    private func ray(_ d: SIMD2<Double>, _ p: Painter) {
        let clip = p.clip
        guard !clip.isEmpty else { return }
        let half = 0.75
        let along = abs(d.x) >= abs(d.y) ? 0 : 1, across = 1 - along
        let o = SIMD2(x, y), e = o + d * length
        let lo = Swift.max(Int(Swift.min(o[along], e[along]).rounded(.down)), along == 0 ? clip.minX : clip.minY)
        let hi = Swift.min(Int(Swift.max(o[along], e[along]).rounded(.up)), along == 0 ? clip.maxX : clip.maxY)
        guard lo < hi else { return }
        let acrossRange = along == 0 ? clip.minY..<clip.maxY : clip.minX..<clip.maxX
        let slope = d[across] / d[along], cosine = abs(d[along])
        for i in lo..<hi {
            let t = (Double(i) + 0.5 - o[along]) / d[along]
            guard t >= 0 else { continue }
            let centre = o[across] + slope * (Double(i) + 0.5 - o[along])
            let first = Int((centre - 2).rounded(.down)), last = Int((centre + 2).rounded(.up))
            for j in first...last where acrossRange.contains(j) {
                let distance = abs(Double(j) + 0.5 - centre) * cosine
                let coverage = half + 0.5 - distance
                guard coverage > 0 else { continue }
                if along == 0 { p.blend(i, j, Self.color, coverage) } else { p.blend(j, i, Self.color, coverage) }
            }
        }
    }
}
