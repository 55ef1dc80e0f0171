import Foundation
import Strokes

/// Pressure for devices that have none (a mouse), from modifier keys: Shift held presses hard
/// (1.0), Control is a light touch (0.2), neither is 0.5. The value eases toward its target
/// exponentially, reaching 95 % of the change in 80 ms, so a stroke swells and tapers smoothly
/// when a key goes down or up mid-stroke. Driven only by the event times it is given, so the
/// same events always give the same pressures.
public struct PressureSimulator: Sendable, Equatable {
    public static let hard = 1.0, light = 0.2, normal = BrushTip.nominalPressure
    /// Time constant: three of them (95 %) make the 80 ms ease.
    public static let timeConstant = 0.080 / 3

    public private(set) var value = normal
    public private(set) var target = normal
    private var time: Double?

    public init() {}

    public static func target(for shift: Bool, control: Bool) -> Double {
        shift ? hard : control ? light : normal
    }

    /// The modifier state changed at time `t` (seconds).
    public mutating func setModifiers(shift: Bool, control: Bool, at t: Double) {
        advance(to: t)
        target = Self.target(for: shift, control: control)
    }

    /// The pressure at time `t`, with these modifiers held.
    public mutating func pressure(shift: Bool, control: Bool, at t: Double) -> Double {
        setModifiers(shift: shift, control: control, at: t)
        return value
    }

    /// The pressure it would give at time `t` with these modifiers, changing nothing: what the
    /// brush outline shows while the pointer hovers (hovering is not replayed, so it must not
    /// move the simulation the strokes are drawn with).
    public func peek(shift: Bool, control: Bool, at t: Double) -> Double {
        var copy = self
        return copy.pressure(shift: shift, control: control, at: t)
    }

    private mutating func advance(to t: Double) {
        if let last = time, t > last {
            value = target + (value - target) * exp(-(t - last) / Self.timeConstant)
        }
        time = max(time ?? t, t)
    }
}
