import App
import Foundation
import Events
import Geometry
import Input
import Kernels
import Strokes
import Testing
import UI

/// The pointer router on its own: events in, actions out, no app, no session, no window.
@Suite struct PointerRouterTests {
    /// A view at 200 %, the canvas's corner at window (10, 20).
    private let zoomed = ViewTransform(scale: 1, x: 10, y: 20)

    private func context(brush: Brush = Brush(), view: ViewTransform = .identity, playing: Bool = false,
                         hit: @escaping (Double, Double) -> Widgets.Target = { _, _ in .canvas }) -> PointerRouter.Context {
        PointerRouter.Context(brush: brush, view: view, playing: playing, hit: hit)
    }

    private func p(_ x: Double, _ y: Double, t: Double = 0, _ mods: Modifiers = [], tool: PointerTool = .pen) -> PointerSample {
        PointerSample(x: x, y: y, time: t, mods: mods, tool: tool)
    }

    /// The session events among `actions`.
    private func events(_ actions: [RouterAction]) -> [SessionEvent] {
        actions.compactMap { if case .session(let e, _) = $0 { e } else { nil } }
    }

    /// The outline's pressure after a shortcut with a modifier is the simulation's at the
    /// hover's own time: eased back to the plain 0.5 once the key is up, never the value it was
    /// left at (a 64 px pen showed an 88 px ring).
    @Test func theOutlineAfterAShortcutWithAModifierIsNotStale() {
        var r = PointerRouter()
        let c = context()
        _ = r.route(.modifiers(.shift, time: 0), c)
        _ = r.route(.key(KeyPress(.delete, mods: .shift, time: 0.3)), c)
        _ = r.route(.modifiers([], time: 0.35), c)
        let hover = r.route(.hover(p(50, 50, t: 1)), c)
        guard case .outline(50, 50, let shown)? = hover.last else { Issue.record("\(hover)"); return }
        #expect(abs(shown - 0.5) < 0.001, "\(shown)")
    }

    /// `[`, `]`, a brush key and the zoom keys draw the outline again where the pointer is.
    @Test func theOutlineFollowsTheSizeAndZoomKeysAtOnce() {
        var r = PointerRouter()
        let c = context()
        _ = r.route(.hover(p(70, 40, t: 0)), c)
        for key: Key in ["]", "[", "+", "-", "m"] {
            let out = r.route(.key(KeyPress(key, time: 0.1, x: 70, y: 40)), c)
            guard case .outline(70, 40, _)? = out.last else { Issue.record("\(key): \(out)"); continue }
        }
        _ = r.route(.leave, c)
        #expect(!r.route(.key(KeyPress("]", time: 0.2)), c).contains { if case .outline = $0 { true } else { false } },
                "no outline once the pointer has left")
    }

    /// The clipboard's answer to Ctrl+V arriving mid-stroke waits for the stroke's end: the
    /// stroke goes on drawing, and the paste comes after its release (it used to end the stroke
    /// where it arrived, and the stroke's later samples drew nothing).
    @Test func aPasteThatArrivesMidStrokeWaitsForItsEnd() {
        var r = PointerRouter()
        let c = context()
        _ = r.route(.pointerDown(p(10, 10, t: 0)), c)
        #expect(r.route(.paste(.image([1, 2, 3])), c).isEmpty, "nothing yet")
        let move = r.route(.pointerMove(p(60, 10, t: 0.05)), c)
        #expect(events(move).count == 1 && r.isDrawing, "the stroke draws on: \(move)")
        let up = r.route(.pointerUp(p(60, 10, t: 0.1)), c)
        let pastedAt = up.firstIndex(of: .app(.pasted(.image([1, 2, 3]))))
        let upAt = up.firstIndex { if case .session(.pointerUp, _) = $0 { true } else { false } }
        #expect(upAt.flatMap { u in pastedAt.map { u < $0 } } == true, "the up first, then the paste: \(up)")
        #expect(r.route(.paste(.nothing("empty")), c) == [.app(.pasted(.nothing("empty")))], "between strokes, at once")
    }

    @Test func aStrokeIsMappedThroughTheViewWithItsPressureDecided() {
        var r = PointerRouter()
        let c = context(view: zoomed)
        let down = r.route(.pointerDown(p(30, 60, t: 0)), c)
        #expect(r.mode == .drawing(restoring: nil))
        #expect(events(down) == [.pointerDown(StrokeSample(x: 10, y: 20, pressure: 0.5))])
        #expect(down.contains(.strokeStarted(.black)) && down.contains(.hideOutline))
        _ = r.route(.pointerMove(p(40, 70, t: 0.01, [.shift])), c)
        let move = r.route(.pointerMove(p(50, 80, t: 0.02, [.shift])), c)
        guard case .pointerMove(let s)? = events(move).first else { Issue.record("\(move)"); return }
        #expect(s.x == 20 && s.y == 30 && s.mods == .shift)
        #expect(s.pressure > 0.6 && s.pressure < 0.9, "Shift eases the pressure up, it does not jump: \(s.pressure)")
        let up = r.route(.pointerUp(p(50, 80, t: 0.5, [.shift])), c)
        guard case .pointerUp(let last)? = events(up).first else { Issue.record("\(up)"); return }
        #expect(last.pressure > 0.99, "after 500 ms of Shift the pressure is full")
        #expect(r.mode == .idle)
        guard case .outline(50, 80, let shown)? = up.last else { Issue.record("\(up)"); return }
        #expect(shown > 0.99, "the outline comes back where the pen lifted, as hard as Shift presses")
    }

    @Test func theStylussEraserEndErasesForItsStrokeAndGivesTheBrushBack() {
        var r = PointerRouter()
        let c = context(brush: Brush(tip: BrushTip(kind: .pixel, size: 4)))
        let down = r.route(.pointerDown(p(5, 5, tool: .eraser)), c)
        #expect(events(down).first == .command(.brush(kind: .eraser)))
        #expect(!down.contains { if case .strokeStarted = $0 { true } else { false } }, "erasing adds no recent colour")
        #expect(r.mode == .drawing(restoring: .pixel))
        let up = r.route(.pointerUp(p(6, 5, tool: .eraser)), c)
        #expect(events(up).last == .command(.brush(kind: .pixel)))
    }

    @Test func spaceHeldMakesAPressPanAndItsReleaseDrawsAgain() {
        var r = PointerRouter()
        let c = context(view: zoomed)
        _ = r.route(.key(KeyPress(" ", time: 0)), c)
        #expect(r.spaceHeld)
        #expect(events(r.route(.pointerDown(p(100, 100)), c)).isEmpty)
        #expect(events(r.route(.pointerMove(p(130, 60)), c)) == [.view(ViewTransform(scale: 1, x: 40, y: -20))])
        _ = r.route(.pointerUp(p(130, 60)), c)
        _ = r.route(.keyRelease(KeyPress(" ", time: 1)), c)
        #expect(r.mode == .idle && !r.spaceHeld)
        #expect(events(r.route(.pointerDown(p(100, 100)), c)).count == 1, "it draws again")
    }

    @Test func theMiddleButtonPansButNotWhileDrawing() {
        var r = PointerRouter()
        let c = context()
        _ = r.route(.button(.middle, isDown: true, p(10, 10)), c)
        #expect(events(r.route(.pointerMove(p(15, 12)), c)) == [.view(ViewTransform(scale: 0, x: 5, y: 2))])
        _ = r.route(.button(.middle, isDown: false, p(15, 12)), c)
        #expect(r.mode == .idle)
        _ = r.route(.pointerDown(p(0, 0)), c)
        #expect(r.route(.button(.middle, isDown: true, p(0, 0)), c).isEmpty)
        #expect(r.mode == .drawing(restoring: nil))
    }

    @Test func thePickerTakesTheNextPressAndHoldsWhatFollowsUntilThePickIsMade() {
        var r = PointerRouter()
        let c = context(view: zoomed)
        let armed = r.route(.key(KeyPress("c", time: 0, text: "c")), c)
        #expect(r.mode == .pickArmed && armed.contains(.crosshair(true)) && r.prompt?.hasPrefix("pick a colour") == true)
        #expect(events(r.route(.pointerDown(p(30, 60)), c)).isEmpty)
        #expect(r.pendingPick! == (10, 20))
        let later: [InputEvent] = [.pointerUp(p(30, 60)), .key(KeyPress("]", time: 0.1))]
        for e in later { #expect(r.route(e, c).isEmpty, "held until the pick") }
        #expect(r.pickMade() == later && r.mode == .idle && r.pendingPick == nil)
        _ = r.route(.key(KeyPress("c", time: 0, text: "c")), c)
        #expect(r.route(.key(KeyPress(.escape, time: 0)), c).contains(.crosshair(false)) && r.mode == .idle)
    }

    @Test func aTypedColourIsOneCommandAndAClickLeavesTheEntry() {
        var r = PointerRouter()
        let c = context()
        func type(_ text: String, _ key: Key) -> [RouterAction] { r.route(.key(KeyPress(key, time: 0, text: text)), c) }
        _ = type("#", "3")
        guard case .typingColor = r.mode else { Issue.record("\(r.mode)"); return }
        for ch in "00ff80" { #expect(type(String(ch), .char(ch)) == [.statusChanged], "digits reach no binding") }
        #expect(r.prompt == "colour #00ff80_ (Return sets it, Escape cancels)")
        #expect(events(type("\r", .enter)) == [.command(.brush(color: Color(r: 0, g: 255, b: 128)))] && r.mode == .idle)
        _ = type("#", "3")
        let press = r.route(.pointerDown(p(1, 1)), c)
        #expect(press.contains(.statusChanged) && r.mode == .drawing(restoring: nil), "the click draws, the entry is left")
    }

    @Test func aPressOnAWidgetIsItsUntilTheReleaseAndAPressOutsideAPopUpOnlyClosesIt() {
        var r = PointerRouter()
        var target = Widgets.Target.widget(.palette)
        let c = context { _, _ in target }
        #expect(r.route(.pointerDown(p(5, 5)), c).contains(.widget(.palette, .press, x: 5, y: 5)))
        target = .canvas   // the drag leaves it: still the widget's
        #expect(r.route(.pointerMove(p(500, 5)), c) == [.widget(.palette, .drag, x: 500, y: 5)])
        #expect(r.route(.pointerUp(p(500, 5)), c).first == .widget(.palette, .release, x: 500, y: 5))
        target = .outside(.palette)
        #expect(r.route(.pointerDown(p(9, 9)), c).contains(.closeWidget(.palette)))
        #expect(r.route(.pointerMove(p(20, 9)), c).isEmpty && r.mode == .swallowing, "the press draws nothing")
        _ = r.route(.pointerUp(p(20, 9)), c)
        #expect(r.mode == .idle)
        target = .outside(.palette, under: .shadingEditor)
        #expect(r.route(.pointerDown(p(9, 9)), c).suffix(2) == [.closeWidget(.palette), .widget(.shadingEditor, .press, x: 9, y: 9)],
                "a press on the editor beside the open palette closes it and works the editor")
        #expect(r.route(.pointerMove(p(20, 9)), c) == [.widget(.shadingEditor, .drag, x: 20, y: 9)])
    }

    @Test func keysBecomeCommandsFromTheBrushAndViewAsTheyWillBe() {
        var r = PointerRouter()
        let c = context(brush: Brush(tip: BrushTip(kind: .pen, size: 8)), view: zoomed)
        func key(_ k: Key, _ mods: Modifiers = [], x: Double = 0, y: Double = 0) -> [RouterAction] {
            r.route(.key(KeyPress(k, mods: mods, time: 0, x: x, y: y)), c)
        }
        #expect(events(key("]")) == [.command(.brush(size: 16))])
        #expect(events(key("[", .shift)) == [.command(.brush(size: 4))], "Shift+[ is [")
        #expect(events(key("z", [.control, .shift])) == [.command(.redo)])
        #expect(events(key("n", .shift)) == [.command(.layer(.step(.mode(-1))))], "Shift+N is bound on its own")
        #expect(key("1", .control).isEmpty, "Ctrl+1 is not bound")
        #expect(events(key("=", .shift, x: 10, y: 20)) == [.view(ViewTransform(scale: 2, x: 10, y: 20))], "zoom in around the pointer")
        #expect(key("v", .control, x: 30, y: 60) == [.app(.paste(x: 10, y: 20))], "a paste lands under the pointer, on the canvas")
        #expect(key(.keypad("0")) == [.session(.view(.identity), at: 0)])
        #expect(key(.function(12)).isEmpty)
    }

    @Test func theWheelPansAndWithControlZooms() {
        var r = PointerRouter()
        let c = context()
        #expect(events(r.route(.button(.wheelDown, isDown: true, p(0, 0)), c)) == [.view(ViewTransform(scale: 0, x: 0, y: -64))])
        #expect(events(r.route(.button(.wheelDown, isDown: true, p(0, 0, [.shift])), c)) == [.view(ViewTransform(scale: 0, x: -64, y: 0))])
        // A quarter of a doubling a click.
        #expect(events(r.route(.button(.wheelUp, isDown: true, p(0, 0, [.control])), c)) == [.view(ViewTransform(zoom: 1.189207115002721, x: 0, y: 0))])
    }

    /// Over the brush chooser the wheel scrolls it (Ctrl+wheel still zooms); F6 and Shift+B
    /// open it.
    @Test func theWheelScrollsAWidgetThatScrollsAndF6OpensTheChooser() {
        var r = PointerRouter()
        let c = PointerRouter.Context(scroller: { x, _ in x < 100 ? .brushChooser : nil })
        #expect(r.route(.button(.wheelDown, isDown: true, p(50, 60)), c) == [.widget(.brushChooser, .wheel(-1), x: 50, y: 60)])
        #expect(r.route(.button(.wheelUp, isDown: true, p(50, 60)), c) == [.widget(.brushChooser, .wheel(1), x: 50, y: 60)])
        #expect(events(r.route(.button(.wheelDown, isDown: true, p(150, 60)), c)) == [.view(ViewTransform(scale: 0, x: 0, y: -64))])
        #expect(events(r.route(.button(.wheelUp, isDown: true, p(50, 60, [.control])), c)) == [.view(ViewTransform.identity.zoomed(to: 1.189207115002721, around: 50, 60))])
        #expect(r.route(.key(KeyPress(.function(6), time: 0, x: 5, y: 6)), c) == [.toggleWidget(.brushChooser, x: 5, y: 6)])
        #expect(r.route(.key(KeyPress("b", mods: .shift, time: 0, x: 5, y: 6)), c) == [.toggleWidget(.brushChooser, x: 5, y: 6)])
        #expect(events(r.route(.key(KeyPress("b", time: 0)), c)) == [.command(.channel(.b))], "b still flips blue")
    }

    @Test func aRightClickTogglesThePaletteButNotWhileDrawing() {
        var r = PointerRouter()
        let c = context()
        #expect(r.route(.button(.right, isDown: true, p(40, 50)), c) == [.toggleWidget(.palette, x: 40, y: 50)])
        _ = r.route(.pointerDown(p(0, 0)), c)
        #expect(r.route(.button(.right, isDown: true, p(40, 50)), c).isEmpty)
    }

    @Test func whilePlayingAKeyOrAClickJumpsToTheEndAndCtrlQQuits() {
        var r = PointerRouter()
        let c = context(playing: true)
        #expect(r.route(.key(KeyPress("]", time: 0)), c) == [.jumpToEnd])
        #expect(r.route(.key(KeyPress("q", mods: .control, time: 0)), c) == [.app(.quit)])
        #expect(r.route(.pointerDown(p(0, 0)), c) == [.jumpToEnd])
        // The play ended meanwhile: the drag the press began still draws nothing.
        #expect(r.route(.pointerMove(p(5, 5)), context()).isEmpty)
        _ = r.route(.pointerUp(p(5, 5)), context())
        #expect(r.mode == .idle)
    }
}

@Suite struct KeyMapTests {
    /// docs/usage.md holds the key table between its markers exactly as `KeyMap.markdown` writes
    /// it (QS_UPDATE_DOCS=1 writes it there); `--help` and the man page are made from the same
    /// table, so none of the three can drift.
    @Test func theUsageDocsHoldTheKeyTable() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/usage.md").path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let begin = "<!-- keys:begin -->\n", end = "\n<!-- keys:end -->"
        let from = try #require(text.range(of: begin)), to = try #require(text.range(of: end))
        let table = String(text[from.upperBound..<to.lowerBound])
        if table != KeyMap.markdown, ProcessInfo.processInfo.environment["QS_UPDATE_DOCS"] != nil {
            try (text[..<from.upperBound] + KeyMap.markdown + text[to.lowerBound...]).write(toFile: path, atomically: true, encoding: .utf8)
            return
        }
        #expect(table == KeyMap.markdown, "docs/usage.md's key table is not KeyMap's: run the tests with QS_UPDATE_DOCS=1")
    }

    @Test func everyChordIsBoundOnceAndEveryBindingIsInTheHelp() {
        var seen: [Chord: KeyAction] = [:]
        for b in KeyMap.bindings {
            for (chord, action) in b.chords {
                #expect(seen[chord] == nil, "\(chord) bound twice")
                seen[chord] = action
            }
            #expect(KeyMap.help.contains(b.keys), "\(b.keys) in --help")
            #expect(KeyMap.markdown.contains(b.does))
        }
        #expect(KeyMap.help.split(separator: "\n").allSatisfy { $0.count <= 100 }, "--help lines fit 100 columns")
    }
}
