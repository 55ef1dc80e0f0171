/// One vertical blank of the display: when it began (nanoseconds on the frame clock's
/// CLOCK_MONOTONIC) and its count (the MSC).
public struct VBlank: Sendable, Equatable {
    public var nanoseconds: Int64
    public var count: UInt64
    public init(nanoseconds: Int64, count: UInt64) { self.nanoseconds = nanoseconds; self.count = count }
}

/// The display's refresh period and phase, learnt from the vertical blanks it reports: a
/// least-squares line through the last few, time against count, so a missed report costs nothing
/// and a report heard late or early (Xvfb's blanks are a server timer, off by a millisecond or
/// more under load) moves the phase by a fraction of its error, not all of it. Pure.
public struct VBlankEstimator: Sendable {
    private var seen: [VBlank] = []
    /// Blanks kept: about half a second.
    private static let kept = 32
    /// Periods believed: 500 Hz to 10 Hz.
    private static let plausible: ClosedRange<Int64> = 2_000_000...100_000_000

    public init() {}

    public mutating func add(_ v: VBlank) {
        if let last = seen.last {
            if v.count == last.count { return }   // the same blank, heard twice
            // A count or a time going back, or blanks implausibly close or far apart: another
            // CRTC (the window moved to another monitor) or a new mode. Start again from this one.
            let forward = v.count > last.count && v.nanoseconds > last.nanoseconds
            if !forward || !Self.plausible.contains((v.nanoseconds - last.nanoseconds) / Int64(v.count - last.count)) {
                seen.removeAll()
            }
        }
        seen.append(v)
        if seen.count > Self.kept { seen.removeFirst(seen.count - Self.kept) }
    }

    /// The fitted line: when the newest blank seen fell, and the period (nanoseconds).
    private var fit: (newest: Double, period: Double)? {
        guard seen.count >= 3, let last = seen.last else { return nil }
        var sx = 0.0, sy = 0.0, sxx = 0.0, sxy = 0.0
        for b in seen {
            let x = Double(Int64(truncatingIfNeeded: b.count &- last.count)), y = Double(b.nanoseconds - last.nanoseconds)
            sx += x; sy += y; sxx += x * x; sxy += x * y
        }
        let n = Double(seen.count), d = n * sxx - sx * sx
        guard d > 0 else { return nil }
        let period = (n * sxy - sx * sy) / d
        guard Self.plausible.contains(Int64(period.rounded())) else { return nil }
        return (Double(last.nanoseconds) + (sy - period * sx) / n, period)
    }

    /// Nanoseconds between blanks, once three have been seen, between 2 ms (500 Hz) and 100 ms.
    public var periodNS: Int64? { fit.map { Int64($0.period.rounded()) } }

    /// The first blank after `ns` on the fitted line (never one before the newest seen).
    public func nextBlank(after ns: Int64) -> Int64? {
        guard let (newest, period) = fit else { return nil }
        let ahead = Double(ns) - newest
        let k = ahead < 0 ? 0 : (ahead / period).rounded(.down) + 1
        return Int64((newest + k * period).rounded())
    }
}
