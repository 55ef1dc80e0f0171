import App
import Events
import Geometry
import Input
import Strokes
import Testing
import UI

/// The keys and the drag that turn and mirror the view, without a window.
@Suite struct FreeViewRouterTests {
    private let window = Size(width: 800, height: 600)

    private func context(view: ViewTransform = .identity) -> PointerRouter.Context {
        PointerRouter.Context(view: view, window: window)
    }

    private func p(_ x: Double, _ y: Double, t: Double = 0, _ mods: Modifiers = []) -> PointerSample {
        PointerSample(x: x, y: y, time: t, mods: mods, tool: .pen)
    }

    private func views(_ actions: [RouterAction]) -> [ViewTransform] {
        actions.compactMap { if case .session(.view(let v), _) = $0 { v } else { nil } }
    }

    @Test func ctrlBracketsTurnBy15DegreesAboutTheWindowsCentre() {
        var r = PointerRouter()
        let start = ViewTransform(zoom: 1.5, x: 30, y: -12)
        let c = context(view: start)
        let right = views(r.route(.key(KeyPress("]", mods: .control, time: 0, x: 5, y: 5)), c))
        #expect(right == [start.turned(by: 15, around: 400, 300)])
        #expect(right.first?.angle == 15)
        let left = views(r.route(.key(KeyPress("[", mods: .control, time: 0)), c))
        #expect(left.first?.angle == 345)
        // The canvas point at the window's centre stays there (to half a window pixel).
        for v in right + left {
            let before = start.canvasPoint(x: 400, y: 300), after = v.windowPoint(x: before.x, y: before.y)
            #expect(abs(after.x - 400) <= 0.5 && abs(after.y - 300) <= 0.5, "\(after)")
        }
        #expect(views(r.route(.key(KeyPress("]", time: 0)), c)).isEmpty, "] alone still sizes the brush")
    }

    /// Twenty-four turns of 15° come back to the view they started from, and after every turn
    /// the canvas point first at the centre is within ½ px of it: the pivot is kept, not taken
    /// again from each whole-pixel view (which drifted up to ½ px a turn).
    @Test func turnsKeepTheirPivotAndDoNotDrift() {
        var r = PointerRouter()
        let start = ViewTransform(zoom: 1.5, x: 31, y: -12)
        let pivot = start.canvasPoint(x: 400, y: 300)
        var view = start, worst = 0.0
        for _ in 0..<24 {
            guard let next = views(r.route(.key(KeyPress("]", mods: .control, time: 0)), context(view: view))).first else { break }
            view = next
            let shown = view.windowPoint(x: pivot.x, y: pivot.y)
            worst = max(worst, abs(shown.x - 400), abs(shown.y - 300))
        }
        #expect(worst <= 0.5, "the pivot strayed \(worst) px from the centre")
        #expect(view == start, "a full turn: \(view) against \(start)")
        // A view moved in between starts afresh from what it shows at the centre.
        let moved = view.moved(by: 7, 3)
        let turned = views(r.route(.key(KeyPress("[", mods: .control, time: 0)), context(view: moved)))
        #expect(turned == [moved.turned(by: -15, around: 400, 300)])
    }

    @Test func hMirrorsTheViewAndMStaysTheMercurialBrush() {
        var r = PointerRouter()
        let c = context()
        let mirrored = views(r.route(.key(KeyPress("h", time: 0)), c))
        #expect(mirrored == [ViewTransform(zoom: 1, mirror: true, x: 800, y: 0)])
        #expect(views(r.route(.key(KeyPress("h", time: 0)), context(view: mirrored[0]))) == [.identity], "h again mirrors back")
        #expect(r.route(.key(KeyPress("m", time: 0)), c).contains(.session(.command(.brush(kind: .mercurial)), at: 0)))
    }

    @Test func zeroResetsZoomTurnAndMirror() {
        var r = PointerRouter()
        let c = context(view: ViewTransform(zoom: 2.7, angle: 75, mirror: true, x: 3, y: 9))
        #expect(views(r.route(.key(KeyPress("0", time: 0)), c)) == [.identity])
    }

    @Test func shiftSpaceAndADragTurnTheViewFreely() {
        var r = PointerRouter()
        let c = context()
        _ = r.route(.key(KeyPress(" ", mods: .shift, time: 0)), c)
        // From straight right of the centre to straight below it: a quarter turn clockwise.
        let down = r.route(.pointerDown(p(500, 300, t: 0.1, .shift)), c)
        #expect(views(down).isEmpty && !down.contains { if case .session(.pointerDown, _) = $0 { true } else { false } })
        #expect(views(r.route(.pointerMove(p(400, 400, t: 0.2, .shift)), c)) == [ViewTransform.identity.turned(to: 90, around: 400, 300)])
        #expect(views(r.route(.pointerMove(p(400 + 100 * 0.9659258262890683, 300 - 100 * 0.25881904510252074, t: 0.3, .shift)), c))
            .first?.angle == 345, "15° back the other way")
        _ = r.route(.pointerUp(p(400, 400, t: 0.4, .shift)), c)
        #expect(r.mode == .idle)
    }

    @Test func aStrokeLandsUnderThePointerAtAnyTurnAndMirror() {
        for view in [ViewTransform(zoom: 1.3, angle: 30, x: 200, y: -40), ViewTransform(zoom: 0.6, angle: 200, mirror: true, x: 500, y: 400)] {
            var r = PointerRouter()
            let c = context(view: view)
            let down = r.route(.pointerDown(p(321, 123)), c)
            guard let s = down.compactMap({ if case .session(.pointerDown(let s), _) = $0 { s } else { nil } }).first else {
                Issue.record("no stroke in \(down)"); continue
            }
            let shown = view.windowPoint(x: s.x, y: s.y)
            #expect(abs(shown.x - 321) < 1e-9 && abs(shown.y - 123) < 1e-9, "\(view): drawn at \(shown)")
        }
    }

    @Test func fourCtrlWheelClicksDoubleTheZoomAndPlusStillDoubles() {
        var r = PointerRouter()
        var c = context()
        for _ in 0..<4 { c.view = views(r.route(.button(.wheelUp, isDown: true, p(100, 80, [.control])), c))[0] }
        #expect(c.view.zoom == 2 && c.view.powerOfTwoScale == 1)
        #expect(views(r.route(.key(KeyPress("+", time: 0, x: 100, y: 80)), c)).first?.zoom == 4)
        #expect(views(r.route(.key(KeyPress("-", time: 0, x: 100, y: 80)), c)).first?.zoom == 1)
    }
}
