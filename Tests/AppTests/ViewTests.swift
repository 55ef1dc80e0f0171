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
