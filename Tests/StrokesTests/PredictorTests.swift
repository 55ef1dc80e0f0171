import Foundation
import Measures
import Strokes
import Testing

@Suite struct PredictorTests {
    @Test func onHandLikeStrokesItLandsWithinAPixelAndAHalfAt16Milliseconds() {
        for (hz, integer) in [(125.0, true), (200.0, false), (1000.0, true)] {
            let strokes = PredictionMeasure.handStrokes(count: 20, hz: hz, integer: integer, seed: 11)
            let e = PredictionMeasure.errors(strokes, horizon: 0.016)
            let none = PredictionMeasure.errors(strokes, horizon: 0.016, predicting: false)
            #expect(e.mean <= 1.5, "\(Int(hz)) Hz: mean \(e.mean) px")
            #expect(e.mean < none.mean / 3, "it closes most of the gap: \(e.mean) vs \(none.mean) px")
        }
    }

    @Test func whereNothingCanBeForeseenItAbstains() {
        // A random walk: steps of up to 10 px in any direction, 1 ms apart.
        var state: UInt64 = 5, x = 400.0, y = 300.0
        let walk: [PredictionMeasure.Sample] = (0..<3000).map { i in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let angle = Double(state >> 11) / Double(1 << 53) * 6.283, step = Double(state & 0xff) / 255 * 10
            x += step * angle.cos; y += step * angle.sin
            return (Double(i) / 1000, x, y)
        }
        let e = PredictionMeasure.errors([walk], horizon: 0.016), none = PredictionMeasure.errors([walk], horizon: 0.016, predicting: false)
        #expect(e.mean <= none.mean * 1.05, "no worse than no prediction: \(e.mean) vs \(none.mean) px")
    }

    @Test func aStrokeAtRestOrJustBegunHasNone() {
        var p = Predictor()
        p.add(t: 0, x: 10, y: 10)
        #expect(p.predict(horizon: 0.016) == nil, "one sample says nothing of where it goes")
        for i in 1...10 { p.add(t: Double(i) * 0.005, x: 10, y: 10) }
        #expect(p.predict(horizon: 0.016) == nil, "a pen at rest stays")
        p.add(t: 0, x: 50, y: 50)   // time went back: a new stroke
        #expect(p.predict(horizon: 0.016) == nil)
    }
}

private extension Double {
    var cos: Double { Foundation.cos(self) }
    var sin: Double { Foundation.sin(self) }
}
