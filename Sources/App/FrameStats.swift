/// `--stats`: present times and input-to-present latency, for the immediate ink path and for the
/// frame path apart, summarised on exit. Kept as histograms, so hours of drawing cost the same
/// few kilobytes as a minute.
public struct FrameStats: Sendable {
    /// The path a present took.
    public enum Path: Sendable { case ink, frame }

    private var presentTimes = Histogram()
    private var latencies = (ink: Histogram(), frame: Histogram())
    private var presents = (ink: 0, frame: 0)
    /// Arrival times of input not yet shown by a completed present.
    private var waitingSince: [Double] = []
    /// What drives the frames: the clock's source and period (`--stats` says which).
    public var clock = "timerfd, 60 Hz"

    public init() {}

    public mutating func inputArrived(at t: Double) { waitingSince.append(t) }

    /// A present started at `started` finished at `completed`: everything that arrived before
    /// it started is now on screen.
    public mutating func presented(started: Double, completed: Double, by path: Path) {
        presentTimes.add(completed - started)
        for t in waitingSince where t <= started {
            if path == .ink { latencies.ink.add(completed - t) } else { latencies.frame.add(completed - t) }
        }
        waitingSince.removeAll { $0 <= started }
        if path == .ink { presents.ink += 1 } else { presents.frame += 1 }
    }

    public func report(framesDrawn: Int, missed: Int) -> String {
        func ms(_ v: Double?) -> String { v.map { String(format: "%.2f ms", $0 * 1000) } ?? "n/a" }
        func p(_ h: Histogram) -> String { "p50: \(ms(h.percentile(0.5))), p99: \(ms(h.percentile(0.99)))" }
        return """
        frames drawn: \(framesDrawn)
        deadlines missed: \(missed)
        clock: \(clock)
        present p50: \(ms(presentTimes.percentile(0.5))), p99: \(ms(presentTimes.percentile(0.99)))
        presents: \(presents.ink) immediate (ink path), \(presents.frame) by frames
        event-to-present, ink path \(p(latencies.ink))
        event-to-present, frame path \(p(latencies.frame))
        """
    }
}
