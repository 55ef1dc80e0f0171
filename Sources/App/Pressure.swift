import Events
import Input
import Strokes

/// Decides the pressure of every pointer sample, in one place: the device's own when it has
/// one, else simulated from the modifier keys (`PressureSimulator`). What it returns is what the
/// session draws with, the journal keeps and a recording stores, so replays are exact.
public struct Pressure: Sendable, Equatable {
    private var simulator = PressureSimulator()
    /// The last decided sample's pressure came from its device (a tablet's pen).
    public private(set) var fromDevice = false
    private var lastDevicePressure = BrushTip.nominalPressure

    public init() {}

    /// The simulated pressure now.
    public var simulated: Double { simulator.value }

    /// What the title shows: the pressure now, and where it comes from.
    public var shown: String {
        String(format: "pressure %.2f ", fromDevice ? lastDevicePressure : simulator.value) + (fromDevice ? "(pen)" : "(simulated)")
    }

    /// The pressure the brush outline shows for a sample with no button down: the simulated
    /// pressure at its time with its modifiers (eased since the last key, never stale), or for
    /// a pen hovering (whose pressure is 0) the nominal one.
    public func outline(_ s: PointerSample) -> Double {
        s.pressure != nil || fromDevice ? BrushTip.nominalPressure
            : simulator.peek(shift: s.mods.contains(.shift), control: s.mods.contains(.control), at: s.time)
    }

    /// The modifier keys changed at `t` with no pointer motion: the simulation follows.
    public mutating func modifiersChanged(_ mods: Modifiers, at t: Double) {
        simulator.setModifiers(shift: mods.contains(.shift), control: mods.contains(.control), at: t)
    }

    /// The sample as the session draws it: its pressure decided, its tilt the device's, its `t`
    /// the window's time of the sample (which a frame playing it with a MyPaint brush replaces
    /// by the journal's, keeping the gaps: `SampleTimes`).
    public mutating func decide(_ s: PointerSample) -> StrokeSample {
        let p = s.pressure ?? simulator.pressure(shift: s.mods.contains(.shift), control: s.mods.contains(.control), at: s.time)
        fromDevice = s.pressure != nil
        if let device = s.pressure { lastDevicePressure = device }
        return StrokeSample(x: s.x, y: s.y, pressure: Self.short(p), mods: s.mods, xtilt: Self.short(s.xtilt), ytilt: Self.short(s.ytilt),
                            t: s.time)
    }

    /// Four decimals: the journal stores it short and reads it back exactly.
    private static func short(_ v: Double) -> Double { (v * 10_000).rounded() / 10_000 }
}
