/// The Image Performer's pulse: a background that breathes, white → pure hue → black and back,
/// driven by the frame clock.
public struct Pulse: Sendable, Equatable {
    public var hue: Double
    /// Purity at the middle of the swing, and how far it swings.
    public var centre: Double
    public var range: Double

    public init(hue: Double = 0, centre: Double = 0.5, range: Double = 0.7) {
        self.hue = hue; self.centre = centre; self.range = range
    }

    /// The oscillator after `n` frames: a linear oscillator starting at 0.5 and rising by 0.01
    /// per frame, turning at 1 and at 0. A function of the frame count, so frames that were
    /// never drawn (an idle replay) still move it, exactly as in the window.
    public static func loc(frames n: Int) -> Double {
        let step = (50 + n % 200 + 200) % 200
        return Double(step <= 100 ? step : 200 - step) / 100
    }

    /// Purity p = (centre − range/2) + range·loc; p ≤ 0.5 is saturation 2p at value 1, above it
    /// saturation 1 at value 2 − 2p; then hexcone HSV → RGB.
    public func color(loc: Double) -> Color {
        let p = min(max((centre - range / 2) + range * loc, 0), 1)
        let (s, v) = p <= 0.5 ? (2 * p, 1.0) : (1.0, 2 - 2 * p)
        return HSV.color(h: hue, s: s, v: v)
    }
}
