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
