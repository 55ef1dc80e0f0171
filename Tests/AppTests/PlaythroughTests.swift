import App
import Clock
import Compute
import Events
import Foundation
import Geometry
import Input
import Journal
import Kernels
import Paint
import ReplayFormat
import Testing
import TestSupport

/// `window --play`: the feed's pace, and a played file ending exactly where opening it ends.
@Suite struct PlaythroughTests {
    private func event(_ t: Double, _ e: SessionEvent) -> Replay.TimedEvent { Replay.TimedEvent(t: t, event: e) }
    private func down(_ t: Double) -> Replay.TimedEvent { event(t, .pointerDown(StrokeSample(x: 10, y: 10, pressure: 0.5))) }
    private func seconds(_ clock: ManualClock) -> Double { Double(clock.nowNS) / 1e9 }

    /// Takes what is due at each 60 Hz tick of a manual clock for `ticks` ticks: the tick (in
    /// 60ths of a second) each event came out at, in order.
    private func ticksOut(_ feed: inout Playthrough, ticks: Int) -> [Int] {
        let clock = ManualClock()
        var out: [Int] = []
        for tick in 0...ticks {
            clock.advance(by: Int64(tick) * 1_000_000_000 / 60 - clock.nowNS)
            out += feed.take(at: seconds(clock)).map { _ in tick }
        }
        return out
    }

    @Test func eventsComeOutAtTheirFramesPaceWithPausesSqueezedToHalfASecond() {
        // Frames 0, 6, 6 and 306 of the player: 0.1 s, then a 5 s pause.
        let events = [event(0, .command(.undo)), down(0.1), down(0.11), down(5.1)]
        var feed = Playthrough(events: events, speed: 1)
        // The drawing clock: frame 0 counts one frame, 6 frames on, then 30 (the pause, squeezed).
        let expected = [1, 7, 7, 7 + DrawingClock.idleFrames]
        #expect(feed.seconds == Double(expected[3]) / 60)
        #expect(ticksOut(&feed, ticks: 120) == expected)
        #expect(feed.isDone && feed.percent == 100)
        // Twice as fast: at half the ticks.
        var fast = Playthrough(events: events, speed: 2)
        #expect(ticksOut(&fast, ticks: 120) == expected.map { ($0 + 1) / 2 })
        // A tenth as fast: the first event after ten ticks.
        var slow = Playthrough(events: events, speed: 0.1)
        #expect(slow.take(at: 9.5 / 60).isEmpty && slow.percent == 0)
        #expect(slow.take(at: 10 / 60).count == 1)
    }

    @Test func framesComeOutWholeAndAContinuedLinePlaysAfterTheFramesBeforeIt() {
        // A window that continued the file at frame 30 plays from frame 31 on (`ReplayPlayer`).
        let events = [down(0.5), event(0, .command(.continued)), down(0.1), down(0.1)]
        var feed = Playthrough(events: events, speed: 1)
        // Frames 0 (the opening), 30, 31 and 37: clock 1, 31, 32 and 38.
        #expect(feed.take(at: 30.9 / 60).isEmpty)
        #expect(feed.take(at: 31 / 60).count == 1)
        #expect(feed.percent == 31 * 100 / 38)
        #expect(feed.take(at: 37.9 / 60).count == 1)
        // Both events of frame 37 at once.
        #expect(feed.take(at: 38 / 60).count == 2)
        #expect(feed.isDone)
        var jump = Playthrough(events: events, speed: 1)
        #expect(jump.take(at: 31 / 60).count == 1)
        #expect(jump.takeRest().count == 3 && jump.isDone)
    }

    /// A session file: a pen stroke, a long pause, a mercurial stroke (its spray depends on the
    /// frames its samples are batched into), one undone, and a last stroke.
    private func sessionFile(in folder: String) throws -> String {
        var lines = [##"{"quicksilver": 1, "width": 200, "height": 120, "seed": 7, "background": "#fbf8f1"}"##,
                     ##"{"t": 0.0, "type": "brush", "kind": "pen", "size": 6, "color": "#1b1f3b"}"##]
        func stroke(at start: Double, y: Int) {
            for i in 0...20 {
                let type = i == 0 ? "down" : i == 20 ? "up" : "move"
                lines.append(#"{"t": \#(start + Double(i) * 0.011), "type": "\#(type)", "x": \#(10 + i * 9), "y": \#(y + i % 3), "pressure": 0.6}"#)
            }
        }
        stroke(at: 0.05, y: 20)
        lines.append(##"{"t": 3.0, "type": "brush", "kind": "mercurial", "size": 30, "color": "#b8c0cc"}"##)
        stroke(at: 3.1, y: 50)
        stroke(at: 3.6, y: 70)
        lines.append(#"{"t": 4.0, "type": "undo"}"#)
        lines.append(##"{"t": 4.1, "type": "brush", "kind": "pen", "size": 4, "color": "#aa2211"}"##)
        stroke(at: 4.2, y: 100)
        let path = folder + "/session.jsonl"
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The window opened on `path` as `window FILE` does (`speed` nil) or `window --play FILE
    /// --speed X`, its journal continuing the file; a manual clock, frames drawn by the test.
    final class Opened {
        let window: FakeWindow
        let session: Session
        let app: PaintApp
        let journalPath: String
        private let clock = ManualClock()
        private let loop: FrameLoop
        private(set) var frame = 0

        init(_ path: String, speed: Double?, folder: String) throws {
            let compute = ComputeContext(threads: 1)
            let started = try SessionStart.start(.file(path), store: nil, compute: compute, historyBytes: 1 << 26,
                                                 background: .white, playing: speed != nil)
            let session = try #require(started.session)
            #expect((started.unplayed != nil) == (speed != nil))
            self.session = session
            window = FakeWindow(size: session.document.frame.size)
            loop = FrameLoop(hz: 60, clock: clock, fds: [])
            journalPath = folder + "/journal.jsonl"
            let journal = try Journal(path: journalPath, session: session, header: Replay.Header(size: session.document.frame.size),
                                      continuing: started.continuation)
            app = PaintApp(window: window, session: session, journal: journal, exporter: Exporter(folder: folder),
                           console: Console(out: { _ in }, err: { _ in }), startCommands: [.continued], lowLatency: false,
                           playing: speed.map { Playthrough(events: started.unplayed ?? [], speed: $0) })
        }

        /// True while the status says the file is being played.
        var isPlaying: Bool { app.status?.prompt?.hasPrefix("playing") == true }

        /// Wakes the app with `events` and draws the next frame, as the loop would.
        func frame(_ events: [InputEvent] = []) {
            frame += 1
            clock.advance(by: Int64(frame) * 1_000_000_000 / 60 - clock.nowNS)
            window.queued += events
            _ = app.frameLoopDidWake(loop)
            _ = app.frameLoop(loop, draw: FrameInfo(index: frame, timestamp: Double(frame) / 60, targetTimestamp: Double(frame + 1) / 60))
        }

        /// Ctrl+Z, a frame, then the end of the session; the journal as written.
        func undoAndFinish() throws -> String {
            frame([.key(KeyPress("z", mods: [.control], time: 0))])
            frame()
            app.finish(loop)
            return try String(contentsOfFile: journalPath, encoding: .utf8)
        }
    }

    /// Pixels unlike the first one (the background).
    private func ink(_ pixels: [UInt32]) -> Int { pixels.filter { $0 != pixels[0] }.count }

    @Test(arguments: [1.0, 3.0])
    func aPlayedFileEndsWithTheWindowUndoAndJournalOfTheFileOpened(speed: Double) throws {
        let folder = try ScratchFolder.make("play")
        let path = try sessionFile(in: folder)
        let opened = try Opened(path, speed: nil, folder: try ScratchFolder.make("opened"))
        opened.frame()
        let final = opened.window.image.pixels
        #expect(ink(final) > 0)

        let played = try Opened(path, speed: speed, folder: try ScratchFolder.make("played"))
        played.frame()
        let opening = played.window.image.pixels
        #expect(ink(opening) == 0, "the play starts from the file's opening canvas")
        var inks: [Int] = []
        while played.isPlaying && played.frame < 2000 {
            played.frame()
            inks.append(ink(played.window.image.pixels))
        }
        #expect(!played.isPlaying)
        // The play took the file's drawing time (pauses squeezed), at its speed.
        let drawing = Playthrough(events: try ReplayParser.parse(String(contentsOfFile: path, encoding: .utf8)).events, speed: speed).seconds
        #expect(abs(Double(inks.count) - drawing * 60) <= 2, "\(inks.count) frames for \(drawing) s")
        // Part of it, then more of it: the first stroke was shown alone at some frame.
        #expect(inks.contains { $0 > 0 && $0 < ink(final) / 2 })
        played.frame()
        #expect(played.window.image.pixels == final)
        // The same undo history, and the same journal: the file's events once, then `continued`.
        let openedJournal = try opened.undoAndFinish(), playedJournal = try played.undoAndFinish()
        #expect(played.window.image.pixels == opened.window.image.pixels)
        #expect(played.window.image.pixels != final, "the undo undid the last stroke")
        #expect(playedJournal == openedJournal)
        #expect(playedJournal.components(separatedBy: #""type": "continued""#).count == 2)
    }

    /// The session file opened at once, and played at half speed for 30 frames (still playing).
    private func openedAndPlayedPartway() throws -> (opened: Opened, played: Opened) {
        let folder = try ScratchFolder.make("play")
        let path = try sessionFile(in: folder)
        let opened = try Opened(path, speed: nil, folder: try ScratchFolder.make("opened"))
        opened.frame()
        let played = try Opened(path, speed: 0.5, folder: try ScratchFolder.make("played"))
        for _ in 0..<30 { played.frame() }
        #expect(played.isPlaying)
        return (opened, played)
    }

    @Test func aKeyJumpsToTheEnd() throws {
        let (opened, played) = try openedAndPlayedPartway()
        #expect(played.window.image.pixels != opened.window.image.pixels)
        played.frame([.key(KeyPress("a", mods: [], time: 0))])
        #expect(!played.isPlaying)
        played.frame()
        #expect(played.window.image.pixels == opened.window.image.pixels)
    }

    @Test func aPressJumpsToTheEndAndItsDragDrawsAndJournalsNothing() throws {
        let (opened, played) = try openedAndPlayedPartway()
        played.frame([.pointerDown(sample(20, 60, t: 0))])
        #expect(!played.isPlaying)
        for i in 1...10 { played.frame([.pointerMove(sample(20 + Double(i) * 15, 60, t: Double(i) / 60))]) }
        played.frame([.pointerUp(sample(170, 60, t: 0.2))])
        played.frame()
        #expect(played.window.image.pixels == opened.window.image.pixels)
        // Nor is any of it journaled after the `continued` line.
        let journal = try played.undoAndFinish()
        let window = journal.components(separatedBy: #""type": "continued""#).last ?? ""
        #expect(!window.contains(#""type": "move""#) && !window.contains(#""type": "up""#), "\(window)")
    }
}
