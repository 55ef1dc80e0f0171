/// Where the events one frame plays go on the journal's clock while a MyPaint brush is in use,
/// whose dtime is the difference between two samples' times: at their own gaps (the window's
/// times of the samples), within the frame's 60th of a second, so that a replay still batches
/// every event into the frame that played it.
///
/// The samples keep their gap to the newest sample journaled before (`Anchor`) where that puts
/// them all within the frame; else the newest goes to the frame's end and the others before it at
/// their gaps; where those do not fit either, the gaps are squeezed alike to fill the frame after
/// the last time journaled. An event of no time of its own (a command, a view) and samples of the
/// same millisecond follow the one before by `minimumGap`.
struct SampleTimes {
    /// The newest pointer sample journaled: its time on the journal's clock, and its own.
    struct Anchor: Equatable {
        var t: Double
        var own: Double
    }

    /// The times, in order, and the anchor for the next frame's (nil: no pointer sample among them).
    var times: [Double]
    var anchor: Anchor?

    /// The smallest gap between two events where the frame has room: 0.1 ms (libmypaint's own
    /// stand-in for a dtime of 0).
    static let minimumGap = 0.0001

    /// The times of a frame's events, each ≥ `lastT` (after it where there is room) and never
    /// going back, within `frame` (its end excluded: that instant is the next frame's).
    /// - Parameter own: each event's own time on the window's clock, nil for one that has none.
    /// - Parameter anchor: the newest sample journaled before, whose gap to these is kept if it fits.
    /// - Parameter early: where that gap does not fit, the events go as early in the frame as they
    ///   can (after `lastT`) rather than ending at its end: the immediate ink path's batches, which
    ///   come before the frame they are recorded in, and more may follow them in it.
    init(own: [Double?], after lastT: Double, in frame: Range<Double>, following anchor: Anchor?, early: Bool = false) {
        let n = own.count
        let lo = max(frame.lowerBound, lastT), hi = frame.upperBound
        guard n > 0, lo < hi else {
            times = Array(repeating: lo, count: n)
            self.anchor = nil
            return
        }
        // A margin at both ends: the frame's end belongs to the next frame, and lastT is taken.
        let margin = min(Self.minimumGap, (hi - lo) / Double(n + 1))
        let first = lo + margin, last = hi - margin
        let offsets = Self.offsets(own)
        let span = offsets[n - 1]
        let firstSample = own.firstIndex { $0 != nil }
        var start = early ? first : last - span
        if let anchor, let i = firstSample, let w = own[i] {
            let kept = anchor.t + (w - anchor.own) - offsets[i]
            if kept >= first && kept + span <= last { start = kept }
        }
        var squeeze = start < first ? (last - first) / span : 1
        if start < first { start = first }
        if start + span > last { squeeze = (last - start) / span }
        var out: [Double] = []
        out.reserveCapacity(n)
        for o in offsets { out.append(min(max(start + o * squeeze, out.last ?? lo), last)) }
        times = out
        self.anchor = own.lastIndex { $0 != nil }.flatMap { i in own[i].map { Anchor(t: out[i], own: $0) } }
    }

    /// Each event's offset from the first: a sample's gap to the sample before is its own (an
    /// event between them takes none of it), and every event is at least `minimumGap` after the
    /// one before.
    private static func offsets(_ own: [Double?]) -> [Double] {
        var offsets: [Double] = [], latest: (own: Double, offset: Double)?
        offsets.reserveCapacity(own.count)
        for w in own {
            let after = offsets.last.map { $0 + minimumGap } ?? 0
            let offset = w.flatMap { w in latest.map { max($0.offset + w - $0.own, after) } } ?? after
            offsets.append(offset)
            if let w { latest = (w, offset) }
        }
        return offsets
    }
}
