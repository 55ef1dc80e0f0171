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
