import App
import Events
import Paint
import Geometry
import Input
import Testing

/// The symmetry keys on the router alone: `y` on and off, Shift+Y the next mode, `u` the axes
/// to the pointer; each a `symmetry` command for the session (and so for the journal).
@Suite struct SymmetryKeyTests {
    private let canvas = Size(width: 200, height: 100)

    private func press(_ r: inout PointerRouter, _ key: Key, _ mods: Modifiers = [], x: Double = 0, y: Double = 0,
                       symmetry: Symmetry, view: ViewTransform = .identity) -> Symmetry? {
        let c = PointerRouter.Context(view: view, symmetry: symmetry, frame: Rect(size: canvas))
        let actions = r.route(.key(KeyPress(key, mods: mods, time: 0, x: x, y: y)), c)
        for case .session(.command(.symmetry(let s)), _) in actions { return s }
        return nil
    }

    @Test func yTurnsItOnAboutTheCanvasMiddleThenOffThenBackInTheSameMode() throws {
        var r = PointerRouter()
        let on = try #require(press(&r, "y", symmetry: .off))
        #expect(on == Symmetry(mode: .vertical, x: 100, y: 50))
        let rotating = Symmetry(mode: .rotational, x: 30.5, y: 12, lines: 6)
        let off = try #require(press(&r, "y", symmetry: rotating))
        #expect(off == Symmetry(mode: .off, x: 30.5, y: 12, lines: 6), "off keeps where it was")
        #expect(press(&r, "y", symmetry: off) == rotating, "on again as it was")
    }

    @Test func shiftYStepsThroughTheModes() {
        var r = PointerRouter()
        var s = Symmetry.off
        var seen: [String] = []
        for _ in 0..<8 {
            guard let next = press(&r, "y", .shift, symmetry: s) else { Issue.record("no symmetry"); return }
            s = next
            seen.append(s.mode == .rotational ? "rotational \(s.lines)" : s.mode.rawValue)
        }
        #expect(seen == ["vertical", "horizontal", "both", "rotational 3", "rotational 4", "rotational 6", "rotational 8", "vertical"])
        #expect(s.x == 100 && s.y == 50)
    }

    @Test func uPutsTheAxesThroughTheNearestPixelEdgeOrCentreUnderThePointer() throws {
        var r = PointerRouter()
        // At 200 %, the canvas's corner at window (10, 20): window (70.6, 40.2) is canvas (30.3, 10.1).
        let moved = try #require(press(&r, "u", x: 70.6, y: 40.2, symmetry: Symmetry(mode: .both, x: 1, y: 2),
                                       view: ViewTransform(scale: 1, x: 10, y: 20)))
        #expect(moved == Symmetry(mode: .both, x: 30.5, y: 10))
        let turnedOn = try #require(press(&r, "u", x: 5, y: 7, symmetry: .off))
        #expect(turnedOn == Symmetry(mode: .vertical, x: 5, y: 7), "off: on, where the pointer is")
    }

    @Test func aDragFromTheCentreHandleMovesTheAxesAndDrawsNothing() {
        var r = PointerRouter()
        let s = Symmetry(mode: .both, x: 100, y: 50)
        // At 200 %, the canvas's corner at window (10, 20): the centre is at window (210, 120).
        let c = PointerRouter.Context(view: ViewTransform(scale: 1, x: 10, y: 20), symmetry: s, frame: Rect(size: canvas), symmetryHandle: (210, 120))
        func sample(_ x: Double, _ y: Double) -> PointerSample { PointerSample(x: x, y: y, time: 0) }
        let pressed = r.route(.pointerDown(sample(214, 117)), c)
        #expect(r.mode == .movingSymmetry)
        #expect(!pressed.contains { if case .session = $0 { true } else { false } }, "no stroke: \(pressed)")
        let moved = r.route(.pointerMove(sample(71, 41)), c)
        #expect(moved == [.session(.command(.symmetry(Symmetry(mode: .both, x: 30.5, y: 10.5))), at: 0)])
        let released = r.route(.pointerUp(sample(90, 60.2)), c)
        #expect(released.first == .session(.command(.symmetry(Symmetry(mode: .both, x: 40, y: 20))), at: 0))
        #expect(r.mode == .idle)
        // Away from the handle, a press draws.
        _ = r.route(.pointerDown(sample(230, 120)), c)
        #expect(r.isDrawing)
    }

    @Test func theTitleAndTheStripSayWhileItIsOn() {
        #expect(Status.describe(.off) == nil && Status.describe(Symmetry(mode: .off, x: 5, y: 5)) == nil)
        #expect(Status.describe(Symmetry(mode: .both, x: 5, y: 5)) == "mirror both")
        let s = Status(brush: Brush(), pressure: "pressure 0.50", layer: "layer 1/1", zoom: "100 %",
                       symmetry: Status.describe(Symmetry(mode: .rotational, x: 5, y: 5, lines: 6)))
        #expect(s.title.hasSuffix("— 100 % — rotation 6"))
        #expect(s.strip.fields.contains("rotation 6"))
        #expect(!Status(brush: Brush(), pressure: "", layer: "", zoom: "100 %").title.contains("rotation"))
    }

    @Test func theKeysAreInTheKeyMap() {
        #expect(KeyMap.action(for: KeyPress("y", time: 0)) == .symmetry(.toggle))
        #expect(KeyMap.action(for: KeyPress("y", mods: .shift, time: 0)) == .symmetry(.nextMode))
        #expect(KeyMap.action(for: KeyPress("u", time: 0)) == .symmetry(.toPointer))
        #expect(KeyMap.action(for: KeyPress("y", mods: .control, time: 0)) == .command(.redo), "Ctrl+Y still redoes")
    }
}
