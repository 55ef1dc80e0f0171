import Input
import Strokes

/// A pointer sample as the session draws it and a replay records it: its pressure decided.
public struct StrokeSample: Sendable, Equatable {
    /// Canvas pixels; any finite value (far outside the canvas is fine: it is clipped).
    public var x: Double
    public var y: Double
    /// 0…1; `BrushTip.nominalPressure` paints a brush at its nominal size.
    public var pressure: Double
    /// The modifier keys held (recorded; the pressure already reflects them).
    public var mods: Modifiers
    /// The pen's tilt, −1…1 each way (0: upright, or a device without tilt): a replay line's
    /// `"xtilt"` and `"ytilt"`. MyPaint brushes read it.
    public var xtilt: Double
    public var ytilt: Double
    /// When the sample was taken, seconds: its line's `"t"`, which the parser puts here too (a
    /// MyPaint brush's dtime is the difference between two samples' times). In the window it is
    /// the window's own time of the sample, until a frame that plays it with a MyPaint brush
    /// gives it the journal's (`Session.stampQueued`). Not part of what the sample is: two samples that differ only in
    /// it are equal.
    public var t: Double

    public init(x: Double, y: Double, pressure: Double, mods: Modifiers = [], xtilt: Double = 0, ytilt: Double = 0, t: Double = 0) {
        self.x = x; self.y = y; self.pressure = pressure; self.mods = mods; self.xtilt = xtilt; self.ytilt = ytilt; self.t = t
    }

    /// The point the stroke engine draws.
    public var point: StrokePoint { StrokePoint(x: x, y: y, pressure: pressure) }

    public static func == (a: StrokeSample, b: StrokeSample) -> Bool {
        a.x == b.x && a.y == b.y && a.pressure == b.pressure && a.mods == b.mods && a.xtilt == b.xtilt && a.ytilt == b.ytilt
    }
}
