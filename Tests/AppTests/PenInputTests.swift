import App
import Events
import Foundation
import Input
import ReplayFormat
import Testing

/// What the window journals of a pen: a tablet's tilt.
@Suite struct PenInputTests {
    /// A tablet's tilt reaches the session's samples and the journal's lines; a mouse's 0 is left out.
    @Test func aPensTiltIsJournaledAndAMousesIsNot() throws {
        let h = try Harness()
        h.input([.pointerDown(PointerSample(x: 20, y: 20, pressure: 0.5, xtilt: 0.25, ytilt: -0.5, time: 0)),
                 .pointerUp(PointerSample(x: 40, y: 20, pressure: 0.5, xtilt: 1 / 3, ytilt: 0, time: 0.01))])
        h.draw(frame: 1)
        h.input([.pointerDown(sample(20, 60, t: 0.1)), .pointerUp(sample(40, 60, t: 0.11))])
        h.draw(frame: 2)
        h.app.finish(h.loop)
        #expect(try h.recorded().prefix(2).map(\.event) == [.pointerDown(StrokeSample(x: 20, y: 20, pressure: 0.5, xtilt: 0.25, ytilt: -0.5)),
                                                            .pointerUp(StrokeSample(x: 40, y: 20, pressure: 0.5, xtilt: 0.3333))])
        let lines = try String(contentsOfFile: h.journal.path, encoding: .utf8).split(separator: "\n")
        let pointer = lines.filter { $0.contains("\"down\"") || $0.contains("\"up\"") }
        #expect(pointer.count == 4)
        #expect(pointer[0].hasSuffix(#""xtilt": 0.25, "ytilt": -0.5}"#), "\(pointer[0])")
        #expect(pointer[1].contains(#""xtilt": 0.3333"#) && !pointer[1].contains("ytilt"))
        #expect(!pointer[2].contains("tilt") && !pointer[3].contains("tilt"))
    }
}
