import Foundation
import Geometry
import Strokes
import Testing

@Suite struct StabilizerTests {
    /// A stroke through `points` (pressure 0.5), each sample through a stabilizer of `strength`
    /// (none at 0), ended at the last sample as the session does: the dabs it made.
    private func stroke(_ points: [(Double, Double)], strength: Double) -> [RecordingSink.Dab] {
        var sink = RecordingSink(clip: Rect(x: -100, y: -100, width: 2000, height: 2000))
        var damage = Rect.empty
        let ps = points.map { StrokePoint(x: $0.0, y: $0.1, pressure: 0.5) }
        var stabilizer = strength > 0 ? Stabilizer(strength: strength, start: ps[0]) : nil
        var b = StrokeBuilder(tip: BrushTip(), start: ps[0], into: &sink, damage: &damage)
        for p in ps.dropFirst().dropLast() { b.add(stabilizer?.add(p) ?? p, into: &sink) }
        b.finish(at: ps.last!, into: &sink)
        return sink.dabs
    }

    /// A hand-drawn horizontal line at y = 100, as a shaky hand draws it: samples at 100 Hz,
    /// 3 px apart (300 px/s), a physiological tremor (8–12 Hz, ±2 px, its amplitude wandering)
    /// and a pixel of sensor noise, from a fixed seed.
    private func jitteryLine() -> [(Double, Double)] {
        var state: UInt64 = 42
        func noise() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53) * 2 - 1
        }
        var phase = 0.0, amplitude = 2.0
        return (0..<200).map { i in
            phase += 2 * Double.pi * (10 + 2 * noise()) / 100      // 8–12 Hz at 100 samples a second
            amplitude = min(max(amplitude + 0.2 * noise(), 1), 3)
            return (20 + Double(i) * 3 + noise(), 100 + amplitude * sin(phase) + noise())
        }
    }

    @Test func onAStraightLineThePenLagsByHalfTheWindow() {
        var s = Stabilizer(strength: 1, start: StrokePoint(x: 0, y: 0, pressure: 0.5))
        var p = StrokePoint(x: 0, y: 0, pressure: 0.5)
        for x in 1...200 { p = s.add(StrokePoint(x: Double(x), y: 0, pressure: 0.5)) }
        let lag = 200 - p.x
        #expect(abs(lag - s.window / 2) <= Stabilizer.step, "lag \(lag) for a \(s.window) px window")
        // Where the hand stops, the pen catches up as the window fills with the resting point.
        for _ in 0..<3 { p = s.add(StrokePoint(x: 200, y: 0, pressure: 0.5)) }
        #expect(200 - p.x <= s.window / 2, "never more than half the window behind")
    }

    @Test func theStrongestSettingStraightensAJitteryLine() {
        let line = jitteryLine()
        func meanDistance(_ dabs: [RecordingSink.Dab]) -> Double { dabs.map { abs($0.y - 100) }.reduce(0, +) / Double(dabs.count) }
        let raw = meanDistance(stroke(line, strength: 0)), steadied = meanDistance(stroke(line, strength: 1))
        #expect(steadied <= 0.4 * raw, "mean distance from the intended line \(steadied) vs \(raw) unstabilised")
        let gentle = meanDistance(stroke(line, strength: 1.0 / 3))
        #expect(gentle < raw && gentle > steadied, "stronger is straighter: \(raw) > \(gentle) > \(steadied)")
    }

    @Test(arguments: [1.0 / 3, 2.0 / 3, 1.0])
    func theStrokeEndsOnItsLastSampleAndLiftOffWobbleDrawsNoTail(strength: Double) {
        // A line to (300, 100), then a lift-off wobble under 2 px.
        let points = (0...50).map { (50 + Double($0) * 5, 100.0) } + [(301.2, 100.9), (300.4, 101.5), (300.9, 100.6)]
        let dabs = stroke(points, strength: strength)
        let last = dabs.last!
        #expect(abs(last.x - 300.9) < 0.5 && abs(last.y - 100.6) < 0.5, "the stroke reaches the last sample")
        #expect(dabs.allSatisfy { abs($0.y - 100) < 2 }, "no hook at the end")
        #expect(dabs.allSatisfy { $0.x < 302 }, "no tail past where the pen lifted")
    }

    @Test func eachSampleCostsAtMostTheWindowWhateverTheStrokeLength() {
        var s = Stabilizer(strength: 1, start: StrokePoint(x: 0, y: 0, pressure: 0.5))
        var work: [Int] = []
        for i in 1...2000 {
            // Steps of 1 px, and now and then a jump of 5,000 px.
            let x = Double(i) + (i % 97 == 0 ? 5000 : 0)
            _ = s.add(StrokePoint(x: x, y: Double(i % 3), pressure: 0.5))
            work.append(s.lastWork)
        }
        #expect(work.max()! <= s.capacity, "a jump costs one ring at most: \(work.max()!) of \(s.capacity)")
        #expect(s.capacity == Int(Stabilizer.maxWindow / Stabilizer.step))
    }
}
