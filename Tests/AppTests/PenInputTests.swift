@testable import App
import Events
import Foundation
import Input
import Paint
import ReplayFormat
import Testing

/// What the window journals of a pen: a tablet's tilt, and while a MyPaint brush is in use each
/// sample's own time.
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

    private func near(_ a: [Double], _ b: [Double]) -> Bool { a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) < 1e-9 } }

    static let myb = #"{"version": 3, "settings": {"opaque": {"base_value": 0.5, "inputs": {}}}}"#

    /// A MyPaint brush's samples are journaled, and drawn, at their own gaps (its dtime), not
    /// spread evenly over the frame; the next frame's keep their gap to the last where it fits.
    @Test func aMyPaintBrushsSamplesKeepTheirOwnGaps() throws {
        let h = try Harness()
        h.session.handle(.command(.mypaint(MyPaintChoice(name: "test/brush", settings: Self.myb))))
        h.draw(frame: 1)
        #expect(h.session.brush.mypaint != nil)
        h.input([.pointerDown(sample(20, 20, t: 1.000)), .pointerMove(sample(22, 20, t: 1.001)), .pointerMove(sample(24, 20, t: 1.002)),
                 .pointerMove(sample(26, 20, t: 1.003))])
        h.draw(frame: 3)
        h.input([.pointerMove(sample(30, 20, t: 1.008)), .pointerUp(sample(34, 20, t: 1.015))])
        h.draw(frame: 4)
        h.app.finish(h.loop)
        let samples = try h.recorded().filter { $0.event.sampleTime != nil }.map(\.t)
        let end3 = 4.0 / 60 - SampleTimes.minimumGap
        #expect(near(samples, [end3 - 0.003, end3 - 0.002, end3 - 0.001, end3, end3 + 0.005, end3 + 0.012]), "\(samples)")
        #expect(samples.map(ReplayPlayer.frameIndex(at:)) == [3, 3, 3, 3, 4, 4])
    }

    /// Another brush chosen mid-stroke (a key) applies from the next stroke: the MyPaint stroke's
    /// samples after it still get their own times, which its dtime comes from.
    @Test func aMyPaintStrokeKeepsItsOwnTimesAfterAnotherBrushIsChosen() throws {
        let h = try Harness()
        h.session.handle(.command(.mypaint(MyPaintChoice(name: "test/brush", settings: Self.myb))))
        h.input([.pointerDown(sample(20, 20, t: 1.000)), .pointerMove(sample(22, 20, t: 1.003))])
        h.draw(frame: 3)
        h.input([h.key("p", at: 1.005), .pointerMove(sample(30, 20, t: 1.008)), .pointerMove(sample(32, 20, t: 1.010))])
        h.draw(frame: 4)
        #expect(h.session.brush.mypaint == nil && h.session.isDrawingMyPaint)
        h.input([.pointerUp(sample(34, 20, t: 1.014))])
        h.draw(frame: 5)
        h.app.finish(h.loop)
        let samples = try h.recorded().filter { $0.event.sampleTime != nil }.map(\.t)
        let end3 = 4.0 / 60 - SampleTimes.minimumGap
        // The up, 4 ms later, would fall before frame 5: it goes to that frame's end.
        #expect(near(samples, [end3 - 0.003, end3, end3 + 0.005, end3 + 0.007, 6.0 / 60 - SampleTimes.minimumGap]), "\(samples)")
        #expect(!h.session.isDrawingMyPaint)
    }

    /// Without a MyPaint brush the samples are stamped as before: the frame's middle.
    @Test func otherBrushesStampTheFramesMiddle() throws {
        let h = try Harness()
        h.input([.pointerDown(sample(20, 20, t: 1.000)), .pointerMove(sample(22, 20, t: 1.001)), .pointerUp(sample(24, 20, t: 1.002))])
        h.draw(frame: 3)
        h.app.finish(h.loop)
        #expect(try h.recorded().map(\.t) == [3.5, 3.5, 3.5].map { $0 / 60 })
    }
}
