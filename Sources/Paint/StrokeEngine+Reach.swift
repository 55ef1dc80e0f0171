import Geometry
import Strokes

/// How far strokes reach on the endless canvas: a pen stroke, and the mercurial brush's dense
/// buffers.
extension StrokeEngine {
    /// How far from where it started a pen stroke draws, each way: beyond a hand's reach at
    /// the zooms a painter uses (a 4K window at 1/8 shows 30,720 pixels), and what keeps a
    /// stray sample flung 10⁹ pixels away from drawing that far (a line of 10⁹ dabs, a
    /// million tiles).
    static let strokeReach = 1 << 15

    /// Where a pen stroke starting at `s` draws: `strokeReach` around `s`, on the plane.
    /// Measured from the stroke's own start, not the frame, so that a stroke moved by whole
    /// tiles draws the same pixels, moved.
    static func reach(of s: StrokePoint) -> Rect {
        let r = Double(strokeReach)
        guard s.x.isFinite, s.y.isFinite, abs(s.x) < 1e15, abs(s.y) < 1e15 else { return .empty }
        return Rect.covering(minX: s.x - r, minY: s.y - r, maxX: s.x + r, maxY: s.y + r).intersection(.plane)
    }

    /// The corner of the mercurial brush's dense buffers for a stroke beginning at `s`: a
    /// frame's size up and left of it, on the 64-px grid, so the stroke reaches at least a
    /// frame's size each way wherever it begins, in the frame or beyond it.
    func mercurialOrigin(of s: StrokePoint) -> (x: Int, y: Int) {
        func corner(_ v: Double, _ side: Int) -> Int { v.isFinite && abs(v) < 1e15 ? (Int(v.rounded(.down)) - side) & ~63 : 0 }
        return (corner(s.x, size.width), corner(s.y, size.height))
    }
}
