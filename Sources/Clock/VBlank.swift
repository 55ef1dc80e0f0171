/// One vertical blank of the display: when it began (nanoseconds on the frame clock's
/// CLOCK_MONOTONIC) and its count (the MSC).
public struct VBlank: Sendable, Equatable {
    public var nanoseconds: Int64
    public var count: UInt64
    public init(nanoseconds: Int64, count: UInt64) { self.nanoseconds = nanoseconds; self.count = count }
}

/// The display's refresh period and phase, learnt from the vertical blanks it reports: the
/// period is the time between the oldest and newest of the last few divided by the blanks
/// between them (so a missed report costs nothing), the phase is the newest. Pure.
public struct VBlankEstimator: Sendable {
    private var seen: [VBlank] = []
    /// Blanks kept: about half a second.
    private static let kept = 32

    public init() {}

    public mutating func add(_ v: VBlank) {
        if let last = seen.last, v.count <= last.count || v.nanoseconds <= last.nanoseconds { return }
        seen.append(v)
        if seen.count > Self.kept { seen.removeFirst(seen.count - Self.kept) }
    }

    /// Nanoseconds between blanks, once three have been seen, between 2 ms (500 Hz) and 100 ms.
    public var periodNS: Int64? {
        guard seen.count >= 3, let first = seen.first, let last = seen.last else { return nil }
        let period = (last.nanoseconds - first.nanoseconds) / Int64(last.count - first.count)
        return (2_000_000...100_000_000).contains(period) ? period : nil
    }

    /// The first blank after `ns`, by the period from the newest seen.
    public func nextBlank(after ns: Int64) -> Int64? {
        guard let period = periodNS, let last = seen.last else { return nil }
        let ahead = ns - last.nanoseconds
        let k = ahead < 0 ? 0 : ahead / period + 1
        return last.nanoseconds + k * period
    }
}
