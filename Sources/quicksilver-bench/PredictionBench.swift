import Compute
import Foundation
import Geometry
import Measures
import Strokes

/// `quicksilver-bench --only predict`: how far the pen's predicted tail lands from where the pen
/// went, in pixels (mean and 95th percentile at horizons of 8, 16 and 25 ms), on hand-like
/// strokes at a mouse's, a tablet's and a gaming mouse's rate, and on the random walks of the pen
/// cases (at 1 kHz). Geometry on synthetic strokes (`PredictionMeasure`), no timing: the same on
/// every machine.
struct PredictionBench {
    /// Velocity windows (ms) compared; the predictor's own when empty.
    var windows: [Double] = []
    /// Curvature followed and damping; the predictor's own when nil.
    var curvature: Double?
    var damping: Double?

    /// The table's lines: one per window and set of strokes.
    func lines() -> [String] {
        let defaults = Predictor()
        let sets: [(String, [[PredictionMeasure.Sample]])] = [
            ("hand.125Hz", PredictionMeasure.handStrokes(count: 60, hz: 125, integer: true, seed: 1)),
            ("hand.200Hz", PredictionMeasure.handStrokes(count: 60, hz: 200, integer: false, seed: 2)),
            ("hand.1kHz", PredictionMeasure.handStrokes(count: 30, hz: 1000, integer: true, seed: 3)),
            ("scribble.200Hz", PredictionMeasure.handStrokes(count: 60, hz: 200, integer: false, scribbling: true, seed: 4)),
            ("walk.1kHz", [Benchmarks(size: Size(width: 1920, height: 1080), compute: ComputeContext(threads: 1))
                .randomWalk(segments: 3000).enumerated().map { (Double($0.offset) / 1000, $0.element.0, $0.element.1) }]),
        ]
        var lines: [String] = []
        for window in windows.isEmpty ? [Predictor().window * 1000] : windows {
            for (name, strokes) in sets {
                var line = "predict.\(name)".padding(toLength: 24, withPad: " ", startingAt: 0) + String(format: "window %2.0f ms", window)
                for h in [0.008, 0.016, 0.025] {
                    let e = PredictionMeasure.errors(strokes, horizon: h, window: window / 1000, curvature: curvature ?? defaults.curvature,
                                                     damping: damping ?? defaults.damping)
                    line += String(format: "   %2.0f ms: mean %5.2f px, p95 %5.2f px", h * 1000, e.mean, e.p95)
                }
                let still = PredictionMeasure.errors(strokes, horizon: 0.016, predicting: false)
                line += String(format: "   (none at 16 ms: mean %5.2f px)", still.mean)
                lines.append(line)
            }
        }
        return lines
    }
}
