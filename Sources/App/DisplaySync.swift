import Clock

/// The frame clock following the display: the vertical blanks the window hears of teach a
/// `VBlankEstimator` the refresh period and phase, each frame's cost sets a margin, and the
/// loop is told to tick that margin before each blank: late enough to take the newest input,
/// early enough to finish.
struct DisplaySync {
    private var estimator = VBlankEstimator()
    /// The last frames' costs, seconds.
    private var costs: [Double] = []
    /// The loop follows the display (three blanks have been heard).
    private(set) var following = false
    private(set) var marginNS: Int64 = 2_000_000

    /// A frame took `seconds` to draw and present.
    mutating func frameDrawn(seconds: Double) {
        costs.append(seconds)
        if costs.count > 60 { costs.removeFirst(costs.count - 60) }
    }

    /// The 90th percentile of the frames' costs plus a millisecond, at least 1 ms, at most half
    /// a period.
    private func margin(periodNS: Int64) -> Int64 {
        let sorted = costs.sorted()
        let p90 = sorted.isEmpty ? 0.001 : sorted[min(sorted.count - 1, sorted.count * 9 / 10)]
        return min(max(Int64((p90 + 0.001) * 1e9), 1_000_000), periodNS / 2)
    }

    /// Blanks were heard: the loop's grid moves onto them.
    mutating func heard(_ blanks: [VBlank], loop: FrameLoop, nowNS: Int64) {
        for b in blanks { estimator.add(b) }
        guard let period = estimator.periodNS, let next = estimator.nextBlank(after: nowNS) else { return }
        marginNS = margin(periodNS: period)
        loop.follow(periodNS: period, deadlineNS: next - marginNS)
        following = true
    }

    /// What `--stats` says of the clock.
    func describe(reportsVBlanks: Bool, hz: Int) -> String {
        guard following, let period = estimator.periodNS else {
            return reportsVBlanks ? "timerfd, \(hz) Hz (the display's blanks were not heard)" : "timerfd, \(hz) Hz (no Present extension)"
        }
        return String(format: "Present: the display's blanks, period %.2f ms, ticking %.2f ms before each", Double(period) / 1e6, Double(marginNS) / 1e6)
    }
}
