import App
import Clock
import Compute
import Events
import Files
import Foundation
import Geometry
import Input
import Journal
import Kernels
import Paint
import PNGFile
import Portal
import ReplayFormat
import Strokes
import Testing
import TestSupport

@Suite struct InkPathTests {
    private let stroke: [InputEvent] = [.pointerDown(sample(20, 60, t: 0)), .pointerMove(sample(90, 40, t: 0.004)),
                                        .pointerMove(sample(140, 80, t: 0.008)), .pointerMove(sample(180, 60, t: 0.012))]

    @Test func penSamplesArePresentedAsTheyArriveBeforeAnyFrame() throws {
        let h = try Harness(lowLatency: true)
        h.draw(frame: 0)   // the window's first frame, as the loop draws at once
        #expect(h.input(Array(stroke.prefix(2))), "the clock keeps ticking while ink flows")
        #expect(h.app.inkPresents == 1 && !h.window.presents.isEmpty, "presented without a frame")
        #expect(h.window.image.texture[55, 50] == 0xFF00_0000, "the line so far is on screen")
        h.input(Array(stroke.dropFirst(2)))
        #expect(h.app.inkPresents == 2)
        #expect(h.window.image.texture[160, 70] == 0xFF00_0000)
    }

    @Test func theInkPathDrawsRecordsAndJournalsWhatTheFramePathWould() throws {
        let ink = try Harness(lowLatency: true), frames = try Harness(lowLatency: false)
        for h in [ink, frames] {
            h.draw(frame: 0)
            h.input(stroke)
            h.input([h.key("3"), .pointerUp(sample(180, 60, t: 0.02))])
            h.draw(frame: 1)
            h.input([.pointerDown(sample(30, 100, t: 0.03)), .pointerUp(sample(170, 100, t: 0.04))])
            h.draw(frame: 2)
            h.app.finish(h.loop)
        }
        #expect(ink.app.inkPresents >= 2 && frames.app.inkPresents == 0)
        expectSamePixels(ink.window.image.pixels, frames.window.image.pixels, width: 200, "what the window shows")
        expectSamePixels(ink.session.snapshot().pixels, frames.session.snapshot().pixels, width: 200, "the canvas")
        #expect(try ink.recorded() == frames.recorded(), "the same events, stamped with the same frames")
    }

    /// What made a soak's session unrestorable ("t goes backwards"): the frame loop wakes for a
    /// deadline and drains input before drawing that frame. A stroke's end took the ink path in
    /// that drain and was stamped with the frame after; the key behind it, played by the frame
    /// that was due, was journaled after the stroke with an earlier time.
    @Test func inkDrainedBeforeADueFrameIsStampedWithThatFrame() throws {
        let h = try Harness(lowLatency: true)
        let ms: Int64 = 1_000_000
        // Frame 1 draws the window (the ink path waits for it). The stroke starts at 20 ms, which
        // wakes the paused clock; the rest comes at 30 ms and is seen at frame 2's deadline.
        h.runInRealLoop([
            (20 * ms, Array(stroke.prefix(2)), true),
            (30 * ms, stroke.dropFirst(2) + [.pointerUp(sample(180, 60, t: 0.012)), h.key("]")], false),
        ])
        #expect(h.app.inkPresents == 2, "the stroke took the ink path")
        #expect(h.window.image.texture[160, 70] == 0xFF00_0000)
        let recorded = try h.recorded()
        #expect(recorded.map(\.t) == [Double](repeating: 2.5 / 60, count: 6), "all played by frame 2")
        #expect(recorded.last?.event == .command(.brush(size: 16)))
        let journal = try ReplayParser.parse(String(contentsOfFile: h.journal.path, encoding: .utf8))
        #expect(journal.endedCleanly && Array(journal.events.dropFirst(BrushKind.allCases.count).dropLast()) == recorded)
    }

    /// Ink, keys and frames in the orders the real loop can put them in: random schedules (pen
    /// samples 0–3 ms apart, keys between strokes, some arrivals waking the loop and the rest
    /// waiting for a deadline, presents completing late) all restore from the journal to exactly
    /// the canvas the window drew, mercurial strokes (which depend on frame batching) included.
    @Test(arguments: 1...10 as ClosedRange<UInt64>)
    func randomSchedulesInTheRealLoopRestoreToTheCanvasTheWindowDrew(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let h = try Harness(lowLatency: true)
        let keys: [Key] = ["[", "]", "1", "3", "p", "x", "m", "e", "s", .delete, "z"]
        var arrivals: [(atNS: Int64, events: [InputEvent], wakes: Bool)] = []
        var at: Int64 = 20_000_000, x = 100.0, y = 60.0, down = false
        for _ in 0..<400 {
            at += Int64(rng.next() % 3_000_000)
            let t = Double(at) / 1e9
            let event: InputEvent
            if !down && rng.next() % 4 == 0 {
                let key = keys[Int(rng.next() % UInt64(keys.count))]
                event = h.key(key, key == "z" ? [.control] : [], at: t)
            } else if !down {
                (event, down) = (.pointerDown(sample(x, y, t: t)), true)
            } else if rng.next() % 40 == 0 {
                (event, down) = (.pointerUp(sample(x, y, t: t)), false)
            } else {
                x = min(max(x + Double(rng.next() % 13) - 6, 2), 198)
                y = min(max(y + Double(rng.next() % 13) - 6, 2), 118)
                event = .pointerMove(sample(x, y, t: t))
            }
            arrivals.append((at, [event], rng.next() % 3 == 0))
        }
        if down { arrivals.append((at, [.pointerUp(sample(x, y, t: Double(at) / 1e9))], false)) }
        h.runInRealLoop(arrivals, presentPending: { rng.next() % 4 == 0 })
        #expect(h.app.inkPresents > 0)
        let restored = try Playback.load(h.journal.path, reading: .recovering, compute: ComputeContext(threads: 1))
        #expect(restored.endedCleanly)
        expectSamePixels(restored.session.snapshot().pixels, h.session.snapshot().pixels, width: 200, "restored vs drawn")
    }

    @Test func aPendingPresentHoldsTheInkUntilItCompletes() throws {
        let h = try Harness(lowLatency: true)
        h.draw(frame: 0)   // the window's first frame, as the loop draws at once
        h.window.isPresentPending = true
        let before = h.window.presents.count
        h.input(Array(stroke.prefix(2)))
        #expect(h.app.inkPresents == 0 && h.window.presents.count == before, "never more than one present queued")
        h.window.isPresentPending = false
        h.input([])   // the completion's wake-up
        #expect(h.app.inkPresents == 1 && h.window.image.texture[55, 50] == 0xFF00_0000)
    }

    @Test func onlyPenLikeSamplesTakeTheInkPath() throws {
        let h = try Harness(lowLatency: true)
        h.draw(frame: 0)   // the window's first frame, as the loop draws at once
        h.input([h.key("m"), .pointerDown(sample(100, 60, t: 0)), .pointerMove(sample(120, 60, t: 0.01))])
        #expect(h.app.inkPresents == 0, "the mercurial brush stays on the frame clock")
        h.input([.pointerUp(sample(120, 60, t: 0.02))])
        h.draw(frame: 1)
        let g = try Harness(lowLatency: true)
        g.draw(frame: 0)
        g.input([.pointerDown(sample(20, 60, t: 0)), g.key("3"), .pointerMove(sample(180, 60, t: 0.01))])
        #expect(g.app.inkPresents == 1, "ink up to the command")
        #expect(g.window.image.texture[150, 60] != 0xFF00_0000, "the move after the command waits for the frame")
        g.draw(frame: 1)
        #expect(g.window.image.texture[150, 60] == 0xFF00_0000)
    }
}

@Suite struct DisplayClockTests {
    @Test func theClockFollowsTheBlanksTheDisplayReports() throws {
        let h = try Harness()
        h.window.reportsVBlanks = true
        h.draw(frame: 1)
        #expect(h.window.blanksAsked == 1, "each frame asks for the next blank")
        #expect(h.app.clockDescription == "timerfd, 60 Hz (the display's blanks were not heard)")
        // A 75 Hz display: blanks 13.333 ms apart, the last 1 ms from now.
        let now = h.loop.nowNS
        h.window.blanks = (0..<4).map { VBlank(nanoseconds: now - 1_000_000 - Int64(3 - $0) * 13_333_333, count: 100 + UInt64($0)) }
        h.input([])
        #expect(h.loop.followsDisplay && h.loop.periodNS == 13_333_333)
        #expect(h.app.clockDescription.hasPrefix("Present: the display's blanks, period 13.33 ms, ticking "))
        let none = try Harness()
        #expect(none.app.clockDescription == "timerfd, 60 Hz (no Present extension)")
    }
}

@Suite struct PredictionTests {
    /// A steady drag to the right at 500 px/s, a sample every 4 ms, from x = 20 to 100.
    private let drag: [InputEvent] = [.pointerDown(sample(20, 60, t: 0))]
        + (1...40).map { .pointerMove(sample(20 + Double($0) * 2, 60, t: Double($0) * 0.004)) }

    @Test func aPredictedTailRunsAheadOfTheLastSampleInTheWindowOnly() throws {
        let h = try Harness(lowLatency: true)
        h.draw(frame: 0)
        h.input(drag)
        // 16 ms at 500 px/s: about 8 px beyond x = 100.
        let shown = h.window.image.texture
        #expect(shown[106, 60] == 0xFF00_0000, "the prediction shows ahead of the pen")
        #expect(shown[116, 60] == 0xFFFF_FFFF, "and no further than the horizon")
        let picture = h.session.snapshot()
        #expect(picture[106, 60] == 0xFFFF_FFFF && picture[100, 60] == 0xFF00_0000,
                "an export mid-stroke shows the real line only")
        // A pen that stops sends nothing more: once the horizon has passed, the tail goes.
        h.draw(frame: 1)   // 16.7 ms later
        #expect(h.window.image.texture[106, 60] == 0xFFFF_FFFF && h.window.image.texture[100, 60] == 0xFF00_0000)
        // The next sample replaces it.
        h.input([.pointerUp(sample(100, 60, t: 0.17))])
        h.draw(frame: 20)
        #expect(h.window.image.texture[106, 60] == 0xFFFF_FFFF, "gone once the pen lifted where it was")
    }

    @Test func theFinalPictureIsTheSameWithPredictionOnOrOff() throws {
        let on = try Harness(lowLatency: true), off = try Harness(lowLatency: true, predictMilliseconds: 0)
        for h in [on, off] {
            h.draw(frame: 0)
            h.input(drag)
            h.input([.pointerMove(sample(100, 90, t: 0.2)), .pointerUp(sample(150, 100, t: 0.21))])
            h.draw(frame: 13)
            h.app.finish(h.loop)
        }
        expectSamePixels(on.session.snapshot().pixels, off.session.snapshot().pixels, width: 200, "the canvas")
        expectSamePixels(on.window.image.pixels, off.window.image.pixels, width: 200, "the window once the stroke ended")
        #expect(try on.recorded() == off.recorded(), "nothing of it is recorded")
    }
}
