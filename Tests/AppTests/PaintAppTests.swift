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

@Suite struct PaintAppTests {
    @Test func aDragDrawsWhereThePointerWent() throws {
        let h = try Harness()
        h.input([.pointerDown(sample(20, 60, t: 0)), .pointerMove(sample(100, 60, t: 0.01)), .pointerUp(sample(180, 60, t: 0.02))])
        h.draw(frame: 1)
        let ink = h.window.image.texture
        for x in stride(from: 20, through: 180, by: 10) { #expect(ink[x, 60] == 0xFF00_0000, "on the path at x=\(x)") }
        #expect(ink[100, 20] == 0xFFFF_FFFF && ink[100, 100] == 0xFFFF_FFFF)
        #expect(h.window.presents.last.map { $0.contains(x: 100, y: 60) } == true)
    }

    @Test func recordsAndJournalsExactlyWhatEachFramePlayedStampedWithThatFrame() throws {
        let h = try Harness()
        #expect(h.input([.pointerDown(sample(20, 20, t: 0)), .pointerMove(sample(40, 30, t: 0.004))]), "input asks for a frame")
        h.draw(frame: 3)
        h.input([.pointerMove(sample(60, 40, t: 0.05)), .pointerUp(sample(80, 50, t: 0.06)), h.key("]")])
        h.draw(frame: 7)
        h.app.finish(h.loop)
        let recorded = try h.recorded()
        #expect(recorded.map(\.t) == [3.5, 3.5, 7.5, 7.5, 7.5].map { $0 / 60 })
        #expect(recorded.map(\.event) == [
            .pointerDown(StrokeSample(x: 20, y: 20, pressure: 0.5)), .pointerMove(StrokeSample(x: 40, y: 30, pressure: 0.5)),
            .pointerMove(StrokeSample(x: 60, y: 40, pressure: 0.5)), .pointerUp(StrokeSample(x: 80, y: 50, pressure: 0.5)),
            .command(.brush(size: 16)),
        ])
        // The journal starts with the brush (a line per kind: each one's size, the current one
        // last), then holds the same events in the same order, then the clean exit.
        let journal = try ReplayParser.parse(String(contentsOfFile: h.journal.path, encoding: .utf8))
        let kinds = BrushKind.allCases.count
        #expect(journal.events.prefix(kinds).allSatisfy { if case .command(.brush) = $0.event { $0.t == 0 } else { false } })
        #expect(Array(journal.events.dropFirst(kinds).dropLast()) == recorded)
        #expect(journal.events.last?.event == .command(.exit) && journal.endedCleanly)
    }

    /// A journal whose times go back cannot be restored: whatever order frames come in, the
    /// stamps never do (a frame older than one already recorded is stamped with that one).
    @Test func stampsNeverGoBackSoTheJournalStaysRestorable() throws {
        let h = try Harness()
        h.input([.pointerDown(sample(20, 20, t: 0)), .pointerUp(sample(40, 30, t: 0.004))])
        h.draw(frame: 5)
        h.input([h.key("]")])
        _ = h.app.frameLoop(h.loop, draw: FrameInfo(index: 3, timestamp: 3.0 / 60, targetTimestamp: 4.0 / 60))
        h.app.finish(h.loop)
        #expect(try h.recorded().map(\.t) == [5.5, 5.5, 5.5].map { $0 / 60 })
        let journal = try ReplayParser.parse(String(contentsOfFile: h.journal.path, encoding: .utf8))
        #expect(journal.endedCleanly, "it parses (a time going back would throw) and ended cleanly")
    }

    @Test func shiftPressesHardAndControlLightlyAsTheSamplesAreDecided() throws {
        let h = try Harness()
        h.input([.modifiers([.shift], time: 0), .pointerDown(sample(10, 10, t: 0.2, [.shift])),
                 .pointerMove(sample(20, 10, t: 0.2, [])), .modifiers([.control], time: 0.2),
                 .pointerMove(sample(30, 10, t: 0.4, [.control])),
                 .pointerUp(sample(40, 10, t: 0.4, [.control], pressure: 0.33333333))])
        h.draw(frame: 1)
        let pressures = try h.recorded().compactMap { e -> Double? in
            switch e.event { case .pointerDown(let s), .pointerMove(let s), .pointerUp(let s): s.pressure; default: nil }
        }
        #expect(pressures.count == 4)
        #expect(pressures[0] > 0.999, "Shift held for 0.2 s: pressed hard")
        #expect(pressures[1] == pressures[0], "no time passed: the pressure has not eased yet")
        #expect(abs(pressures[2] - 0.2) < 0.001, "Control for 0.2 s: a light touch")
        #expect(pressures[3] == 0.3333, "a device's own pressure wins, kept to four decimals")
    }

    /// The layer keys, several in one wake-up: each acts on the stack as the ones before it left
    /// it, the title says which layer of how many and how it is shown, and the recording holds
    /// what each did (an index, an opacity, a mode), so it renders to what the window shows.
    @Test func layerKeysActInOrderAndAreRecordedAsWhatTheyDid() throws {
        let h = try Harness()
        h.input([.pointerDown(sample(20, 30, t: 0)), .pointerUp(sample(180, 30, t: 0.01))])
        h.draw(frame: 1)
        h.input([h.key(.insert), h.key("3"), .pointerDown(sample(20, 60, t: 0.1)), .pointerUp(sample(180, 60, t: 0.11)),
                 h.key("n"), h.key("n", [.control, .shift]), h.key(.pageUp), h.key(.pageDown), h.key(","), h.key(",")])
        h.draw(frame: 2)
        let d = h.session.document
        #expect(d.layers.map(\.name) == ["Layer 1", "Layer 2", "Layer 3"] && d.current == 1)
        #expect(d.layers[1].attributes.mode == .multiply && d.layers[1].attributes.opacity == 0.8)
        #expect(h.app.status?.layer == "layer 2/3 (multiply, 80 %)")
        h.input([h.key("v")])
        h.draw(frame: 3)
        #expect(h.app.status?.layer == "layer 2/3 (multiply, 80 %, hidden)")
        #expect(h.session.snapshot()[100, 60] == 0xFFFF_FFFF, "the hidden layer's red stroke is not shown")
        h.input([h.key("v"), h.key(.pageDown), h.key(.delete, [.shift]), h.key("e", .control)])
        h.draw(frame: 4)
        #expect(d.layers.map(\.name) == ["Layer 2", "Layer 3"] && d.current == 0, "layer 1 deleted; nothing below layer 2 to merge into")
        let shown = h.session.snapshot()
        h.app.finish(h.loop)
        let layerLines = try String(contentsOfFile: h.recordPath, encoding: .utf8).split(separator: "\n").filter { $0.contains("\"layer\"") }
        #expect(layerLines.map { $0.components(separatedBy: "\"action\": ").last ?? "" } == [
            "\"new\"}", "\"set\", \"mode\": \"svg:multiply\"}", "\"new\"}", "\"select\", \"index\": 2}", "\"select\", \"index\": 1}",
            "\"set\", \"opacity\": 0.9}", "\"set\", \"opacity\": 0.8}", "\"set\", \"visible\": false}", "\"set\", \"visible\": true}",
            "\"select\", \"index\": 0}", "\"delete\"}", "\"merge\"}",
        ], "\(layerLines)")
        let replayed = try Playback.load(h.recordPath, compute: ComputeContext(threads: 1)).session
        #expect(replayed.snapshot().pixels == shown.pixels && replayed.documentImage() == h.session.documentImage())
    }

    @Test func keysBecomeCommandsAndTheTitleFollows() throws {
        let h = try Harness()
        #expect(h.app.status == Status(brush: Brush(), pressure: "pressure 0.50 (simulated)", layer: "layer 1/1", zoom: "100 %",
                                       journaled: true))
        #expect(h.window.titles.last == h.app.status?.title, "the title says what the status holds")
        h.input([h.key("]"), h.key("x"), h.key("3")])
        h.draw(frame: 1)
        #expect(h.session.brush.tip == BrushTip(kind: .pixel, size: 8), "each kind keeps its own size")
        #expect(h.session.brush.size(for: .pen) == 16)
        #expect(h.app.status?.brush == h.session.brush && h.window.titles.last == h.app.status?.title)
        #expect(!h.app.shouldStop)
        h.input([h.key("q", .control)])
        #expect(h.app.shouldStop)
    }

    /// Each change is made from the brush as the changes queued before it leave it, not as the
    /// last frame left it: two size keys before a frame double the size twice.
    @Test func changesQueuedBeforeAFrameBuildOnEachOther() throws {
        let h = try Harness()
        h.input([h.key("]"), h.key("]")])
        h.draw(frame: 1)
        #expect(h.session.brush.tip == BrushTip(kind: .pen, size: 32))
        h.input([h.key("["), h.key("x"), h.key("["), h.key("p")])
        h.draw(frame: 2)
        #expect(h.session.brush.tip == BrushTip(kind: .pen, size: 16), "the pixel pen's halving was its own")
        #expect(h.session.brush.size(for: .pixel) == 4)
    }

    @Test func theCloseButtonStops() throws {
        let h = try Harness()
        h.input([.close])
        #expect(h.app.shouldStop)
    }

    @Test func ctrlShiftEExportsExactlyWhatTheWindowShows() throws {
        let h = try Harness()
        h.input([.pointerDown(sample(30, 30, t: 0)), .pointerUp(sample(170, 90, t: 0.01)), h.key("e", [.control, .shift])])
        h.draw(frame: 1)
        let path = try #require(h.out.all.last)
        #expect(path.hasPrefix(h.folder + "/quicksilver-") && path.hasSuffix(".png"))
        let png = try PNGImage.read(from: path)
        #expect(png.width == 200 && png.height == 120)
        let diff = pixelDifference(png.pixels, h.window.image.pixels, width: 200)
        #expect(diff == nil, "\(diff ?? "")")
        #expect(h.app.status?.message == "exported \(path)")
    }

    /// A message stays said while frames go on with nothing new (the clock ticks for other
    /// reasons: the editor's preparation, a pulse); something else changing replaces it.
    @Test func aMessageOutlastsFramesThatBringNothingNew() throws {
        let h = try Harness()
        h.input([.key(KeyPress(.print, time: 0))])
        h.draw(frame: 1)
        let message = try #require(h.app.status?.message)
        #expect(message.hasPrefix("exported ") && message.hasSuffix(".png"), "\(message)")
        h.draw(frame: 2)
        h.draw(frame: 3)
        #expect(h.app.status?.message == message)
        // The pressure moving (here a pen's) changes the pressure shown, not the message.
        h.input([.pointerDown(PointerSample(x: 10, y: 10, pressure: 0.73, time: 0.1))])
        h.draw(frame: 20)
        #expect(h.app.status?.pressure == "pressure 0.73 (pen)" && h.app.status?.message == message)
        h.input([.pointerUp(PointerSample(x: 12, y: 10, pressure: 0.73, time: 0.12)), h.key("]")])
        h.draw(frame: 21)
        #expect(h.app.status?.brush.tip.size == 16 && h.app.status?.message == nil, "a new size replaces the message")
    }

    @Test func aFailedExportSaysSoInTheTitleAndOnStderr() throws {
        let h = try Harness()
        try FileManager.default.removeItem(atPath: h.folder)
        h.input([h.key("e", [.control, .shift])])
        h.draw(frame: 1)
        #expect(h.err.all.first?.hasPrefix("quicksilver: screenshot failed: \(h.folder)/quicksilver-") == true)
        #expect(h.app.status?.message == "screenshot failed")
    }

    @Test func exposeShowsTheLastImageAgainWithoutAFrame() throws {
        let h = try Harness()
        #expect(h.input([.expose]) == true, "the first frame is still due")
        #expect(h.window.wholePresents == 1)
    }

    @Test func aResizedWindowIsRedrawnWholeAndTheCanvasKeepsItsSize() throws {
        let h = try Harness()
        h.draw(frame: 1)
        let before = h.window.presents.count
        h.input([.resize(Size(width: 300, height: 90), time: 0.1)])
        h.draw(frame: 2)
        #expect(Array(h.window.presents.dropFirst(before)) == [Rect(x: 0, y: 0, width: 200, height: 120)], "the whole window again")
        h.app.finish(h.loop)
        #expect(h.session.document.frame.size == Size(width: 200, height: 120))
        #expect(try h.recorded().isEmpty, "a window's size is not the picture's")
    }

    @Test func finishingPlaysWhatIsStillQueuedAndMarksTheJournalClean() throws {
        let h = try Harness()
        h.input([.pointerDown(sample(20, 20, t: 0))])
        h.draw(frame: 1)
        h.input([.pointerUp(sample(150, 100, t: 0.1))])   // arrives; the loop stops before a frame
        h.app.finish(h.loop)
        let journal = try ReplayParser.parse(String(contentsOfFile: h.journal.path, encoding: .utf8))
        #expect(journal.endedCleanly)
        #expect(journal.events.contains { $0.event == .pointerUp(StrokeSample(x: 150, y: 100, pressure: 0.5)) && $0.t == 2.5 / 60 })
        #expect(h.session.layerPixels.contains(0xFF00_0000), "the stroke was baked in")
    }
}

@Suite struct TabletTests {
    @Test func theStylusEraserEndErasesForItsStrokeWhateverTheBrush() throws {
        let h = try Harness()
        h.input([.pointerDown(sample(20, 60, t: 0)), .pointerUp(sample(180, 60, t: 0.01))])
        h.draw(frame: 1)
        h.input([.pointerDown(PointerSample(x: 100, y: 20, pressure: 0.9, time: 0.1, tool: .eraser)),
                 .pointerUp(PointerSample(x: 100, y: 100, pressure: 0.9, time: 0.2, tool: .eraser)),
                 .pointerDown(sample(20, 90, t: 0.3)), .pointerUp(sample(180, 90, t: 0.31))])
        h.draw(frame: 2)
        h.app.finish(h.loop)
        let canvas = h.session.layerPixels
        #expect(canvas[60 * 200 + 100] == 0 && canvas[60 * 200 + 50] == 0xFF00_0000, "erased across the first line")
        #expect(canvas[90 * 200 + 100] == 0xFF00_0000, "the next stroke draws with the pen again")
        let kinds = try h.recorded().compactMap { e -> BrushKind? in if case .command(.brush(let k?, _, _, _)) = e.event { k } else { nil } }
        #expect(kinds == [.eraser, .pen], "recorded, so a replay erases too")
        #expect(h.session.brush.tip.kind == .pen)
    }

    @Test func theTitleSaysWhereThePressureComesFrom() throws {
        let h = try Harness()
        h.input([.pointerDown(PointerSample(x: 10, y: 10, pressure: 0.73, time: 0))])
        h.draw(frame: 1)
        #expect(h.app.status?.pressure == "pressure 0.73 (pen)")
        h.input([.pointerUp(sample(10, 10, t: 0.1, [.shift]))])
        h.draw(frame: 2)
        #expect(h.app.status?.pressure.hasSuffix("(simulated)") == true)
    }
}

@Suite struct ColorTests {
    /// A key press typing `text`: the key of its character unless another is named.
    private func typed(_ text: String, _ key: Key? = nil, mods: Modifiers = []) -> KeyPress {
        KeyPress(key ?? text.first.map { .char($0) } ?? .other(0), mods: mods, time: 0, text: text)
    }

    @Test func typingAColour() {
        var entry = ColorEntry()
        #expect(entry.key(typed("1")) == .passed, "a digit alone is the palette")
        #expect(entry.key(typed("#", "3", mods: .shift)) == .typed)
        for c in "12aB9f" { #expect(entry.key(typed(String(c))) == .typed) }
        #expect(entry.prompt == "colour #12ab9f_ (Return sets it, Escape cancels)")
        #expect(entry.key(typed("g")) == .typed, "refused, still typing")
        #expect(entry.prompt == "colour #12ab9f_ ('g' is not a hex digit)")
        #expect(entry.key(typed("", .shift)) == .typed && entry.refused == nil, "a modifier types nothing")
        #expect(entry.key(typed("\r", .enter)) == .accepted(Color(r: 0x12, g: 0xab, b: 0x9f)))
        #expect(!entry.isTyping)
    }

    @Test func eightDigitsCarryAlphaAndOtherCountsAreRefused() {
        var entry = ColorEntry()
        _ = entry.key(typed("#"))
        for c in "ff000080" { _ = entry.key(typed(String(c))) }
        #expect(entry.key(typed("0")) == .typed && entry.digits == "ff000080", "a ninth digit is refused")
        #expect(entry.key(typed("\r", .enter)) == .accepted(Color(r: 255, g: 0, b: 0, a: 0x80)))
        _ = entry.key(typed("#"))
        for c in "1234" { _ = entry.key(typed(String(c))) }
        #expect(entry.key(typed("\r", .enter)) == .typed && entry.prompt?.contains("needs 6 or 8 digits") == true)
        _ = entry.key(typed("\u{8}", .backspace))
        #expect(entry.digits == "123")
        #expect(entry.key(typed("\u{1b}", .escape)) == .cancelled && !entry.isTyping)
    }

    @Test func theTypedColourIsABrushColourAndDigitsDoNotReachThePalette() throws {
        let h = try Harness()
        h.input(Array("#008 0ff".filter { $0 != " " }).map { (c: Character) in .key(KeyPress(.char(c == "#" ? "3" : c), mods: c == "#" ? .shift : [], time: 0, text: String(c))) })
        h.draw(frame: 1)
        #expect(h.app.status?.prompt == "colour #0080ff_ (Return sets it, Escape cancels)")
        h.input([.key(KeyPress(.enter, time: 0, text: "\r"))])
        h.draw(frame: 2)
        h.app.finish(h.loop)
        #expect(h.session.brush.color == Color(r: 0, g: 0x80, b: 0xff))
        #expect(try h.recorded().map(\.event) == [.command(.brush(color: Color(r: 0, g: 0x80, b: 0xff)))], "one colour, no palette change")
    }

    @Test func thePickerTakesTheColourUnderTheNextClickAndDrawsNothing() throws {
        let h = try Harness()
        // A red line at y = 60, then the picker over it.
        h.input([.key(KeyPress("3", time: 0, text: "3")), .pointerDown(sample(20, 60, t: 0)), .pointerUp(sample(180, 60, t: 0.01)),
                 .key(KeyPress("1", time: 0, text: "1")), .key(KeyPress("c", time: 0, text: "c"))])
        h.draw(frame: 1)
        #expect(h.window.crosshair && h.app.status?.prompt?.hasPrefix("pick a colour") == true)
        let before = h.session.layerPixels
        // The click, and a key right after it: the key waits for the pick, so order is kept.
        h.input([.pointerDown(sample(100, 60, t: 0.1)), .pointerMove(sample(150, 70, t: 0.11)), .pointerUp(sample(150, 70, t: 0.12)),
                 .key(KeyPress("]", time: 0.13, text: "]"))])
        h.draw(frame: 2)
        h.draw(frame: 3)
        #expect(!h.window.crosshair)
        #expect(h.session.brush.color == Color(r: 0xe5, g: 0x39, b: 0x35) && h.session.brush.tip.size == 16)
        #expect(h.session.layerPixels == before, "the pick drew nothing")
        h.app.finish(h.loop)
        let commands = try h.recorded().compactMap { e -> Command? in if case .command(let c) = e.event { c } else { nil } }
        #expect(commands.suffix(2) == [.brush(color: Color(r: 0xe5, g: 0x39, b: 0x35)), .brush(size: 16)])
        // Escape disarms.
        let g = try Harness()
        g.input([.key(KeyPress("c", time: 0, text: "c"))])
        #expect(g.window.crosshair, "armed")
        g.input([.key(KeyPress(.escape, time: 0, text: "\u{1b}"))])
        #expect(!g.window.crosshair)
    }
}

/// The one place the title's wording is checked: everything else asserts the `Status` value.
@Suite struct StatusTests {
    @Test func theTitleAndTheStripSayTheSameFacts() {
        var s = Status(brush: Brush(tip: BrushTip(kind: .pixel, size: 8), color: Color(r: 0xe5, g: 0x39, b: 0x35)),
                       pressure: "pressure 0.50 (simulated)", layer: "layer 1/1", zoom: "100 %", journaled: true)
        #expect(s.title == "untitled — Quicksilver — pixel 8 #e53935 pressure 0.50 (simulated) — layer 1/1 — 100 %")
        s.brush.stabilizer = 2.0 / 3
        s.message = "saved /tmp/x.png"
        #expect(s.title == "untitled — Quicksilver — pixel 8 #e53935 pressure 0.50 (simulated) — layer 1/1 — 100 % — stabilizer 2/3 — saved /tmp/x.png")
        #expect(s.strip.fields == ["untitled", "pixel 8", "#e53935", "layer 1/1", "100 %", "stabilizer 2/3", "journal ok"] && s.strip.notice == "saved /tmp/x.png")
        s.warning = "journal NOT SAVED (disk full), retrying"
        #expect(s.strip.fields.last == "journal NOT SAVED" && s.strip.warning && s.strip.notice == s.warning)
    }
}

@Suite struct StabilizerKeyTests {
    @Test func sStepsThroughOffAndThreeStrengths() throws {
        let h = try Harness()
        var thirds: [Int?] = []
        for frame in 1...4 {
            h.input([.key(KeyPress("s", time: 0, text: "s"))])
            h.draw(frame: frame)
            thirds.append(h.app.status?.stabilizerThirds)
        }
        #expect(thirds == [1, 2, 3, 0])
        h.app.finish(h.loop)
        let steps = try h.recorded().compactMap { e -> Double? in if case .command(.brush(_, _, _, let s?)) = e.event { s } else { nil } }
        #expect(steps == [1.0 / 3, 2.0 / 3, 1, 0])
    }
}

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

@Suite struct ViewTests {
    private func pointer(_ events: [Replay.TimedEvent]) -> [Double] {
        events.compactMap { if case .pointerDown(let s) = $0.event { s.x } else if case .pointerMove(let s) = $0.event { s.x } else { nil } }
    }

    @Test func zoomKeysZoomAroundThePointerAndStrokesLandOnTheCanvas() throws {
        let h = try Harness()
        h.input([.key(KeyPress("=", mods: .shift, time: 0, x: 100, y: 60))])   // "+"
        #expect(h.draw(frame: 1) == false)
        #expect(h.app.status?.zoom == "200 %")
        // Canvas (100, 60) stays under the pointer: a drag there starts at canvas (100, 60), and
        // 50 window pixels are 25 canvas pixels.
        h.input([.pointerDown(sample(100, 60, t: 0.1)), .pointerMove(sample(150, 60, t: 0.11)), .pointerUp(sample(150, 60, t: 0.12))])
        h.draw(frame: 2)
        h.input([h.key("-"), h.key("-")])
        h.draw(frame: 3)
        #expect(h.app.status?.zoom == "50 %")
        h.input([h.key("0")])
        h.draw(frame: 4)
        h.app.finish(h.loop)
        let recorded = try h.recorded()
        #expect(pointer(recorded) == [100, 125])
        let views = recorded.compactMap { if case .view(let v) = $0.event { v } else { nil } }
        #expect(views == [ViewTransform(scale: 1, x: -100, y: -60), ViewTransform(scale: -1, x: -25, y: -15), .identity])
        // What the window shows at 200 %: canvas pixel (112, 60), on the stroke, is window (124, 60).
        let shot = h.session.snapshot()
        #expect(shot.width == 200 && shot.height == 120, "exports are the whole canvas at 100 %")
        #expect(shot[112, 60] == 0xFF00_0000)
    }

    @Test func panningMovesTheCanvasWithTheHandAtAnyZoom() throws {
        let h = try Harness()
        h.input([.key(KeyPress("+", time: 0, x: 0, y: 0))])
        h.draw(frame: 1)
        h.input([.button(.middle, isDown: true, sample(10, 10, t: 0.1)), .pointerMove(sample(60, 30, t: 0.2)),
                 .pointerMove(sample(110, 10, t: 0.3)), .button(.middle, isDown: false, sample(110, 10, t: 0.3))])
        h.draw(frame: 2)
        #expect(h.session.view.transform == ViewTransform(scale: 1, x: 100, y: 0), "a 100 px drag moves the canvas 100 px")
        // Space held: button 1 pans instead of drawing.
        h.input([.key(KeyPress(" ", time: 0.4)), .pointerDown(sample(0, 0, t: 0.4)), .pointerMove(sample(-30, 40, t: 0.5)),
                 .pointerUp(sample(-30, 40, t: 0.5)), .keyRelease(KeyPress(" ", time: 0.6))])
        h.draw(frame: 3)
        #expect(h.session.view.transform == ViewTransform(scale: 1, x: 70, y: 40))
        #expect(!h.session.layerPixels.contains(0xFF00_0000), "nothing was drawn")
        // The wheel: down shows what is below, Shift sideways, Control zooms around the pointer.
        h.input([.button(.wheelDown, isDown: true, sample(5, 5, t: 0.7)), .button(.wheelUp, isDown: true, sample(5, 5, t: 0.7, [.shift]))]
                + (0..<4).map { _ in .button(.wheelUp, isDown: true, sample(70, 40, t: 0.8, [.control])) })
        h.draw(frame: 4)
        // (70, 40) → down 64: (70, −24); sideways: (134, −24); then four clicks of 2^¼ make ×2
        // around (70, 40), where canvas (−32, 32) is: it stays there (to whole window pixels).
        let v = h.session.view.transform
        #expect(v.zoom == 4 && v.powerOfTwoScale == 2, "\(v)")
        let shown = v.windowPoint(x: -32, y: 32)
        #expect(abs(shown.x - 70) <= 1 && abs(shown.y - 40) <= 1, "\(shown)")
    }

    @Test func theOpeningViewShowsABigCanvasWhole() {
        #expect(ViewTransform.opening(canvas: Size(width: 400, height: 300), window: Size(width: 400, height: 300)) == .identity)
        #expect(ViewTransform.opening(canvas: Size(width: 1000, height: 500), window: Size(width: 400, height: 300)).scale == -2)
        #expect(ViewTransform.opening(canvas: Size(width: 16384, height: 16384), window: Size(width: 800, height: 600)).scale == -3)
    }
}

@Suite struct ClipboardTests {
    /// A PNG of `size` filled with `colour`.
    private func png(_ size: Size, _ colour: UInt32) throws -> [UInt8] {
        try PNGImage(width: size.width, height: size.height, pixels: [UInt32](repeating: colour, count: size.area)).encode()
    }

    @Test func ctrlCPutsTheCanvasOnTheClipboardExactlyAsTheExportSavesIt() throws {
        let h = try Harness()
        h.input([.key(KeyPress("+", time: 0, x: 50, y: 50)), .pointerDown(sample(30, 30, t: 0)),
                 .pointerUp(sample(170, 90, t: 0.01)), h.key("c", .control), h.key("e", [.control, .shift])])
        h.draw(frame: 1)
        let copied = try #require(h.window.clipboard)
        let saved = try #require(h.out.all.last)
        #expect(copied == Array(try Data(contentsOf: URL(fileURLWithPath: saved))), "the same bytes as the screenshot, whatever the view")
        #expect(try PNGImage.decode(copied).width == 200)
        #expect(h.app.status?.message?.hasPrefix("exported ") == true, "the export, written in the background, said last")
    }

    @Test func ctrlVPastesCentredAtThePointerAsOneUndoStepAndKeepsThePicture() throws {
        let h = try Harness()
        h.input([.key(KeyPress("v", mods: .control, time: 0, x: 100, y: 60))])
        #expect(h.window.pasteRequests == 1)
        h.input([.paste(.image(try png(Size(width: 20, height: 10), 0xFFFF_0000)))])
        h.draw(frame: 1)
        let canvas = h.session.layerPixels
        func at(_ x: Int, _ y: Int) -> UInt32 { canvas[y * 200 + x] }
        #expect(at(90, 55) == 0xFFFF_0000 && at(109, 64) == 0xFFFF_0000, "the 20x10 picture from (90, 55)")
        #expect(at(89, 55) == 0 && at(110, 60) == 0 && at(100, 65) == 0)
        #expect(h.app.status?.message == "pasted 20x10")
        h.input([h.key("z", .control)])
        h.draw(frame: 2)
        #expect(h.session.layerPixels.allSatisfy { $0 == 0 }, "one undo step")
        h.app.finish(h.loop)
        // The recording names the picture it kept beside itself, and renders to what was shown.
        let text = try String(contentsOfFile: h.recordPath, encoding: .utf8)
        #expect(text.contains("\"type\": \"paste\", \"image\": \"record.jsonl.paste-1.png\", \"x\": 90, \"y\": 55"))
        #expect(FileManager.default.fileExists(atPath: h.folder + "/record.jsonl.paste-1.png"))
        #expect(FileManager.default.fileExists(atPath: h.journal.path + ".paste-1.png"))
        let journal = try String(contentsOfFile: h.journal.path, encoding: .utf8)
        #expect(journal.contains("\"image\": \"journal.jsonl.paste-1.png\""))
        let pasted = try Playback.load(h.recordPath, compute: ComputeContext(threads: 1)).session
        #expect(pasted.layerPixels == h.session.layerPixels)
    }

    /// Recovery replays a paste from the picture beside the journal: a paste whose picture
    /// cannot be kept there is not made at all, rather than journaled without it.
    @Test func aPasteWhosePictureCannotBeKeptBesideTheJournalIsNotMade() throws {
        let h = try Harness()
        // A folder where the picture would go: no file can be renamed over it, root or not.
        try FileManager.default.createDirectory(atPath: h.journal.path + ".paste-1.png", withIntermediateDirectories: false)
        h.input([.key(KeyPress("v", mods: .control, time: 0, x: 100, y: 60))])
        h.input([.paste(.image(try png(Size(width: 20, height: 10), 0xFFFF_0000)))])
        h.draw(frame: 1)
        #expect(h.app.status?.message == "the paste could not be kept, so it was not made")
        #expect(h.err.all.contains { $0.hasPrefix("quicksilver: cannot keep the pasted picture: ") })
        #expect(h.session.layerPixels.allSatisfy { $0 == 0 })
        h.app.finish(h.loop)
        #expect(!((try? String(contentsOfFile: h.journal.path, encoding: .utf8)) ?? "").contains("paste"))
    }

    @Test func noImageOnTheClipboardIsSaidInTheTitleAndChangesNothing() throws {
        let h = try Harness()
        h.input([.key(KeyPress("v", mods: .control, time: 0, x: 10, y: 10)), .paste(.nothing("the clipboard holds no image"))])
        h.draw(frame: 1)
        #expect(h.app.status?.message == "the clipboard holds no image")
        h.input([.key(KeyPress("v", mods: .control, time: 0, x: 10, y: 10)), .paste(.image(Array("not a png".utf8)))])
        h.draw(frame: 2)
        #expect(h.app.status?.message?.hasPrefix("the clipboard's image cannot be read") == true)
        #expect(h.session.layerPixels.allSatisfy { $0 == 0 })
        h.app.finish(h.loop)
        #expect(!FileManager.default.fileExists(atPath: h.recordPath + ".paste-1.png"))
    }
}

@Suite struct PressureTests {
    @Test func aDeviceWithoutPressureIsSimulatedFromTheModifiers() {
        var p = Pressure()
        #expect(p.decide(sample(0, 0, t: 0)).pressure == 0.5)
        p.modifiersChanged([.shift], at: 1)
        #expect(p.decide(sample(0, 0, t: 1.08, [.shift])).pressure == 0.9751, "95 % of the way to 1 after 80 ms")
        #expect(p.simulated > 0.97)
    }

    @Test func aDevicePressureIsUsedAsIs() {
        var p = Pressure()
        #expect(p.decide(sample(3, 4, t: 0, [.shift], pressure: 0.71)) == StrokeSample(x: 3, y: 4, pressure: 0.71, mods: [.shift]))
    }
}
