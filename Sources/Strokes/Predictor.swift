/// Where the pen will be a few milliseconds on: the short continuation drawn beyond the last
/// real sample so the line seems to keep up with the hand. Never part of the picture: the next
/// real sample replaces it.
///
/// A parabola is fitted by least squares to x(t) and y(t) over the last `window` seconds of
/// samples (noise and integer positions average out); the prediction carries on from the newest
/// sample along the fitted slope and `curvature` of the fitted bend. Where the hand turns or
/// brakes, a continuation overshoots, so the horizon shrinks once the fitted acceleration
/// outgrows the speed (`horizon / (1 + damping·max(0, |a|·horizon / (|v| + 1) − 1))`), and
/// again as the samples stray from the fitted path (by the square of their RMS distance over
/// `smoothPixels`). Chromium caps its horizon at 25 ms; Windows Ink defaults to 15 ms.
public struct Predictor: Sendable {
    /// Seconds of samples the velocity is fitted to.
    public let window: Double
    private var samples: [(t: Double, x: Double, y: Double)] = []

    public init(window: Double = 0.048) { self.window = window }

    /// A real sample at time `t` (seconds).
    public mutating func add(t: Double, x: Double, y: Double) {
        if let last = samples.last, t < last.t { samples.removeAll() }   // time went back: a new stroke
        samples.append((t, x, y))
        // Keep the window, and at least the last three (a parabola needs them).
        while samples.count > 3, samples[0].t < t - window { samples.removeFirst() }
    }

    public mutating func reset() { samples.removeAll() }

    /// A parabola fitted by least squares to one coordinate against time since the newest
    /// sample: (value, slope, curvature) there. Nil when the samples do not pin one down.
    private static func fit(_ samples: [(t: Double, x: Double, y: Double)], _ value: ((t: Double, x: Double, y: Double)) -> Double)
        -> (c0: Double, c1: Double, c2: Double)? {
        guard samples.count >= 3, let t0 = samples.last?.t else { return nil }
        var s = [Double](repeating: 0, count: 5), r = [0.0, 0.0, 0.0]
        for p in samples {
            let tau = p.t - t0, v = value(p)
            var power = 1.0
            for k in 0..<5 {
                s[k] += power
                if k < 3 { r[k] += power * v }
                power *= tau
            }
        }
        // The normal equations [s0 s1 s2; s1 s2 s3; s2 s3 s4]·c = r, by Cramer's rule.
        func det(_ a: Double, _ b: Double, _ c: Double, _ d: Double, _ e: Double, _ f: Double, _ g: Double, _ h: Double, _ i: Double) -> Double {
            a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
        }
        let d = det(s[0], s[1], s[2], s[1], s[2], s[3], s[2], s[3], s[4])
        guard abs(d) > 1e-18 else { return nil }
        let c0 = det(r[0], s[1], s[2], r[1], s[2], s[3], r[2], s[3], s[4]) / d
        let c1 = det(s[0], r[0], s[2], s[1], r[1], s[3], s[2], r[2], s[4]) / d
        let c2 = det(s[0], s[1], r[0], s[1], s[2], r[1], s[2], s[3], r[2]) / d
        return (c0, c1, c2)
    }

    /// The predicted position `horizon` seconds after the newest sample, or nil when there is
    /// too little to go on (the first samples of a stroke, or a hand at rest).
    public func predict(horizon: Double) -> (x: Double, y: Double)? {
        guard horizon > 0, let fx = Self.fit(samples, \.x), let fy = Self.fit(samples, \.y) else { return nil }
        let speed = (fx.c1 * fx.c1 + fy.c1 * fy.c1).squareRoot()
        guard speed > 1 else { return nil }
        // Where the hand turns or brakes hard (the curvature term outgrows the velocity's) the
        // horizon shrinks: less of an overshoot.
        let a = 2 * (fx.c2 * fx.c2 + fy.c2 * fy.c2).squareRoot()
        var h = horizon / (1 + damping * max(0, a * horizon / (speed + 1) - 1))
        // Where the samples stray from any smooth path (a scribble, a shaky start) nothing can be
        // foreseen: the further they stray, the shorter the horizon.
        let t0 = samples[samples.count - 1].t
        var squares = 0.0
        for p in samples {
            let tau = p.t - t0
            let dx = p.x - (fx.c0 + fx.c1 * tau + fx.c2 * tau * tau), dy = p.y - (fy.c0 + fy.c1 * tau + fy.c2 * tau * tau)
            squares += dx * dx + dy * dy
        }
        let rms = (squares / Double(samples.count)).squareRoot()
        h /= max(1, (rms / Self.smoothPixels) * (rms / Self.smoothPixels))
        // From the newest sample itself: the predicted tail carries on from the real line's end.
        let last = samples[samples.count - 1]
        return (last.x + fx.c1 * h + curvature * fx.c2 * h * h, last.y + fy.c1 * h + curvature * fy.c2 * h * h)
    }

    /// How much of the fitted curvature the prediction follows (0: a straight line on).
    public var curvature = 0.5
    /// How strongly a sharp turn or braking shortens the horizon.
    public var damping = 1.0
    /// Samples this close (RMS, pixels) to the fitted path are a smooth stroke: a full horizon.
    static let smoothPixels = 1.5
}
