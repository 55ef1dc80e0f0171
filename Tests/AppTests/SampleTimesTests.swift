@testable import App
import Paint
import ReplayFormat
import Testing
import TestSupport

/// The times a frame's events are journaled at while a MyPaint brush is in use: the samples' own
/// gaps where they fit, squeezed where they do not, always within the frame and after the last
/// time journaled.
@Suite struct SampleTimesTests {
    static let frame0 = 0.0 ..< 1.0 / 60
    static let gap = SampleTimes.minimumGap

    private func gaps(_ t: [Double]) -> [Double] { zip(t.dropFirst(), t).map { $0 - $1 } }

    private func near(_ a: [Double], _ b: [Double]) -> Bool { a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) < 1e-9 } }

    @Test func gapsAreKeptWhenTheyFitTheNewestAtTheFramesEnd() {
        let s = SampleTimes(own: [2.000, 2.001, 2.002, 2.003], after: 0, in: Self.frame0, following: nil)
        #expect(near(gaps(s.times), [0.001, 0.001, 0.001]), "\(s.times)")
        #expect(abs(s.times[3] - (1.0 / 60 - Self.gap)) < 1e-12)
        #expect(s.anchor == SampleTimes.Anchor(t: s.times[3], own: 2.003))
    }

    /// The immediate ink path's batches come before the frame that records them, a few at a
    /// time: the first goes to the frame's start, the next at its own gap after it, so a
    /// stroke's samples keep their gaps however many batches the frame holds.
    @Test func inkBatchesGoAsEarlyAsTheyCanThenFollowAtTheirGaps() {
        let frame1 = 1.0 / 60 ..< 2.0 / 60
        let before = SampleTimes.Anchor(t: 0.016, own: 4.000)
        // Their own gap from the anchor puts them before the frame: they start it.
        let a = SampleTimes(own: [4.0005, 4.0015], after: 0.016, in: frame1, following: before, early: true)
        #expect(near(a.times, [1.0 / 60 + Self.gap, 1.0 / 60 + Self.gap + 0.001]), "\(a.times)")
        // The next batch, in the same frame, keeps its own gap to the last.
        let b = SampleTimes(own: [4.0045], after: a.times[1], in: frame1, following: a.anchor, early: true)
        #expect(near(b.times, [a.times[1] + 0.003]), "\(b.times)")
        // Without `early` the first batch would have ended at the frame's end, leaving no room.
        let late = SampleTimes(own: [4.0005, 4.0015], after: 0.016, in: frame1, following: before)
        #expect(abs(late.times[1] - (2.0 / 60 - Self.gap)) < 1e-12)
        // A batch longer than the room left is squeezed into it, never past the frame.
        let c = SampleTimes(own: [5.0, 5.1], after: 0.020, in: frame1, following: nil, early: true)
        #expect(c.times[0] > 0.020 && abs(c.times[1] - (2.0 / 60 - Self.gap)) < 1e-12, "\(c.times)")
    }

    @Test func gapsThatDoNotFitAreSqueezedAlikeBetweenLastTAndTheFramesEnd() {
        let lastT = 0.004
        let s = SampleTimes(own: [5.00, 5.01, 5.03], after: lastT, in: Self.frame0, following: nil)
        let (first, last) = (lastT + Self.gap, 1.0 / 60 - Self.gap)
        #expect(abs(s.times[0] - first) < 1e-12 && abs(s.times[2] - last) < 1e-12, "\(s.times)")
        let g = gaps(s.times)
        #expect(abs(g[1] / g[0] - 2) < 1e-9, "in proportion")
    }

    @Test func noRoomAfterLastTLeavesEveryEventAtIt() {
        let s = SampleTimes(own: [1, nil, 2], after: 0.02, in: Self.frame0, following: nil)
        #expect(s.times == [0.02, 0.02, 0.02] && s.anchor == nil)
        #expect(SampleTimes(own: [], after: 0, in: Self.frame0, following: nil).times == [])
    }

    @Test func theGapToTheNewestSampleJournaledIsKeptWhereItFits() {
        let before = SampleTimes.Anchor(t: 0.010, own: 7.0)
        let s = SampleTimes(own: [7.004, 7.005], after: 0.010, in: Self.frame0, following: before)
        #expect(near(s.times, [0.014, 0.015]))
        // Far behind (a pause) or past the frame's end: the newest goes to the end.
        for own in [[9.0, 9.001], [7.006, 7.007]] {
            let t = SampleTimes(own: own, after: 0.010, in: Self.frame0, following: before).times
            #expect(abs(t[1] - (1.0 / 60 - Self.gap)) < 1e-12 && near(gaps(t), [0.001]), "\(own): \(t)")
        }
    }

    @Test func commandsAndSamplesOfOneMillisecondFollowByTheSmallestGap() {
        let s = SampleTimes(own: [nil, 3.0, 3.0, nil, 3.002], after: 0, in: Self.frame0, following: nil)
        #expect(near(gaps(s.times), [Self.gap, Self.gap, Self.gap, 0.002 - Self.gap]), "\(s.times)")
        #expect(s.anchor?.own == 3.002)
        let backwards = SampleTimes(own: [3.0, 2.0], after: 0, in: Self.frame0, following: nil).times
        #expect(near(gaps(backwards), [Self.gap]), "a clock going back never takes the times back")
    }

    /// Whatever comes, the times never go back, stay ≥ lastT and inside the frame: a replay
    /// batches each event into the frame that played it.
    @Test func everyTimeFallsInItsFrameAfterLastT() {
        var rng = SplitMix64(seed: 29)
        func int(_ n: Int) -> Int { Int.random(in: 0..<n, using: &rng) }
        func unit() -> Double { Double.random(in: 0..<1, using: &rng) }
        let fps = ReplayPlayer.framesPerSecond
        for _ in 0..<2000 {
            let k = int(1_000_000), frame = Double(k) / fps ..< Double(k + 1) / fps
            // Before the frame, or anywhere in it, or past its end (a later frame came first).
            let lastT = int(3) == 0 ? frame.lowerBound - 0.01 : frame.lowerBound + unit() * 1.2 / fps
            var w = unit() * 100
            let own: [Double?] = (0..<int(40)).map { _ in
                w += unit() * (int(4) == 0 ? 0.02 : 0.002) - 0.0002
                return int(5) == 0 ? nil : w
            }
            let anchor = int(2) == 0 ? nil : SampleTimes.Anchor(t: lastT - unit() * 0.01, own: w - unit() * 0.05)
            let t = SampleTimes(own: own, after: lastT, in: frame, following: anchor).times
            #expect(t.count == own.count)
            #expect(zip(t.dropFirst(), t).allSatisfy { $0 >= $1 } && t.allSatisfy { $0 >= lastT })
            guard lastT < frame.upperBound else { continue }
            #expect(t.allSatisfy { ReplayPlayer.frameIndex(at: $0) == k }, "k \(k), lastT \(lastT): \(t)")
            if (frame.upperBound - max(lastT, frame.lowerBound)) / Double(own.count + 1) > 1e-9 {
                #expect(t.allSatisfy { $0 > lastT } && zip(t.dropFirst(), t).allSatisfy { $0 > $1 }, "strictly, with room")
            }
        }
    }
}
