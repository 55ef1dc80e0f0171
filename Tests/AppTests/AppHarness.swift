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

/// A window with no display: input is queued by the test, frames land in memory, titles and
/// presents are kept for inspection.
final class FakeWindow: AppWindow {
    let size: Size
    let image: TextureStorage<UInt32>
    var queued: [InputEvent] = []
    /// Called as the app asks for events: a test run by the real frame loop queues there what
    /// has arrived by the clock's time.
    var arrive: () -> Void = {}
    private(set) var titles: [String] = []
    private(set) var presents: [Rect] = []
    private(set) var wholePresents = 0

    init(size: Size) {
        self.size = size
        image = TextureStorage(width: size.width, height: size.height, filledWith: 0)
    }
    func pendingEvents() -> [InputEvent] { arrive(); defer { queued = [] }; return queued }
    func setTitle(_ title: String) { titles.append(title) }
    func frameTarget() -> Texture<UInt32> { image.texture }
    func present(_ damage: Rect) { presents.append(damage) }
    func presentAll() { wholePresents += 1 }
    func waitForPresentCompletion() {}
    /// What the app put on the clipboard, and how many times it asked for the clipboard's image.
    private(set) var clipboard: [UInt8]?
    private(set) var pasteRequests = 0
    func offerClipboard(png: [UInt8]) -> Bool { clipboard = png; return true }
    func requestClipboardImage() { pasteRequests += 1 }
    /// Whether the crosshair pointer is shown.
    private(set) var crosshair = false
    func setCrosshair(_ on: Bool) { crosshair = on }
    /// A present the server has not finished (the ink path waits for it).
    var isPresentPending = false
    var hasBufferedEvents: Bool { !queued.isEmpty }
    /// Vertical blanks the test feeds (a display without them: none).
    var blanks: [VBlank] = []
    var reportsVBlanks = false
    private(set) var blanksAsked = 0
    func askForVBlank() { blanksAsked += 1 }
    func takeVBlanks() -> [VBlank] { defer { blanks = [] }; return blanks }
}

/// Lines written to the console, kept for the test (the app writes from the frame loop's thread).
final class Lines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.lock(); lines.append(line); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return lines }
}

/// The app on a fake window with a manual clock, a recording, a journal and an export folder:
/// the test plays the frame loop's part, calling the delegate as the loop would.
final class Harness {
    let window: FakeWindow
    let clock = ManualClock()
    let loop: FrameLoop
    let session: Session
    let app: PaintApp
    let folder: String
    let out = Lines(), err = Lines()
    let recordPath: String
    let recorder: Journal
    let journal: Journal
    private var frame = 0

    /// - Parameter lowLatency: the immediate ink path (off: every sample waits for a frame).
    /// - Parameter predictMilliseconds: the predicted tail's horizon (0: none).
    /// - Parameter uiScale: the on-canvas tools' scale (nil: none, as in most tests).
    init(lowLatency: Bool = false, predictMilliseconds: Double = 16, size: Size = Size(width: 200, height: 120), uiScale: Double? = nil,
         document: ((_ folder: String) -> DocumentNames)? = nil, brushes: BrushShelf? = nil, chooser: FileChooser? = nil) throws {
        window = FakeWindow(size: size)
        folder = try ScratchFolder.make("app")
        loop = FrameLoop(hz: 60, clock: clock, fds: [])
        session = Session(size: window.size, compute: ComputeContext(threads: 1))
        recordPath = folder + "/record.jsonl"
        recorder = try Journal(path: recordPath, kind: .recording, session: session, header: Replay.Header(size: window.size))
        journal = try Journal(path: folder + "/journal.jsonl", session: session, header: Replay.Header(size: window.size))
        let (out, err) = (out, err)
        app = PaintApp(window: window, session: session, recorder: recorder, journal: journal,
                       exporter: Exporter(folder: folder), console: Console(out: { out.append($0) }, err: { err.append($0) }),
                       lowLatency: lowLatency, predictMilliseconds: predictMilliseconds, uiScale: uiScale,
                       document: document?(folder) ?? DocumentNames(folder: folder), brushes: brushes, chooser: chooser)
    }

    /// Delivers `events` at time `t` (seconds on the window's clock) and lets the app take them.
    @discardableResult
    func input(_ events: [InputEvent]) -> Bool {
        window.queued += events
        return app.frameLoopDidWake(loop)
    }

    /// Draws frame `index` (later than the last).
    @discardableResult
    func draw(frame index: Int) -> Bool {
        frame = index
        clock.advance(by: Int64(index) * 1_000_000_000 / 60 - clock.nowNS)
        let more = app.frameLoop(loop, draw: FrameInfo(index: index, timestamp: Double(index) / 60, targetTimestamp: Double(index + 1) / 60))
        // A save or a screenshot asked for is written in the background: here, done before the test looks.
        app.waitForWrites()
        return more
    }

    /// Delivers `events`, then draws the next frame (which shows the status they leave).
    func step(_ events: [InputEvent]) {
        input(events)
        draw(frame: frame + 1)
    }

    /// Runs the app in the real frame loop on the manual clock, as the window would, until a
    /// Ctrl+Q 50 ms after the last arrival, then finishes it. Each arrival's events are queued at
    /// its time and seen at the next wake-up: its own, if it `wakes` the loop, else the next
    /// deadline's or another arrival's. `presentPending` is asked at each drain.
    func runInRealLoop(_ arrivals: [(atNS: Int64, events: [InputEvent], wakes: Bool)],
                       presentPending: @escaping () -> Bool = { false }) {
        let input: Int32 = 9
        let loop = FrameLoop(hz: 60, clock: clock, fds: [input])
        let quitNS = (arrivals.last?.atNS ?? 0) + 50_000_000
        var waiting = arrivals + [(quitNS, [key("q", [.control])], true)]
        for a in waiting where a.wakes { clock.input(on: input, afterNS: a.atNS - clock.nowNS) }
        let (window, clock) = (window, clock)
        window.arrive = {
            while let first = waiting.first, first.atNS <= clock.nowNS {
                window.queued += first.events
                waiting.removeFirst()
            }
            window.isPresentPending = presentPending()
        }
        loop.run(app)
        app.finish(loop)
    }

    func key(_ key: Key, _ mods: Modifiers = [], at t: Double = 0) -> InputEvent {
        .key(KeyPress(key, mods: mods, time: t))
    }

    /// The recording's event lines, parsed (once what was handed to its writer is written).
    func recorded() throws -> [Replay.TimedEvent] {
        recorder.flushNow()
        return try ReplayParser.parse(String(contentsOfFile: recordPath, encoding: .utf8)).events
    }
}

func sample(_ x: Double, _ y: Double, t: Double, _ mods: Modifiers = [], pressure: Double? = nil) -> PointerSample {
    PointerSample(x: x, y: y, pressure: pressure, time: t, mods: mods)
}
