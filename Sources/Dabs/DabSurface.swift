import Geometry
import Kernels

/// A colour with straight alpha, each channel 0…1: what `DabSurface.sampleColor` answers.
public typealias SampledColor = DabSampler.Sample

/// Where dabs go: the shape of libmypaint's MyPaintSurface2, plus the end of a stroke.
///
/// A brush engine (libmypaint through the Brushes module; the pen, the pixel pen and the
/// mercurial brush later, see docs/brushes.md) describes dabs and never touches pixels. Dabs
/// arrive in atomic sections (`beginAtomic` … `endAtomic`, one pointer event's worth); a surface
/// may lay them at once or when the section ends, but `sampleColor` always sees every dab drawn
/// before it. `endStroke` says the stroke is over: what it painted becomes the layer's.
public protocol DabSurface: AnyObject {
    /// Opens an atomic section.
    func beginAtomic()
    /// Lays `dab` (or queues it until the section ends). False when it changes nothing: a radius
    /// under 0.1 px, hardness 0 or opacity 0, as libmypaint's surface decides.
    @discardableResult func draw(_ dab: Dab) -> Bool
    /// The colour under a round dab of hardness 0.5 at (x, y): libmypaint's get_color, every dab
    /// drawn so far included. `paint` < 0 averages as libmypaint's legacy get_color does; 0…1
    /// samples as get_color_pigment does, mixing that much as pigment.
    func sampleColor(x: Float, y: Float, radius: Float, paint: Float) -> SampledColor
    /// Closes the atomic section, every dab laid; returns the rectangle they changed (empty when
    /// none), as libmypaint's end_atomic does.
    func endAtomic() -> Rect
    /// The stroke is over: its paint becomes the layer's.
    func endStroke()
    /// Dabs and colour reads from now on are at (`x`, `y`) plus their own position, `x` and `y`
    /// multiples of 64: a brush far out on the canvas works near zero, where a `Float` position
    /// is exact enough (its step is 1/16 px at 10⁶ and 128 px at 2³⁰). Called between strokes.
    func setOrigin(x: Int, y: Int)
}

/// The depth a stroke is painted at (docs/brushes.md has the measurements that chose `perStroke`).
public enum DabPrecision: String, Sendable, CaseIterable {
    /// Every dab rounded to the layer's 8 bits as it is laid: what blending straight into 8-bit
    /// tiles gives. Low-opacity dabs vanish.
    case eightBit
    /// 15-bit working tiles for the stroke, rounded to 8 bits once when it ends.
    case perStroke
    /// 15 bits kept for good: the layer never rounded (what MyPaint itself does, at twice the memory).
    case fifteenBit
}
