import Foundation
import Measures
import Strokes

/// `quicksilver-bench --only stabilizer`: how straight a shaky line comes out at full strength
/// and how far the pen trails, beside the first version, libmypaint's slow tracking and a lazy
/// rope, all on the same samples (`StabilizerMeasure`: the centre line of an 8 px stroke as a
/// picture shows it). Geometry only, no timing: the figures are the same on every machine.
/// Without the `mypaint-track` program its rows say so; a failing one fails the table.
struct StabilizerBench {
    /// The `mypaint-track` program (Tests/Bench/mypaint-track.c, built by `make bench`).
    let mypaint: String

    /// Seeds of the strokes each input is pooled over.
    static let seeds: [UInt64] = Array(1...8)
    /// Time between samples given to libmypaint, whose slow tracking is a filter in time: 100 Hz.
    static let secondsPerSample = 0.01

    private struct Row {
        let name: String
        /// The pen's positions for some samples; nil when the follower cannot run here.
        let follow: ([StrokePoint]) -> [StrokePoint]?
        /// Where the pen is, while drawing, after the last of some samples; nil when the
        /// follower cannot run here.
        let live: ([StrokePoint]) throws -> (x: Double, y: Double)?
        /// Dabs straight from the follower (libmypaint draws its own), else drawn through the pens.
        var dabs: (([StrokePoint]) throws -> [StrokeSink.Dab]?)? = nil
    }

    /// The table's lines, a row per follower and the cost last; throws when a follower fails.
    func lines() throws -> [String] {
        let heavy = Self.seeds.map { StabilizerMeasure.heavyJitter(seed: $0) }
        let gentle = Self.seeds.map { StabilizerMeasure.gentleTremor(seed: $0) }
        let steady = StabilizerMeasure.steadyLine()
        func stabilizer(_ strength: Double) -> ([StrokePoint]) -> (x: Double, y: Double)? {
            { samples in
                guard let first = samples.first else { return nil }
                var s = Stabilizer(strength: strength, start: first)
                let pen = samples.dropFirst().map { s.add($0) }.last ?? first
                return (pen.x, pen.y)
            }
        }
        func mypaint(_ slowTracking: Double) -> Row {
            Row(name: "libmypaint slow_tracking \(Int(slowTracking))", follow: { _ in nil },
                live: { try mypaintDabs($0, slowTracking: slowTracking)?.last.map { ($0.x, $0.y) } },
                dabs: { try mypaintDabs($0, slowTracking: slowTracking) })
        }
        let rows: [Row] = [
            Row(name: "none", follow: { $0 }, live: { $0.last.map { ($0.x, $0.y) } }),
            Row(name: "path average 64 px (before)", follow: { PathAverage.pens($0) },
                live: { PathAverage.pens($0 + [$0[$0.count - 1]]).dropLast().last.map { ($0.x, $0.y) } }),
            Row(name: "travel ramp 90 px, no drain", follow: { Self.undrained($0) }, live: stabilizer(1)),
            Row(name: "travel ramp 30 px (now, 1/3)", follow: { StabilizerMeasure.pens($0, strength: 1.0 / 3) }, live: stabilizer(1.0 / 3)),
            Row(name: "travel ramp 60 px (now, 2/3)", follow: { StabilizerMeasure.pens($0, strength: 2.0 / 3) }, live: stabilizer(2.0 / 3)),
            Row(name: "travel ramp 90 px (now, full)", follow: { StabilizerMeasure.pens($0, strength: 1) }, live: stabilizer(1)),
            mypaint(10), mypaint(15),
            Row(name: "lazy rope R = 30", follow: { LazyRope(length: 30).pens($0) },
                live: { LazyRope(length: 30).pens($0).last.map { ($0.x, $0.y) } }),
        ]
        var out = ["stabilizer".padding(toLength: 40, withPad: " ", startingAt: 0)
            + "heavy ±7 px      gentle ±2 px     lag"]
        var baseline: (heavy: Double, gentle: Double)?
        for row in rows {
            func rms(_ strokes: [[StrokePoint]]) throws -> Double? {
                var values: [Double] = []
                for samples in strokes {
                    guard let dabs = try row.dabs?(samples) ?? row.follow(samples).map({ StabilizerMeasure.dabs($0) }) else { return nil }
                    values.append(StabilizerMeasure.centreLineRMS(dabs, columns: StabilizerMeasure.travel(samples)))
                }
                return StabilizerMeasure.pooled(values)
            }
            let name = "stabilizer." + row.name
            let figures: (heavy: Double?, gentle: Double?, lag: Double?)
            do { figures = (try rms(heavy), try rms(gentle), try lag(row, steady)) } catch { throw BenchFailure("\(row.name): \(error)") }
            guard let h = figures.heavy, let g = figures.gentle, let lag = figures.lag else {
                out.append(name.padding(toLength: 40, withPad: " ", startingAt: 0) + "(not built: make bench builds \(self.mypaint))")
                continue
            }
            let base = baseline ?? (h, g)
            baseline = base
            out.append(name.padding(toLength: 40, withPad: " ", startingAt: 0)
                + String(format: "%5.2f px %4.0f %%   %5.2f px %4.0f %%   %4.1f px", h, 100 * h / base.heavy, g, 100 * g / base.gentle, lag))
        }
        out.append(Self.cost())
        return out
    }

    /// What steadying costs: 300,000 heavy-tremor samples through a full-strength stabilizer
    /// (a 600 px stroke redrawn end to end), median wall time.
    private static func cost() -> String {
        let samples = (1...1000).flatMap { StabilizerMeasure.heavyJitter(seed: UInt64($0)) }
        let ms = Benchmarks.median(runs: 5) {
            var s = Stabilizer(strength: 1, start: samples[0])
            var sum = 0.0
            for p in samples { sum += s.add(p).x }
            precondition(sum.isFinite)
        }
        return Report.row("stabilizer.300k", ms)
    }

    /// The new stabilizer jumping to the last sample on release, as the first version did.
    private static func undrained(_ samples: [StrokePoint]) -> [StrokePoint] {
        guard let first = samples.first, let last = samples.last, samples.count > 1 else { return samples }
        var stabilizer = Stabilizer(strength: 1, start: first)
        return [first] + samples.dropFirst().dropLast().map { stabilizer.add($0) } + [last]
    }

    /// How far the pen trails the newest sample of a steady line while drawing.
    private func lag(_ row: Row, _ steady: [StrokePoint]) throws -> Double? {
        guard let pen = try row.live(steady), let newest = steady.last else { return nil }
        return ((pen.x - newest.x) * (pen.x - newest.x) + (pen.y - newest.y) * (pen.y - newest.y)).squareRoot()
    }

    /// libmypaint's dabs for `samples` (see Tests/Bench/mypaint-track.c); nil when the program
    /// is not there (not built). Throws when it fails or prints something else than dabs.
    private func mypaintDabs(_ samples: [StrokePoint], slowTracking: Double) throws -> [StrokeSink.Dab]? {
        guard FileManager.default.isExecutableFile(atPath: mypaint) else { return nil }
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("qs-mypaint-\(getpid()).txt")
        defer { try? FileManager.default.removeItem(at: input) }
        let text = samples.map { String(format: "%.6f %.6f\n", $0.x, $0.y) }.joined()
        let stdin: FileHandle
        do {
            try text.write(to: input, atomically: false, encoding: .utf8)
            stdin = try FileHandle(forReadingFrom: input)
        } catch {
            throw BenchFailure("cannot write \(input.path): \(error.localizedDescription)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: mypaint)
        process.arguments = [String(slowTracking), String(Self.secondsPerSample)]
        process.standardInput = stdin
        let pipe = Pipe()
        process.standardOutput = pipe
        do { try process.run() } catch { throw BenchFailure("cannot run \(mypaint): \(error.localizedDescription)") }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationReason == .exit else { throw BenchFailure("\(mypaint) was killed by signal \(process.terminationStatus)") }
        guard process.terminationStatus == 0 else { throw BenchFailure("\(mypaint) exited with status \(process.terminationStatus)") }
        var dabs: [StrokeSink.Dab] = []
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let f = line.split(separator: " ").compactMap { Double($0) }
            guard f.count == 3 else { throw BenchFailure("\(mypaint) printed \(String(line).debugDescription), not a dab (x y radius)") }
            dabs.append(StrokeSink.Dab(x: f[0], y: f[1], radius: f[2]))
        }
        guard !dabs.isEmpty else { throw BenchFailure("\(mypaint) printed no dabs") }
        return dabs
    }
}
