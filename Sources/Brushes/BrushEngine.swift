import CMalloc
import CMyPaint
import Kernels
import Synchronization

/// One libmypaint brush: the dynamics (where dabs go, how big, what colour, how opaque) of a .myb
/// brush, driven one pointer event at a time. It never touches pixels: its dabs go to the
/// `DabSurface` behind a `SurfaceBridge`.
///
/// Made as libmypaint's own tests make a brush: `mypaint_brush_new`, `mypaint_brush_from_defaults`
/// (every setting a file leaves out keeps libmypaint's default: pigment mode on, for one), then
/// the checked settings through `mypaint_brush_from_string`.
public final class BrushEngine {
    private let brush: OpaquePointer

    /// Drives the legacy interface (`mypaint_brush_stroke_to` on a MyPaintSurface: libmypaint 1.x's
    /// dab count, no pigment, no posterize) rather than `mypaint_brush_stroke_to_2`.
    public let legacy: Bool

    public init(settings: BrushSettings, legacy: Bool = false, path: String = "brush") throws(BrushError) {
        // libmypaint 1.6 reads a brush's setting values before it first computes them (the top of
        // update_states_and_setting_values copies three into the state), so whatever malloc hands
        // mypaint_brush_new would decide the first dabs, and a brush would paint differently from
        // run to run. Zeroed here: malloc fills what it hands out with the complement of
        // M_PERTURB's byte. Tests/Bench/mypaint-render.c does the same. The setting is the
        // process's: two brushes made at once on two threads would each turn it off while the
        // other allocates, so brushes are made one at a time.
        let made = Self.oneAtATime.withLock { _ in
            mallopt(M_PERTURB, 0xff)
            defer { mallopt(M_PERTURB, 0) }
            return mypaint_brush_new()
        }
        guard let brush = made else { throw BrushError(path: path, message: "libmypaint could not make a brush") }
        self.brush = brush
        self.legacy = legacy
        mypaint_brush_from_defaults(brush)
        guard mypaint_brush_from_string(brush, settings.json) != 0 else {
            throw BrushError(path: path, message: "libmypaint refused the brush's settings")
        }
    }

    deinit { mypaint_brush_unref(brush) }

    /// Sets the brush's colour: its HSV base values (color_h, color_s, color_v), from the colour's
    /// hexcone hue, saturation and value.
    public func setColor(_ color: Color) {
        let hsv = HSV.components(of: color)
        mypaint_brush_set_base_value(brush, MYPAINT_BRUSH_SETTING_COLOR_H, Float(hsv.h))
        mypaint_brush_set_base_value(brush, MYPAINT_BRUSH_SETTING_COLOR_S, Float(hsv.s))
        mypaint_brush_set_base_value(brush, MYPAINT_BRUSH_SETTING_COLOR_V, Float(hsv.v))
    }

    /// A base value, by libmypaint's name for the setting (nil for a name it does not know).
    public func baseValue(_ name: String) -> Float? {
        guard BrushSettings.knownSetting(name) else { return nil }
        return mypaint_brush_get_base_value(brush, mypaint_brush_setting_from_cname(name))
    }

    /// Moves the brush's position (its states x, y, actual_x and actual_y) by `dx`, `dy`: the
    /// coordinates it is played in start elsewhere. Exact for the moves `BrushPlayer` makes
    /// (multiples of 2¹⁵ px, toward zero). libmypaint's private `skip_last_x`/`_y` stay, so a
    /// brush with tracking noise ends a skip at once after a move, as after a jump.
    public func move(dx: Float, dy: Float) {
        for (state, d) in [(MYPAINT_BRUSH_STATE_X, dx), (MYPAINT_BRUSH_STATE_Y, dy), (MYPAINT_BRUSH_STATE_ACTUAL_X, dx),
                           (MYPAINT_BRUSH_STATE_ACTUAL_Y, dy)] {
            mypaint_brush_set_state(brush, state, mypaint_brush_get_state(brush, state) + d)
        }
    }

    /// One `stroke_to`: moves the brush to the event's position over `dtime` seconds, drawing the
    /// dabs between on `bridge`'s surface (not inside an atomic section of its own: the caller
    /// opens and closes one).
    public func strokeTo(_ input: BrushInput, dtime: Double, on bridge: SurfaceBridge) {
        Self.oneAtATime.withLock { _ in stroke(input, dtime: dtime, on: bridge) }
    }

    /// libmypaint 1.6 mixes smudge and brush colours in one static buffer of the library's
    /// (`mix_colors` returns it, helpers.c:566), so two brushes stroking at once on two threads
    /// read each other's mixes: strokes take turns in the process. Uncontended in the window,
    /// where one brush paints at a time.
    private static let oneAtATime = Mutex(())

    private func stroke(_ input: BrushInput, dtime: Double, on bridge: SurfaceBridge) {
        if legacy {
            _ = mypaint_brush_stroke_to(brush, bridge.surface1, input.x, input.y, input.pressure, input.xtilt, input.ytilt, dtime)
        } else {
            _ = mypaint_brush_stroke_to_2(brush, bridge.surface2, input.x, input.y, input.pressure, input.xtilt, input.ytilt, dtime,
                                          input.viewZoom, input.viewRotation, input.barrelRotation)
        }
    }
}

/// What one pointer event tells a brush, in libmypaint's units.
public struct BrushInput: Sendable, Equatable {
    /// The position in canvas pixels.
    public var x: Float, y: Float
    /// 0…1; 0 is the pen up.
    public var pressure: Float
    /// The pen's tilt, each −1…1 (0, 0: upright).
    public var xtilt: Float, ytilt: Float
    /// The view's zoom (1: 100 %) and rotation (degrees), and the pen barrel's rotation (0…1 of a turn).
    public var viewZoom: Float, viewRotation: Float, barrelRotation: Float

    public init(x: Float, y: Float, pressure: Float, xtilt: Float = 0, ytilt: Float = 0, viewZoom: Float = 1,
                viewRotation: Float = 0, barrelRotation: Float = 0) {
        self.x = x; self.y = y; self.pressure = pressure; self.xtilt = xtilt; self.ytilt = ytilt
        self.viewZoom = viewZoom; self.viewRotation = viewRotation; self.barrelRotation = barrelRotation
    }
}
