import CMyPaint
import Dabs
import Geometry
import Kernels

/// One pointer event of a recording: its time, position, pressure and tilt.
public struct BrushEvent: Sendable, Equatable {
    /// Seconds (the event's own time, not its frame's).
    public var t: Double
    /// Canvas pixels.
    public var x: Double, y: Double
    /// 0…1; 0 is the pen up (an `up`, or the pen hovering).
    public var pressure: Double
    /// −1…1 each; 0 when the device has no tilt.
    public var xtilt: Double, ytilt: Double

    public init(t: Double, x: Double, y: Double, pressure: Double, xtilt: Double = 0, ytilt: Double = 0) {
        self.t = t; self.x = x; self.y = y; self.pressure = pressure; self.xtilt = xtilt; self.ytilt = ytilt
    }
}

/// Plays pointer events with a MyPaint brush onto a dab surface, by the playing protocol
/// (docs/brushes.md), the one `render` and the libmypaint comparison both follow:
///
/// 1. The brush is made anew (`BrushEngine`: libmypaint's defaults, then the brush's settings)
///    and its colour set from `color` through its HSV base values.
/// 2. Each event, in order, is one `mypaint_brush_stroke_to_2` in its own atomic section
///    (`begin_atomic` … `end_atomic`), with dtime = this event's t − the previous event's t
///    (`firstDtime` for the first), view zoom `viewZoom`, view rotation `viewRotation`, barrel
///    rotation 0. An up is an event of pressure 0 at its position.
/// 3. An event of pressure 0 after events of pressure above 0 ends the stroke
///    (`DabSurface.endStroke`), after its `stroke_to`; so does any event of pressure 0 whose
///    `stroke_to` painted (a brush that paints while the pen hovers), and `finish`.
public final class BrushPlayer {
    public let engine: BrushEngine
    public let bridge: SurfaceBridge
    public var viewZoom: Float = 1
    public var viewRotation: Float = 0
    private var previousT: Double?
    /// The first event's dtime: over libmypaint's 5 s, after which it resets a brush where the
    /// event is. A brush just made sits at (0, 0), and libmypaint smooths (slow tracking) before
    /// it resets: with a dtime of 0 a charcoal's first stroke was drawn in from the corner.
    public static let firstDtime = 10.0
    private var strokeOpen = false
    /// Strokes ended on the surface so far (`DabSurface.endStroke` calls).
    public private(set) var strokesEnded = 0
    /// Where the coordinates libmypaint is given start on the canvas (nil until the first
    /// event). libmypaint keeps positions in `Float`, whose step is 1/16 px at 10⁶ px and 128 px
    /// at 2³⁰, so a brush is played near zero: from the multiple of `originStep` nearest its
    /// first event, moved (with the brush's state and the surface's origin) to the one nearest
    /// an event more than `originStep` away that comes with no stroke open. Every decision
    /// depends only on where events are relative to each other, so a replay moved by a
    /// multiple of `originStep` paints the same pixels, moved; near (0, 0), as libmypaint's own
    /// tests paint, the origin is (0, 0) and nothing changes.
    public private(set) var origin: (x: Int, y: Int)?
    public static let originStep = 1 << 15

    public init(settings: BrushSettings, color: Color, surface: DabSurface, legacy: Bool = false, path: String = "brush") throws(BrushError) {
        engine = try BrushEngine(settings: settings, legacy: legacy, path: path)
        engine.setColor(color)
        bridge = SurfaceBridge(surface)
    }

    /// Plays one event; returns the rectangle it changed.
    @discardableResult public func play(_ e: BrushEvent) -> Rect {
        let dtime = previousT.map { e.t - $0 } ?? Self.firstDtime
        previousT = e.t
        if !strokeOpen { follow(e) }
        let o = origin ?? (0, 0)
        let input = BrushInput(x: Float(e.x - Double(o.x)), y: Float(e.y - Double(o.y)), pressure: Float(e.pressure), xtilt: Float(e.xtilt), ytilt: Float(e.ytilt),
                               viewZoom: viewZoom, viewRotation: viewRotation)
        mypaint_surface_begin_atomic(bridge.surface1)
        engine.strokeTo(input, dtime: dtime, on: bridge)
        if engine.legacy {
            var roi = MyPaintRectangle()
            mypaint_surface_end_atomic(bridge.surface1, &roi)
        } else {
            var rect = MyPaintRectangle()
            withUnsafeMutablePointer(to: &rect) { r in
                var rois = MyPaintRectangles(num_rectangles: 1, rectangles: r)
                mypaint_surface2_end_atomic(bridge.surface2, &rois)
            }
        }
        let damage = bridge.lastDamage
        if e.pressure > 0 {
            strokeOpen = true
        } else if strokeOpen || !damage.isEmpty {
            bridge.surface.endStroke()
            strokesEnded += 1
            strokeOpen = false
        }
        return damage
    }

    /// Moves the origin to the multiple of `originStep` nearest `e` when it is the first event,
    /// or more than `originStep` away from the origin.
    private func follow(_ e: BrushEvent) {
        let step = Double(Self.originStep), limit = Double(Int32.max)
        guard e.x.isFinite, e.y.isFinite else { return }
        let nearest = (x: Int(min(max((e.x / step).rounded(), -limit), limit)) * Self.originStep,
                       y: Int(min(max((e.y / step).rounded(), -limit), limit)) * Self.originStep)
        guard let o = origin else {
            origin = nearest
            bridge.setOrigin(nearest)
            return
        }
        guard abs(e.x - Double(o.x)) > step || abs(e.y - Double(o.y)) > step else { return }
        engine.move(dx: Float(o.x - nearest.x), dy: Float(o.y - nearest.y))
        origin = nearest
        bridge.setOrigin(nearest)
    }

    /// Ends a stroke left open (the events ended with the pen down).
    public func finish() {
        if strokeOpen {
            bridge.surface.endStroke()
            strokesEnded += 1
        }
        strokeOpen = false
    }

    /// Plays `events` with a brush made anew, onto `surface`, and ends the last stroke; returns
    /// the rectangle they changed.
    @discardableResult
    public static func play(_ events: [BrushEvent], settings: BrushSettings, color: Color, on surface: DabSurface,
                            legacy: Bool = false) throws(BrushError) -> Rect {
        let player = try BrushPlayer(settings: settings, color: color, surface: surface, legacy: legacy)
        var damage = Rect.empty
        for e in events { damage = damage.union(player.play(e)) }
        player.finish()
        return damage
    }
}
