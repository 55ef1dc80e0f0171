import Foundation
import Strokes

/// How far a `Predictor` lands from where the pen really went, measured over strokes: the
/// `quicksilver-bench` prediction table and the tests that hold the chosen horizon to its goal.
public enum PredictionMeasure {
    /// One timed sample of a stroke.
    public typealias Sample = (t: Double, x: Double, y: Double)

    /// Mean and 95th percentile of the distance, in pixels, between the position predicted
    /// `horizon` seconds ahead of each sample and where the stroke really was then (interpolated
    /// between its samples), over every sample that has a real position that far ahead.
    /// `predicting` false measures the pen staying at its last sample instead (no prediction),
    /// the baseline a predictor must beat.
    public static func errors(_ strokes: [[Sample]], horizon: Double, window: Double = Predictor().window,
                              curvature: Double = Predictor().curvature, damping: Double = Predictor().damping,
                              predicting: Bool = true) -> (mean: Double, p95: Double) {
        var distances: [Double] = []
        for stroke in strokes {
            var predictor = Predictor(window: window)
            predictor.curvature = curvature
            predictor.damping = damping
            var ahead = 0
            for (i, s) in stroke.enumerated() {
                predictor.add(t: s.t, x: s.x, y: s.y)
                let target = s.t + horizon
                while ahead < stroke.count - 1 && stroke[ahead + 1].t < target { ahead += 1 }
                guard ahead + 1 < stroke.count, stroke[ahead].t <= target else { continue }
                let a = stroke[ahead], b = stroke[ahead + 1]
                let f = (target - a.t) / max(b.t - a.t, 1e-9)
                let real = (a.x + (b.x - a.x) * f, a.y + (b.y - a.y) * f)
                // No prediction (too few samples yet, or at rest): the pen stays at the sample.
                let p = (predicting ? predictor.predict(horizon: horizon) : nil) ?? (stroke[i].x, stroke[i].y)
                distances.append(((p.x - real.0) * (p.x - real.0) + (p.y - real.1) * (p.y - real.1)).squareRoot())
            }
        }
        guard !distances.isEmpty else { return (0, 0) }
        distances.sort()
        return (distances.reduce(0, +) / Double(distances.count), distances[min(distances.count - 1, distances.count * 95 / 100)])
    }

    /// Hand-like strokes, from a seed: a drawing hand's path is smooth, its speed changing over
    /// tenths of a second: a few sinusoids on a drift, sampled at `hz` (a mouse's 125, a tablet's
    /// 200, a gaming mouse's 1000) with a little sensor noise, and rounded to whole pixels when
    /// `integer` (a mouse reports those). Drawing: sinusoids of 0.3–1.5 Hz and 10–60 px on a drift
    /// of 80–300 px/s (curves of a few tens of pixels at a few hundred pixels a second);
    /// `scribbling`: 0.4–3 Hz and 10–120 px on 100–400 px/s, turns five times as sharp.
    public static func handStrokes(count: Int, seconds: Double = 1.5, hz: Double, integer: Bool, scribbling: Bool = false,
                                   seed: UInt64) -> [[Sample]] {
        var state = seed &+ 0x9E37_79B9_7F4A_7C15
        func random() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53)
        }
        return (0..<count).map { _ in
            let angle = random() * 2 * Double.pi
            let drift = scribbling ? 100 + 300 * random() : 80 + 220 * random()
            let (f0, f1, a1) = scribbling ? (0.4, 2.6, 110.0) : (0.3, 1.2, 50.0)
            let waves = (0..<3).map { _ in (f: f0 + f1 * random(), ax: 10 + a1 * random(), ay: 10 + a1 * random(), p: random() * 6.3) }
            var out: [Sample] = []
            for k in 0..<Int(seconds * hz) {
                let t = Double(k) / hz
                var x = 400 + cos(angle) * drift * t, y = 300 + sin(angle) * drift * t
                for w in waves {
                    x += w.ax * sin(2 * Double.pi * w.f * t + w.p)
                    y += w.ay * cos(2 * Double.pi * w.f * t + w.p * 1.7)
                }
                x += (random() - 0.5) * 0.6; y += (random() - 0.5) * 0.6
                if integer { x = x.rounded(); y = y.rounded() }
                out.append((t, x, y))
            }
            return out
        }
    }
}
