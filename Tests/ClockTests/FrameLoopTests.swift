import Clock
import Testing

private let period: Int64 = 1_000_000_000 / 60

/// A delegate driven by closures, recording what the loop asked of it.
private final class Script: FrameLoopDelegate {
    var drawn: [FrameInfo] = []
    var wakes = 0
    let stopAfterFrames: Int
    var draw: (FrameInfo) -> Bool = { _ in true }
    var wake: () -> Bool = { false }
    init(stopAfterFrames: Int) { self.stopAfterFrames = stopAfterFrames }
    func frameLoopDidWake(_ loop: FrameLoop) -> Bool { wakes += 1; return wake() }
    func frameLoop(_ loop: FrameLoop, draw frame: FrameInfo) -> Bool { drawn.append(frame); return draw(frame) }
    var shouldStop: Bool { drawn.count >= stopAfterFrames }
}

@Suite struct FrameLoopTests {
    @Test func drawsOneFramePerDeadlineOnTheGrid() {
        let clock = ManualClock(nowNS: 5_000_000_000)
        let loop = FrameLoop(hz: 60, clock: clock, fds: [])
        let script = Script(stopAfterFrames: 4)
        loop.run(script)
        #expect(script.drawn.map(\.index) == [1, 2, 3, 4])
        #expect(script.drawn[2] == FrameInfo(index: 3, timestamp: 3.0 / 60, targetTimestamp: 4.0 / 60))
        #expect(loop.framesDrawn == 4 && loop.missedDeadlines == 0)
        #expect(clock.nowNS == 5_000_000_000 + 4_000_000_000 / 60, "time moved only to the deadlines")
        #expect(clock.alarmNS == nil && loop.isPaused, "the clock is stopped when run returns")
    }

    @Test func aLateFrameCountsTheDeadlinesItMissedAndDrawsOnlyTheNewest() {
        let clock = ManualClock()
        let loop = FrameLoop(hz: 60, clock: clock, fds: [])
        let script = Script(stopAfterFrames: 4)
        script.draw = { frame in
            if frame.index == 2 { clock.advance(by: period * 7 / 2) }  // frame 2 takes 3.5 periods
            return true
        }
        loop.run(script)
        #expect(script.drawn.map(\.index) == [1, 2, 5, 6])
        #expect(loop.missedDeadlines == 2, "deadlines 3 and 4 passed without a frame")
    }

    @Test func aPausedClockSleepsUntilInputThenRestartsOnTheGrid() {
        let clock = ManualClock()
        let input: Int32 = 7
        let loop = FrameLoop(hz: 60, clock: clock, fds: [input])
        let script = Script(stopAfterFrames: 3)
        script.draw = { $0.index < 2 }             // frame 2 says there is nothing more to draw
        var inputSeen = false
        script.wake = {
            // The first wake-up after the pause is the input scheduled below.
            if !inputSeen && clock.nowNS >= 1_000_000_000 { inputSeen = true; return true }
            return false
        }
        clock.input(on: input, afterNS: 1_000_000_000 + 3_000_000)  // 1.003 s: between deadlines 60 and 61
        loop.run(script)
        #expect(script.drawn.map(\.index) == [1, 2, 61])
        #expect(loop.missedDeadlines == 0, "a paused clock misses nothing")
        // Waits: before frames 1 and 2, the sleep until the input, and before frame 61.
        #expect(clock.waits == 4, "it never spins")
    }

    @Test func inputThatNeedsNoFrameLeavesThePausedClockAsleep() {
        let clock = ManualClock()
        let input: Int32 = 3
        let loop = FrameLoop(hz: 60, clock: clock, fds: [input])
        let script = Script(stopAfterFrames: 2)
        script.draw = { _ in false }
        var wokenByInput = 0
        script.wake = {
            if clock.nowNS > period { wokenByInput += 1 }
            return wokenByInput == 3  // the third input asks for a frame
        }
        for k in 1...3 { clock.input(on: input, afterNS: Int64(k) * 100_000_000) }
        loop.run(script)
        #expect(script.drawn.map(\.index) == [1, 19])   // 0.3 s is deadline 18; the next is 19
        #expect(loop.framesDrawn == 2)
    }

    /// The failure this guards against: the drain after the alarm's wake-up runs before the frame
    /// that fell due is drawn, and said the frame after it was upcoming. The ink path stamped its
    /// samples with that later frame; a key in the same drain, played by the due frame, came after
    /// them in the journal with an earlier time, and the session could not be restored.
    @Test func noFrameDrawnHasALowerIndexThanOneSaidToBeUpcoming() {
        let clock = ManualClock()
        let input: Int32 = 4
        let loop = FrameLoop(hz: 60, clock: clock, fds: [input])
        let script = Script(stopAfterFrames: 8)
        var said: [(upcoming: Int, drawnBefore: Int)] = []
        script.wake = {
            said.append((loop.upcomingFrame, script.drawn.count))
            return clock.nowNS >= period * 10   // the input below asks for frames again
        }
        script.draw = { frame in
            if frame.index == 3 { clock.advance(by: period * 5 / 2) }  // late: deadlines 4 and 5 pass
            return frame.index != 6                                    // paused after frame 6
        }
        clock.input(on: input, afterNS: period * 10 + period / 3)   // wakes the paused clock
        loop.run(script)
        #expect(script.drawn.map(\.index) == [1, 2, 3, 5, 6, 11, 12, 13])
        for (upcoming, drawnBefore) in said where drawnBefore < script.drawn.count {
            let next = script.drawn[drawnBefore].index
            #expect(upcoming <= next, "frame \(next) was drawn after frame \(upcoming) was said to be upcoming")
        }
        #expect(said.contains { $0.upcoming == 1 && $0.drawnBefore == 0 }, "the drain before frame 1 says frame 1")
    }

    @Test func theRealClockFiresAtItsAlarm() {
        let clock = TimerFDClock()
        let start = clock.nowNS
        clock.arm(at: start + 2_000_000)
        let wake = clock.wait(for: [])
        #expect(wake.alarm)
        #expect(clock.nowNS >= start + 2_000_000, "not before the alarm's time")
    }
}

@Suite struct FollowingTheDisplayTests {
    @Test func theGridMovesOntoTheDisplaysAndIndicesKeepCounting() {
        let clock = ManualClock()
        let loop = FrameLoop(hz: 60, clock: clock, fds: [])
        let script = Script(stopAfterFrames: 6)
        script.draw = { frame in
            if frame.index == 2 {
                // A 50 Hz display whose next blank is 5 ms from now: tick 1 ms before each.
                loop.follow(periodNS: 20_000_000, deadlineNS: clock.nowNS + 4_000_000)
            }
            return true
        }
        let start = clock.nowNS
        loop.run(script)
        #expect(script.drawn.map(\.index) == [1, 2, 3, 4, 5, 6])
        #expect(loop.missedDeadlines == 0 && loop.followsDisplay && loop.periodNS == 20_000_000)
        // Frame 3 was due 16.7 ms after frame 2: it moves to the new deadline nearest that, 24 ms
        // after (not 4), and the frames after it come every 20 ms.
        let frame2 = Int64(2_000_000_000 / 60)
        #expect(clock.nowNS - start == frame2 + 24_000_000 + 3 * 20_000_000)
    }

    /// The failure this guards against: a blank heard just before a frame is due moves the grid's
    /// phase earlier; taking "the first new deadline after now" postponed that frame by most of a
    /// period (the frame path's p99 was 27 ms under Xvfb instead of 13).
    @Test func aPhaseChangeNeverPostponesTheNextFrameByAPeriod() {
        let clock = ManualClock()
        let input: Int32 = 5
        let loop = FrameLoop(hz: 60, clock: clock, fds: [input])
        let script = Script(stopAfterFrames: 4)
        var followedAt: Int64?
        script.wake = {
            // Heard 0.4 ms before frame 3 is due: the display's deadlines are 2 ms earlier than
            // the loop's, so the one nearest frame 3's is already past.
            if followedAt == nil, clock.nowNS >= 3 * period - 400_000 {
                followedAt = clock.nowNS
                loop.follow(periodNS: period, deadlineNS: 3 * period - 2_000_000)
            }
            return false
        }
        clock.input(on: input, afterNS: 3 * period - 400_000)
        loop.run(script)
        #expect(script.drawn.map(\.index) == [1, 2, 3, 4])
        #expect(loop.missedDeadlines == 0)
        // Frame 3 is drawn at once (0.4 ms early rather than 14.3 ms late), frame 4 on the new grid.
        #expect(followedAt == 3 * period - 400_000)
        #expect(clock.nowNS == 4 * period - 2_000_000)
    }

    @Test func theEstimatorLearnsPeriodAndPhaseFromBlanks() {
        var e = VBlankEstimator()
        e.add(VBlank(nanoseconds: 1_000_000, count: 10))
        e.add(VBlank(nanoseconds: 17_000_000, count: 11))
        #expect(e.periodNS == nil, "three blanks first")
        e.add(VBlank(nanoseconds: 49_000_000, count: 13))   // a report missed: no matter
        e.add(VBlank(nanoseconds: 49_000_000, count: 13))   // the same blank again: ignored
        #expect(e.periodNS == 16_000_000)
        #expect(e.nextBlank(after: 60_000_000) == 65_000_000)
        #expect(e.nextBlank(after: 10_000_000) == 49_000_000, "never one before the newest seen")
    }

    @Test func blanksHeardEarlyOrLateMoveThePhaseByAFractionOfTheirError() {
        // A 60 Hz display whose blanks fall at 5 ms + k·period, each reported up to 1.5 ms off
        // (Xvfb's blanks are a server timer); the newest is 1.5 ms late.
        var e = VBlankEstimator()
        let jitter: [Int64] = [300_000, -900_000, 1_200_000, -400_000, 0, 800_000, -1_100_000, 500_000, -200_000, 1_500_000]
        for (k, j) in jitter.enumerated() { e.add(VBlank(nanoseconds: 5_000_000 + Int64(k) * period + j, count: UInt64(100 + k))) }
        let truth = 5_000_000 + 10 * period
        let next = e.nextBlank(after: 5_000_000 + 9 * period + 2_000_000) ?? 0
        #expect(abs(next - truth) < 750_000, "the fitted blank is \(next - truth) ns off: less than half the newest's 1.5 ms")
        #expect(abs((e.periodNS ?? 0) - period) < 100_000)
    }

    @Test func aCountGoingBackStartsTheEstimateAgain() {
        // The window moved to another monitor: another CRTC, another count.
        var e = VBlankEstimator()
        for k in 0..<5 { e.add(VBlank(nanoseconds: Int64(k) * 16_000_000, count: UInt64(1000 + k))) }
        #expect(e.periodNS == 16_000_000)
        for k in 0..<3 { e.add(VBlank(nanoseconds: 100_000_000 + Int64(k) * 8_000_000, count: UInt64(10 + k))) }
        #expect(e.periodNS == 8_000_000, "a 120 Hz monitor, learnt from its own blanks alone")
    }
}
