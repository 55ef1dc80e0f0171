import Foundation
import Geometry
import Strokes

/// How straight a steadied stroke comes out and how far the pen trails: the `quicksilver-bench`
/// stabilizer table and the tests that hold the `Stabilizer` to its goals.
///
/// Lines are drawn along y = `lineY`, left to right, with an 8 px pen. The measure is the
/// stroke's centre line as a picture shows it: in each column the stroke inks, the centre of
/// its inked pixels (dabs as discs), and the RMS of that centre's distance from the intended
/// line over the columns.
public enum StabilizerMeasure {
    /// Where the intended lines run.
    public static let lineY = 100.0

    /// A heavy tremor: samples 2 px apart along the line from x = 20, each pushed off it by a
    /// uniform ±7 px (the path is about 2.6× longer than the travel), from `seed`.
    public static func heavyJitter(seed: UInt64, count: Int = 300) -> [StrokePoint] {
        var random = Random(seed: seed)
        return (0..<count).map { i in StrokePoint(x: 20 + 2 * Double(i), y: lineY + 7 * random.symmetric(), pressure: 0.5) }
    }

    /// A gentle tremor, as a steady hand draws: samples at 100 Hz, 3 px apart (300 px/s), a
    /// physiological tremor (8–12 Hz, ±2 px, its amplitude wandering) and a pixel of sensor
    /// noise, from `seed`.
    public static func gentleTremor(seed: UInt64 = 42, count: Int = 200) -> [StrokePoint] {
        var random = Random(seed: seed)
        var phase = 0.0, amplitude = 2.0
        return (0..<count).map { i in
            phase += 2 * Double.pi * (10 + 2 * random.symmetric()) / 100      // 8–12 Hz at 100 samples a second
            amplitude = min(max(amplitude + 0.2 * random.symmetric(), 1), 3)
            let x = 20 + Double(i) * 3 + random.symmetric()
            return StrokePoint(x: x, y: lineY + amplitude * sin(phase) + random.symmetric(), pressure: 0.5)
        }
    }

    /// Samples `spacing` px apart along the line with no jitter at all.
    public static func steadyLine(count: Int = 300, spacing: Double = 2) -> [StrokePoint] {
        (0..<count).map { StrokePoint(x: 20 + spacing * Double($0), y: lineY, pressure: 0.5) }
    }

    /// The pen's positions for `samples` through a `Stabilizer` of `strength` (none at 0), as
    /// the session feeds it: the first sample starts the stroke, the middle ones move it, the
    /// last one ends it (and the stabilizer's drain leads up to it). The stroke ends exactly at
    /// the last sample.
    public static func pens(_ samples: [StrokePoint], strength: Double) -> [StrokePoint] {
        guard strength > 0, let first = samples.first, let last = samples.last, samples.count > 1 else { return samples }
        var stabilizer = Stabilizer(strength: strength, start: first)
        return [first] + samples.dropFirst().dropLast().map { stabilizer.add($0) } + stabilizer.finish(at: last) + [last]
    }

    /// The dabs of an 8 px pen stroke through `pens`, ended at the last of them.
    public static func dabs(_ pens: [StrokePoint]) -> [StrokeSink.Dab] {
        guard let first = pens.first, let last = pens.last else { return [] }
        var sink = StrokeSink(clip: Rect(x: -10_000, y: -10_000, width: 20_000, height: 20_000))
        var damage = Rect.empty
        var builder = StrokeBuilder(tip: BrushTip(), start: first, into: &sink, damage: &damage)
        for p in pens.dropFirst().dropLast() { builder.add(p, into: &sink) }
        builder.finish(at: last, into: &sink)
        return sink.dabs
    }

    /// The RMS distance, in pixels, of the stroke's centre from y = `lineY` over the columns it
    /// inks between `columns` (the travel, first sample to last: the round caps past the ends
    /// sit on the end samples, as in every stroke that ends there): each dab a disc (a pixel is
    /// inked when its centre is inside), each column's centre the mean row of its inked pixels.
    public static func centreLineRMS(_ dabs: [StrokeSink.Dab], columns: ClosedRange<Double>) -> Double {
        guard let first = dabs.first else { return 0 }
        var x0 = first.x, x1 = first.x, y0 = first.y, y1 = first.y, r = 0.0
        for d in dabs { x0 = min(x0, d.x); x1 = max(x1, d.x); y0 = min(y0, d.y); y1 = max(y1, d.y); r = max(r, d.radius) }
        let left = Int((x0 - r).rounded(.down)), top = Int((y0 - r).rounded(.down))
        let width = Int((x1 + r).rounded(.up)) - left + 1, height = Int((y1 + r).rounded(.up)) - top + 1
        var ink = [Bool](repeating: false, count: width * height)
        for d in dabs {
            for y in Int((d.y - d.radius).rounded(.down))...Int((d.y + d.radius).rounded(.up)) {
                for x in Int((d.x - d.radius).rounded(.down))...Int((d.x + d.radius).rounded(.up)) {
                    let dx = Double(x) + 0.5 - d.x, dy = Double(y) + 0.5 - d.y
                    if dx * dx + dy * dy <= d.radius * d.radius { ink[(y - top) * width + x - left] = true }
                }
            }
        }
        var squares = 0.0, counted = 0
        for x in 0..<width where columns.contains(Double(x + left) + 0.5) {
            var rows = 0.0, n = 0.0
            for y in 0..<height where ink[y * width + x] { rows += Double(y + top) + 0.5; n += 1 }
            guard n > 0 else { continue }
            let off = rows / n - lineY
            squares += off * off
            counted += 1
        }
        return (squares / Double(max(counted, 1))).squareRoot()
    }

    /// The centre-line RMS of `samples` drawn through a stabilizer of `strength` (none at 0).
    public static func rms(_ samples: [StrokePoint], strength: Double) -> Double {
        centreLineRMS(dabs(pens(samples, strength: strength)), columns: travel(samples))
    }

    /// The columns from the first sample to the last.
    public static func travel(_ samples: [StrokePoint]) -> ClosedRange<Double> {
        guard let first = samples.first?.x, let last = samples.last?.x else { return 0...0 }
        return min(first, last)...max(first, last)
    }

    /// The pooled centre-line RMS of several strokes: the root of their mean squares.
    public static func pooled(_ values: [Double]) -> Double {
        (values.map { $0 * $0 }.reduce(0, +) / Double(max(values.count, 1))).squareRoot()
    }

    /// How far the pen trails the newest sample while drawing, at the last move of `samples`
    /// (before the pen lifts): the live lag.
    public static func lag(_ samples: [StrokePoint], strength: Double) -> Double {
        guard strength > 0, let first = samples.first, samples.count > 1 else { return 0 }
        var stabilizer = Stabilizer(strength: strength, start: first)
        var pen = first
        for s in samples.dropFirst() { pen = stabilizer.add(s) }
        let newest = samples[samples.count - 1]
        return ((pen.x - newest.x) * (pen.x - newest.x) + (pen.y - newest.y) * (pen.y - newest.y)).squareRoot()
    }

    /// A small seeded generator (an LCG: the same numbers on every machine).
    struct Random {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        /// Uniform in -1…1.
        mutating func symmetric() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53) * 2 - 1
        }
    }
}
