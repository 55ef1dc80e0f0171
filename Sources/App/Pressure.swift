import Events
import Input

/// Decides the pressure of every pointer sample, in one place: the device's own when it has
/// one, else simulated from the modifier keys (`PressureSimulator`). What it returns is what the
/// session draws with, the journal keeps and a recording stores, so replays are exact.
public struct Pressure: Sendable {
    private var simulator = PressureSimulator()

    public init() {}

    /// The simulated pressure now (shown in the title).
    public var simulated: Double { simulator.value }

    /// The modifier keys changed at `t` with no pointer motion: the simulation follows.
    public mutating func modifiersChanged(_ mods: Modifiers, at t: Double) {
        simulator.setModifiers(shift: mods.contains(.shift), control: mods.contains(.control), at: t)
    }

    /// The sample as the session draws it.
    public mutating func decide(_ s: PointerSample) -> StrokeSample {
        let p = s.pressure ?? simulator.pressure(shift: s.mods.contains(.shift), control: s.mods.contains(.control), at: s.time)
        // Four decimals: the journal stores it short and reads it back exactly.
        return StrokeSample(x: s.x, y: s.y, pressure: (p * 10_000).rounded() / 10_000, mods: s.mods)
    }
}
