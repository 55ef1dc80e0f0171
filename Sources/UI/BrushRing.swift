import Compute
import Foundation

/// The pop-up palette's ring of favourite MyPaint brushes, as Krita's pop-up palette rings its
/// presets round the colour selector: up to `count` brushes, each shown by its preview icon (the
/// `_prev.png` beside its .myb), the first at the top and on clockwise, the current one framed.
/// Pure layout in the palette's coordinates, around its centre.
public struct BrushRing: Equatable, Sendable {
    /// The brushes, "pack/name", the first at the top (at most `count`).
    public var brushes: [String]
    /// The MyPaint brush in use, framed where it is on the ring.
    public var current: String?

    /// How many brushes the ring holds.
    public static let count = 10
    // At scale 1: the icons' centres lie `radius` from the palette's centre.
    static let radius = 155.0, icon = 34.0
    /// How far the ring reaches from the palette's centre, at scale 1.
    static let reach = radius + icon / 2 + 4

    public init(brushes: [String], current: String?) {
        self.brushes = Array(brushes.prefix(Self.count))
        self.current = current
    }

    /// An icon's side in window pixels at `scale` (what a `BrushIcons` is asked for).
    public static func iconSide(scale: Double) -> Int { Int((icon * scale).rounded()) }

    /// Where brush `i`'s icon lies, the palette's centre at (c, c), at whole pixels.
    func box(_ i: Int, centre c: Double, scale u: Double) -> Box {
        let angle = -Double.pi / 2 + Double(i) * 2 * Double.pi / Double(Self.count)
        let side = Double(Self.iconSide(scale: u))
        let x = (c + cos(angle) * Self.radius * u - side / 2).rounded(), y = (c + sin(angle) * Self.radius * u - side / 2).rounded()
        return Box(x: x, y: y, width: side, height: side)
    }

    /// The brush whose icon (or the few pixels round it) is at (x, y).
    func hit(_ x: Double, _ y: Double, centre c: Double, scale u: Double) -> String? {
        brushes.indices.first { box($0, centre: c, scale: u).inset(by: -2 * u).contains(x, y) }.map { brushes[$0] }
    }

    /// Draws each brush's icon (`icon` gives it at `iconSide`), the current one framed in the
    /// selection colour; an empty slot is a dim ring.
    func draw(_ p: Painter, centre c: Double, scale u: Double, icon: (String) -> Texture<UInt32>?) {
        for i in 0..<Self.count {
            let b = box(i, centre: c, scale: u)
            guard i < brushes.count else {
                p.ring(cx: b.midX, cy: b.midY, inner: b.width / 2 - u, outer: b.width / 2, Theme.raised)
                continue
            }
            p.brushIcon(icon(brushes[i]), in: b, chosen: brushes[i] == current, scale: u)
        }
    }
}
