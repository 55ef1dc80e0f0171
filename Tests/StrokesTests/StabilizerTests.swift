import Foundation
import Geometry
import Measures
import Strokes
import Testing

@Suite struct StabilizerTests {
    typealias Measure = StabilizerMeasure
    private let seeds: [UInt64] = Array(1...8)

    /// The pooled centre-line RMS of `inputs`, each drawn through `pens`.
    private func rms(_ inputs: [[StrokePoint]], _ pens: ([StrokePoint]) -> [StrokePoint]) -> Double {
        Measure.pooled(inputs.map { Measure.centreLineRMS(Measure.dabs(pens($0)), columns: Measure.travel($0)) })
    }

    @Test func fullStrengthHoldsAHeavyTremorToUnderTwoFifths() {
        let heavy = seeds.map { Measure.heavyJitter(seed: $0) }
        let raw = rms(heavy) { $0 }, steadied = rms(heavy) { Measure.pens($0, strength: 1) }
        let before = rms(heavy) { PathAverage.pens($0) }
        #expect(steadied <= 0.4 * raw, "centre line \(steadied) px from the line, \(raw) px unstabilised")
        #expect(steadied < before, "straighter than the path average: \(steadied) vs \(before) px")
    }

    @Test func aGentleTremorComesOutNoWorseThanWithThePathAverage() {
        let gentle = seeds.map { Measure.gentleTremor(seed: $0) }
        let raw = rms(gentle) { $0 }, before = rms(gentle) { PathAverage.pens($0) }
        let thirds = [1.0 / 3, 2.0 / 3, 1].map { s in rms(gentle) { Measure.pens($0, strength: s) } }
        #expect(thirds[2] <= before, "full strength \(thirds[2]) px, the path average \(before) px")
        #expect(raw > thirds[0] && thirds[0] > thirds[1] && thirds[1] > thirds[2], "stronger is straighter: \(raw) > \(thirds)")
    }

    @Test(arguments: [1.0 / 3, 2.0 / 3, 1.0])
    func onASteadyLineThePenTrailsByAThirdOfTheReachAtMost30px(strength: Double) {
        let reach = Stabilizer(strength: strength, start: StrokePoint(x: 0, y: 0, pressure: 0.5)).reach
        for spacing in [0.3, 1, 2, 7, 25] {
            let lag = Measure.lag(Measure.steadyLine(count: Int(600 / spacing), spacing: spacing), strength: strength)
            #expect(lag <= 30 * strength + 1e-9, "lag \(lag) px at \(spacing) px a sample")
            #expect(abs(lag - reach / 3) <= Stabilizer.step, "lag \(lag) px, a third of the reach \(reach / 3)")
        }
        // Diagonally, and round a circle of radius 200.
        var s = Stabilizer(strength: strength, start: StrokePoint(x: 0, y: 0, pressure: 0.5))
        var p = StrokePoint(x: 0, y: 0, pressure: 0.5)
        for i in 1...300 { p = s.add(StrokePoint(x: Double(i) * 1.5, y: Double(i) * 2, pressure: 0.5)) }
        #expect(((450 - p.x) * (450 - p.x) + (600 - p.y) * (600 - p.y)).squareRoot() <= 30 * strength + 1e-9)
        var c = Stabilizer(strength: strength, start: StrokePoint(x: 400, y: 200, pressure: 0.5))
        for i in 1...400 {
            let a = Double(i) / 200
            let q = StrokePoint(x: 200 + 200 * cos(a), y: 200 + 200 * sin(a), pressure: 0.5)
            p = c.add(q)
            #expect(((q.x - p.x) * (q.x - p.x) + (q.y - p.y) * (q.y - p.y)).squareRoot() <= 30 * strength + 1e-9)
        }
    }

    @Test(arguments: [1.0 / 3, 2.0 / 3, 1.0])
    func theStrokeEndsExactlyOnItsLastSampleAndLiftOffWobbleDrawsNoTail(strength: Double) {
        // A line to (300, 100), then a lift-off wobble under 2 px.
        let points = (0...50).map { StrokePoint(x: 50 + Double($0) * 5, y: 100, pressure: 0.5) }
            + [(301.2, 100.9), (300.4, 101.5), (300.9, 100.6)].map { StrokePoint(x: $0.0, y: $0.1, pressure: 0.5) }
        let dabs = Measure.dabs(Measure.pens(points, strength: strength))
        let last = dabs[dabs.count - 1]
        #expect(last.x == 300.9 && last.y == 100.6, "the stroke ends on the last sample: \(last)")
        #expect(dabs.allSatisfy { abs($0.y - 100) < 2 }, "no hook at the end")
        #expect(dabs.allSatisfy { $0.x < 302 }, "no tail past where the pen lifted")
    }

    @Test func releasedOffTheLineThePenRunsOnAndTurnsOnlyAtTheEnd() {
        // A steady line, and the last sample 6 px off it (a tremor's last swing).
        let line = Measure.steadyLine(count: 200)
        let lastSample = StrokePoint(x: line[line.count - 1].x + 2, y: Measure.lineY + 6, pressure: 0.5)
        var s = Stabilizer(strength: 1, start: line[0])
        var pen = line[0]
        for p in line.dropFirst() { pen = s.add(p) }
        let drain = [pen] + s.finish(at: lastSample) + [lastSample]
        for (a, b) in zip(drain, drain.dropFirst()) {
            #expect(b.x >= a.x && b.y >= a.y, "forward and toward the last sample, never back: \(a) → \(b)")
            #expect(b.y <= lastSample.y && b.x <= lastSample.x, "never past it")
        }
        // The slant stays near the end: halfway through the catch-up the pen is still near the line.
        let half = drain.first { $0.x >= (pen.x + lastSample.x) / 2 }!
        #expect(half.y - Measure.lineY < 1.5, "halfway, \(half.y - Measure.lineY) px off the line")
        // Every heavy-tremor stroke ends exactly on its last sample.
        for seed in seeds {
            let heavy = Measure.heavyJitter(seed: seed)
            let end = Measure.dabs(Measure.pens(heavy, strength: 1)).last!
            #expect(end.x == heavy[heavy.count - 1].x && end.y == heavy[heavy.count - 1].y)
        }
    }

    @Test func theSameSamplesGiveTheSamePenWhereverTheStrokeIsReplayed() {
        let samples = Measure.heavyJitter(seed: 3)
        let once = Measure.pens(samples, strength: 1), again = Measure.pens(samples, strength: 1)
        #expect(once == again)
        // Shifted by whole pixels, the pen shifts with them (nothing depends on absolute position
        // beyond rounding).
        let moved = Measure.pens(samples.map { StrokePoint(x: $0.x + 1024, y: $0.y - 512, pressure: $0.pressure) }, strength: 1)
        #expect(zip(once, moved).allSatisfy { abs($0.x + 1024 - $1.x) < 1e-6 && abs($0.y - 512 - $1.y) < 1e-6 })
    }

    @Test func whereTheHandRestsThePenSettlesOnIt() {
        var s = Stabilizer(strength: 1, start: StrokePoint(x: 0, y: 100, pressure: 0.5))
        for x in stride(from: 2.0, through: 300, by: 2) { _ = s.add(StrokePoint(x: x, y: 100, pressure: 0.5)) }
        // Dithering ±1 px round (300, 100) for a while.
        var pen = StrokePoint(x: 0, y: 0, pressure: 0)
        for i in 0..<2000 { pen = s.add(StrokePoint(x: 300 + Double(i % 3 - 1), y: 100 + Double(i % 5 - 2) / 2, pressure: 0.5)) }
        #expect(abs(pen.x - 300) < 1 && abs(pen.y - 100) < 1, "settled at \(pen)")
    }

    @Test(arguments: [1.0 / 3, 1.0])
    func afterAPauseThePenStillTrailsBy30pxAtMost(strength: Double) {
        var s = Stabilizer(strength: strength, start: StrokePoint(x: 100, y: 100, pressure: 0.5))
        // A pause: the hand dithers in place, filling the ring with one spot…
        for i in 0..<3000 { _ = s.add(StrokePoint(x: 100 + Double(i % 3 - 1), y: 100 + Double(i % 5 - 2) / 2, pressure: 0.5)) }
        // …then moves on, slowly and then in jumps.
        var x = 100.0
        for i in 0..<200 {
            x += i < 100 ? 2 : 9
            let pen = s.add(StrokePoint(x: x, y: 100, pressure: 0.5))
            let lag = ((x - pen.x) * (x - pen.x) + (100 - pen.y) * (100 - pen.y)).squareRoot()
            #expect(lag <= 30 * strength + 1e-9, "\(lag) px behind at x = \(x)")
            if lag > 30 * strength + 1e-9 { return }
        }
    }

    @Test func eachSampleCostsAtMostTheReachWhateverTheStrokeLength() {
        var s = Stabilizer(strength: 1, start: StrokePoint(x: 0, y: 0, pressure: 0.5))
        var work: [Int] = []
        for i in 1...2000 {
            // Steps of 1 px, and now and then a jump of 5,000 px, or off to 1e308.
            let x = i == 1500 ? 1e308 : Double(i) + (i % 97 == 0 ? 5000 : 0)
            let pen = s.add(StrokePoint(x: x, y: Double(i % 3), pressure: 0.5))
            #expect(pen.x.isFinite && pen.y.isFinite)
            work.append(s.lastWork)
        }
        #expect(work.max()! <= Int(s.reach / Stabilizer.step) + 1, "a jump costs one reach at most: \(work.max()!)")
        #expect(s.capacity == Int(Stabilizer.pathPerReach * Stabilizer.maxReach / Stabilizer.step) + 1)
    }
}
