/// Durations in 10 µs buckets up to 1 s (longer ones count in the last bucket).
struct Histogram: Sendable {
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
