/// `--stats`: present times and input-to-present latency, summarised on exit. Kept as
/// histograms, so hours of drawing cost the same few kilobytes as a minute.
public struct FrameStats: Sendable {
    public init() {}

    private var presentTimes = Histogram()
    private var latencies = Histogram()
    /// Arrival times of input not yet shown by a completed present.
    private var waitingSince: [Double] = []

    public mutating func inputArrived(at t: Double) { waitingSince.append(t) }

    /// A present started at `started` finished at `completed`: everything that arrived before
    /// the frame started is now on screen.
    public mutating func presented(started: Double, completed: Double) {
        presentTimes.add(completed - started)
        for t in waitingSince where t <= started { latencies.add(completed - t) }
        waitingSince.removeAll { $0 <= started }
    }

    public func report(framesDrawn: Int, missed: Int) -> String {
        func ms(_ v: Double?) -> String { v.map { String(format: "%.2f ms", $0 * 1000) } ?? "n/a" }
        return """
        frames drawn: \(framesDrawn)
        deadlines missed: \(missed)
        present p50: \(ms(presentTimes.percentile(0.5))), p99: \(ms(presentTimes.percentile(0.99)))
        event-to-present p50: \(ms(latencies.percentile(0.5))), p99: \(ms(latencies.percentile(0.99)))
        """
    }
}
