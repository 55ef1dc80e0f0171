/// `--stats`: present times and input-to-present latency, summarised on exit. Kept as
/// histograms, so hours of drawing cost the same few kilobytes as a minute.
struct FrameStats {
    private var presentTimes = Histogram()
    private var latencies = Histogram()
    /// Arrival times of input not yet shown by a completed present.
    private var waitingSince: [Double] = []

    mutating func inputArrived(at t: Double) { waitingSince.append(t) }

    /// A present started at `started` finished at `completed`: everything that arrived before
    /// the frame started is now on screen.
    mutating func presented(started: Double, completed: Double) {
        presentTimes.add(completed - started)
        for t in waitingSince where t <= started { latencies.add(completed - t) }
        waitingSince.removeAll { $0 <= started }
    }

    func report(framesDrawn: Int, missed: Int) -> String {
        func ms(_ v: Double?) -> String { v.map { String(format: "%.2f ms", $0 * 1000) } ?? "n/a" }
        return """
        frames drawn: \(framesDrawn)
        deadlines missed: \(missed)
        present p50: \(ms(presentTimes.percentile(0.5))), p99: \(ms(presentTimes.percentile(0.99)))
        event-to-present p50: \(ms(latencies.percentile(0.5))), p99: \(ms(latencies.percentile(0.99)))
        """
    }
}

/// Durations in 10 µs buckets up to 1 s (longer ones count in the last bucket).
struct Histogram {
    private static let bucket = 10e-6
    private var counts = [Int](repeating: 0, count: 100_000)
    private var total = 0

    mutating func add(_ seconds: Double) {
        counts[min(max(Int(seconds / Self.bucket), 0), counts.count - 1)] += 1
        total += 1
    }

    /// The upper edge of the bucket holding fraction `p` of the values (nearest rank).
    func percentile(_ p: Double) -> Double? {
        guard total > 0 else { return nil }
        let rank = max(1, Int((p * Double(total)).rounded(.up)))
        var seen = 0
        for (i, c) in counts.enumerated() {
            seen += c
            if seen >= rank { return Double(i + 1) * Self.bucket }
        }
        return nil
    }
}
