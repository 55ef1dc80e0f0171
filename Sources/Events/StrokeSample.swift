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

    public init(x: Double, y: Double, pressure: Double, mods: Modifiers = []) {
        self.x = x; self.y = y; self.pressure = pressure; self.mods = mods
    }

    /// The point the stroke engine draws.
    public var point: StrokePoint { StrokePoint(x: x, y: y, pressure: pressure) }
}
