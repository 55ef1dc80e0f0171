import Events
import Geometry
import Input
import Paint
import ReplayFormat
import Testing

/// The f key: the frame fitted to the ink, said in the status and the title, recorded as the
/// replay's `frame fit`, one undo step; with nothing painted, said and nothing done.
@Suite struct FrameKeyTests {
    @Test func fFitsTheFrameAndSaysSo() throws {
        let h = try Harness()
        h.step([h.key("f")])
        #expect(h.app.status?.message == "nothing painted: the frame stays as it is")
        #expect(h.session.document.frame == Rect(x: 0, y: 0, width: 200, height: 120))
        // A stroke from the left edge out past the right: the window shows the canvas at 100 %.
        h.step([.pointerDown(sample(20, 60, t: 0.1)), .pointerMove(sample(120, 80, t: 0.11)), .pointerUp(sample(199, 100, t: 0.12))])
        h.session.settle()
        let ink = h.session.inkBounds()
        h.step([h.key("f", at: 0.2)])
        #expect(h.session.document.frame == ink)
        let said = "frame fitted to the ink, \(ink.width)×\(ink.height) at \(ink.minX),\(ink.minY)"
        #expect(h.app.status?.message == said)
        #expect(h.window.titles.last?.contains(said) == true, "\(h.window.titles.last ?? "")")
        #expect(try h.recorded().contains { $0.event == .command(.frame(.fit)) }, "recorded as the replay's frame fit")
        h.step([h.key("z", .control, at: 0.3)])
        #expect(h.session.document.frame == Rect(x: 0, y: 0, width: 200, height: 120), "one undo step")
        #expect(h.app.status?.message == "undone: the frame 200×120 at 0,0", "\(h.app.status?.message ?? "")")
        h.step([h.key("y", .control, at: 0.4)])
        #expect(h.session.document.frame == ink && h.app.status?.message == "redone: the frame \(ink.width)×\(ink.height) at \(ink.minX),\(ink.minY)")
        // An undo that leaves the frame where it is (the stroke's) says nothing of the frame.
        h.step([h.key("z", .control, at: 0.5)])
        h.step([h.key("z", .control, at: 0.6)])
        #expect(h.session.inkBounds().isEmpty, "the stroke undone")
        #expect(h.app.status?.message == "undone: the frame 200×120 at 0,0", "\(h.app.status?.message ?? "")")
    }
}
