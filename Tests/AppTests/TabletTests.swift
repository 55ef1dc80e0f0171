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
