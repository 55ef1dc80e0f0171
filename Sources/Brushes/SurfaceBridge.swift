import CMyPaint
import Dabs
import Geometry

/// A `DabSurface` as libmypaint sees it: a `MyPaintSurface2` (and, through its first member, a
/// `MyPaintSurface`) whose callbacks hand every call to the Swift surface.
///
/// The C side is a `QSMyPaintSurface` (CMyPaint's shim.h): the MyPaintSurface2 first, so the
/// pointer libmypaint passes back is a pointer to the whole, then an unretained pointer to this
/// object, which owns the memory and outlives every call (libmypaint keeps no reference to a
/// surface after `stroke_to` returns). Both interfaces are served: `draw_dab_pigment`,
/// `get_color_pigment` and `end_atomic_multi` for `mypaint_brush_stroke_to_2`, and the first
/// interface's `draw_dab` (no posterize, no pigment), `get_color` (the legacy average) and
/// `end_atomic` for `mypaint_brush_stroke_to`.
public final class SurfaceBridge {
    public let surface: DabSurface
    /// The C struct libmypaint is given.
    let pointer: UnsafeMutablePointer<QSMyPaintSurface>

    public init(_ surface: DabSurface) {
        self.surface = surface
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: QSMyPaintSurface())
        pointer.pointee.owner = Unmanaged.passUnretained(self).toOpaque()
        pointer.pointee.surface.draw_dab_pigment = { s, x, y, radius, r, g, b, opaque, hardness, alphaEraser, aspect, angle, lock,
                                                     colorize, posterize, posterizeLevels, paint in
            let dab = Dab(x: x, y: y, radius: radius, r: r, g: g, b: b, opaque: opaque, hardness: hardness, alphaEraser: alphaEraser,
                          aspectRatio: aspect, angle: angle, lockAlpha: lock, colorize: colorize, posterize: posterize,
                          posterizeLevels: posterizeLevels, paint: paint)
            return SurfaceBridge.withOwner(of: UnsafeMutableRawPointer(s)) { $0.draw(dab) } == true ? 1 : 0
        }
        pointer.pointee.surface.get_color_pigment = { s, x, y, radius, r, g, b, a, paint in
            SurfaceBridge.withOwner(of: UnsafeMutableRawPointer(s)) { $0.answer(x: x, y: y, radius: radius, paint: paint, r, g, b, a) }
        }
        pointer.pointee.surface.end_atomic_multi = { s, rois in
            guard let damage = SurfaceBridge.withOwner(of: UnsafeMutableRawPointer(s), { $0.endAtomic() }) else { return }
            guard let rois, rois.pointee.num_rectangles > 0, let rects = rois.pointee.rectangles else { return }
            rects.pointee = SurfaceBridge.rectangle(damage)
            rois.pointee.num_rectangles = 1
        }
        pointer.pointee.surface.parent.begin_atomic = { s in
            SurfaceBridge.withOwner(of: UnsafeMutableRawPointer(s)) { $0.surface.beginAtomic() }
        }
        pointer.pointee.surface.parent.end_atomic = { s, roi in
            guard let damage = SurfaceBridge.withOwner(of: UnsafeMutableRawPointer(s), { $0.endAtomic() }) else { return }
            roi?.pointee = SurfaceBridge.rectangle(damage)
        }
        // The first interface, as libmypaint's own tiled surface adapts it: no posterize
        // (posterize_num 1.0), no pigment, the legacy colour average.
        pointer.pointee.surface.parent.draw_dab = { s, x, y, radius, r, g, b, opaque, hardness, alphaEraser, aspect, angle, lock,
                                                    colorize in
            let dab = Dab(x: x, y: y, radius: radius, r: r, g: g, b: b, opaque: opaque, hardness: hardness, alphaEraser: alphaEraser,
                          aspectRatio: aspect, angle: angle, lockAlpha: lock, colorize: colorize, posterize: 0, posterizeLevels: 1,
                          paint: 0)
            return SurfaceBridge.withOwner(of: UnsafeMutableRawPointer(s)) { $0.draw(dab) } == true ? 1 : 0
        }
        pointer.pointee.surface.parent.get_color = { s, x, y, radius, r, g, b, a in
            SurfaceBridge.withOwner(of: UnsafeMutableRawPointer(s)) { $0.answer(x: x, y: y, radius: radius, paint: -1, r, g, b, a) }
        }
    }

    /// Mirror painting: every dab is drawn again under each of its copies (libmypaint's tiled
    /// surface does the same with `MyPaintSymmetryData`), the brush's state one for all; the
    /// colour a smudging brush picks up is read where the stroke itself is.
    public var symmetry = Symmetry.off {
        didSet { mirrors = Array(symmetry.copies.dropFirst()) }
    }
    private var mirrors: [Symmetry.Copy] = []
    /// Where the surface's coordinates start on the canvas (the symmetry's axes are the canvas's).
    private var origin = (x: 0.0, y: 0.0)

    /// The brush's coordinates start at `o` on the canvas from now on (`DabSurface.setOrigin`).
    func setOrigin(_ o: (x: Int, y: Int)) {
        origin = (Double(o.x), Double(o.y))
        surface.setOrigin(x: o.x, y: o.y)
    }

    /// Draws `dab` and its copies; true when any of them changed something.
    private func draw(_ dab: Dab) -> Bool {
        var drew = surface.draw(dab)
        for m in mirrors {
            var copy = dab
            let p = m.apply(Double(dab.x) + origin.x, Double(dab.y) + origin.y)
            copy.x = Float(p.x - origin.x)
            copy.y = Float(p.y - origin.y)
            copy.angle = Float(m.angle(Double(dab.angle)))
            drew = surface.draw(copy) || drew
        }
        return drew
    }

    deinit {
        pointer.deinitialize(count: 1)
        pointer.deallocate()
    }

    /// What the last atomic section changed.
    public private(set) var lastDamage = Rect.empty

    /// Closes the surface's atomic section: what it changed, kept as `lastDamage` too.
    private func endAtomic() -> Rect {
        lastDamage = surface.endAtomic()
        return lastDamage
    }

    /// The surface as `mypaint_brush_stroke_to_2` takes it.
    var surface2: UnsafeMutablePointer<MyPaintSurface2> {
        UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: MyPaintSurface2.self)
    }

    /// The surface as the first interface (`mypaint_brush_stroke_to`, begin/end_atomic) takes it.
    var surface1: UnsafeMutablePointer<MyPaintSurface> {
        UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: MyPaintSurface.self)
    }

    /// `body` given the bridge a callback's surface pointer belongs to, borrowed: it outlives the
    /// call (see the type's comment). A reference taken for every dab cost a retain and a release,
    /// about 3 % of the thread that runs libmypaint.
    static func withOwner<R>(of surface: UnsafeMutableRawPointer?, _ body: (SurfaceBridge) -> R) -> R? {
        guard let owner = surface?.assumingMemoryBound(to: QSMyPaintSurface.self).pointee.owner else { return nil }
        return Unmanaged<SurfaceBridge>.fromOpaque(owner)._withUnsafeGuaranteedRef(body)
    }

    private func answer(x: Float, y: Float, radius: Float, paint: Float, _ r: UnsafeMutablePointer<Float>?, _ g: UnsafeMutablePointer<Float>?,
                        _ b: UnsafeMutablePointer<Float>?, _ a: UnsafeMutablePointer<Float>?) {
        let c = surface.sampleColor(x: x, y: y, radius: radius, paint: paint)
        r?.pointee = c.r
        g?.pointee = c.g
        b?.pointee = c.b
        a?.pointee = c.a
    }

    static func rectangle(_ r: Rect) -> MyPaintRectangle {
        r.isEmpty ? MyPaintRectangle(x: 0, y: 0, width: 0, height: 0)
            : MyPaintRectangle(x: Int32(clamping: r.minX), y: Int32(clamping: r.minY), width: Int32(clamping: r.width),
                               height: Int32(clamping: r.height))
    }
}
