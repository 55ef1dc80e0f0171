/// `--stats`: present times and input-to-present latency, summarised on exit.
struct FrameStats {
    private var presentTimes: [Double] = []
    private var latencies: [Double] = []
    /// Arrival times of input not yet shown by a completed present.
    private var waiting: [Double] = []

    mutating func inputArrived(at t: Double) { waiting.append(t) }

    /// A present started at `started` finished at `completed`: everything that arrived before
    /// the frame started is now on screen.
    mutating func presented(started: Double, completed: Double) {
        presentTimes.append(completed - started)
        let shown = waiting.filter { $0 <= started }
        latencies.append(contentsOf: shown.map { completed - $0 })
        waiting.removeAll { $0 <= started }
    }

    func report(framesDrawn: Int, missed: Int) -> String {
        func ms(_ v: Double?) -> String { v.map { String(format: "%.2f ms", $0 * 1000) } ?? "n/a" }
        return """
        frames drawn: \(framesDrawn)
        deadlines missed: \(missed)
        present p50: \(ms(percentile(presentTimes, 0.5))), p99: \(ms(percentile(presentTimes, 0.99)))
        event-to-present p50: \(ms(percentile(latencies, 0.5))), p99: \(ms(percentile(latencies, 0.99)))
        """
    }
}

/// The value at fraction `p` of the sorted values (nearest rank), or nil when there are none.
func percentile(_ values: [Double], _ p: Double) -> Double? {
    guard !values.isEmpty else { return nil }
    let sorted = values.sorted()
    let rank = Int((p * Double(sorted.count)).rounded(.up)) - 1
    return sorted[min(max(rank, 0), sorted.count - 1)]
}
