/// The ratios issue 30 sets targets for, each measured in one run with its two cases in
/// alternation: on a shared machine a neighbour's burst slows whichever case is running, so
/// two cases timed one after the other (each a median of its own minute) can differ by 2× for
/// no reason in the code, where a pair of runs back to back sees the same machine.
extension Benchmarks {
    /// Each ratio: its name (`A/B`), the two cases, and its target (A ≤ target × B).
    static let ratios: [(name: String, a: String, b: String, target: Double)] = [
        ("compose.full/memcpy.full", "compose.full", "memcpy.full", 3),
        ("compose.rotated/compose.full", "compose.rotated", "compose.full", 1.5),
    ]

    /// The median over `runs` rounds of time(a) ÷ time(b), one call of each per round (a first
    /// in even rounds, b first in odd ones), after two warm-up calls of each; and each case's
    /// median milliseconds.
    static func interleavedRatio(runs: Int, _ a: () throws -> Void, _ b: () throws -> Void) rethrows
        -> (ratio: Double, a: Double, b: Double) {
        try a(); try b(); try a(); try b()
        var ta: [Double] = [], tb: [Double] = [], ratios: [Double] = []
        for round in 0..<runs {
            var x = 0.0, y = 0.0
            if round % 2 == 0 { x = try milliseconds(a); y = try milliseconds(b) } else { y = try milliseconds(b); x = try milliseconds(a) }
            ta.append(x); tb.append(y); ratios.append(x / y)
        }
        return (percentile(ratios, 0.5) ?? 0, percentile(ta, 0.5) ?? 0, percentile(tb, 0.5) ?? 0)
    }
}
