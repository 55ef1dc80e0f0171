import Clock
import Compute
import Events
import Geometry
import Kernels
import Testing
@testable import Paint

/// The frame moves: fitted to the ink (one undo step), exports show exactly it.
@Suite struct FrameTests {
    private var frameIndex = 0

    /// Plays `events` in a frame, as the window would (headless: the session composes only for
    /// a snapshot).
    private func play(_ session: Session, _ events: [SessionEvent]) {
        for e in events { session.handle(e) }
        session.draw(FrameInfo(index: 0, timestamp: 0, targetTimestamp: 0), to: OffscreenPresenter(size: Size(width: 0, height: 0)))
        session.settle()
    }

    private func stroke(_ session: Session, _ points: [(Double, Double)], size: Int = 10, color: String = "#203080") {
        var events: [SessionEvent] = [.command(.brush(kind: .pen, size: size, color: Color(hex: color)))]
        for (i, p) in points.enumerated() {
            let s = StrokeSample(x: p.0, y: p.1, pressure: 0.6)
            events.append(i == 0 ? .pointerDown(s) : i == points.count - 1 ? .pointerUp(s) : .pointerMove(s))
        }
        play(session, events)
    }

    /// Strokes reaching past the 160x120 frame on every side, one on a second layer.
    private func paintedBeyondTheFrame() -> Session {
        let session = Session(size: Size(width: 160, height: 120), background: Color(hex: "#f0e8d0")!, compute: ComputeContext(threads: 2))
        stroke(session, [(-30.25, 20.5), (40, 60.75), (130.5, 35), (210, 140.25)])
        play(session, [.command(.layer(.new(name: nil)))])
        stroke(session, [(-80, -40), (-20, -35), (60, -12)], size: 6, color: "#c04020")
        return session
    }

    @Test func fittingPutsTheFrameOnTheInkAsOneUndoStep() throws {
        let session = paintedBeyondTheFrame()
        let old = session.document.frame, oldExport = session.snapshot()
        let ink = session.inkBounds()
        #expect(ink.minX < 0 && ink.minY < 0 && ink.maxX > 160 && ink.maxY > 120, "the ink reaches past every edge: \(ink)")
        let inkPicture = session.snapshot(of: ink)

        play(session, [.command(.frame(.fit))])
        #expect(session.document.frame == ink)
        #expect(session.frameChange == .fitted(ink))
        let fitted = session.snapshot()
        #expect(fitted.width == ink.width && fitted.height == ink.height)
        #expect(fitted.pixels == inkPicture.pixels, "the export is exactly the ink")
        // Tight: ink on each of the four edges.
        let bg: UInt32 = 0xFFF0_E8D0
        #expect((0..<fitted.width).contains { fitted[$0, 0] != bg } && (0..<fitted.width).contains { fitted[$0, fitted.height - 1] != bg })
        #expect((0..<fitted.height).contains { fitted[0, $0] != bg } && (0..<fitted.height).contains { fitted[fitted.width - 1, $0] != bg })

        play(session, [.command(.undo)])
        #expect(session.document.frame == old)
        let undone = session.snapshot()
        #expect(undone.width == oldExport.width && undone.pixels == oldExport.pixels, "the old export again")
        #expect(session.document.layers.count == 2, "the undo took back the frame, not the layer")

        play(session, [.command(.redo)])
        #expect(session.document.frame == ink)
        #expect(session.snapshot().pixels == inkPicture.pixels)
    }

    @Test func fittingWithNothingPaintedChangesNothing() {
        let session = Session(size: Size(width: 40, height: 30), compute: ComputeContext(threads: 1))
        play(session, [.command(.frame(.fit))])
        #expect(session.frameChange == .nothingPainted)
        #expect(session.document.frame == Rect(x: 0, y: 0, width: 40, height: 30))
        // No step was made: undo finds the fit's none (and nothing else).
        #expect(!session.document.undo())
    }

    @Test func fittingTwiceIsOneStepAndHiddenLayersAreLeftOut() {
        let session = paintedBeyondTheFrame()
        play(session, [.command(.layer(.set(visible: false)))])
        play(session, [.command(.frame(.fit)), .command(.frame(.fit))])
        let shown = session.document.frame
        #expect(shown.minY > -20, "the hidden layer's stroke (up to y −40) is not in the box: \(shown)")
        #expect(session.frameChange == .unchanged(shown))
        play(session, [.command(.undo)])
        #expect(session.document.frame == Rect(x: 0, y: 0, width: 160, height: 120))
    }

    /// A frame set outright (a replay's `frame set`), then a resize: the corner stays.
    @Test func aResizeKeepsTheCorner() {
        let session = paintedBeyondTheFrame()
        play(session, [.command(.frame(.set(Rect(x: -50, y: -30, width: 100, height: 80))))])
        #expect(session.frameChange == .moved(Rect(x: -50, y: -30, width: 100, height: 80)))
        play(session, [.resize(Size(width: 64, height: 48))])
        #expect(session.document.frame == Rect(x: -50, y: -30, width: 64, height: 48))
        let shot = session.snapshot()
        #expect(shot.pixels == session.snapshot(of: Rect(x: -50, y: -30, width: 64, height: 48)).pixels)
    }

    /// The mercurial brush's dense buffers are placed around where its stroke begins: a frame
    /// moved left and up holds the same stroke in the same pixels (its particles, blur and
    /// emboss are the canvas's), and it paints past the canvas's old corner, and far beyond
    /// the frame, as the other brushes do.
    @Test func theMercurialBrushPaintsWithinAMovedFrame() {
        func mercurial(_ session: Session, _ points: [(Double, Double)]) {
            var events: [SessionEvent] = [.command(.brush(kind: .mercurial, size: 16))]
            for (i, p) in points.enumerated() {
                let s = StrokeSample(x: p.0, y: p.1, pressure: 0.6)
                events.append(i == 0 ? .pointerDown(s) : i == points.count - 1 ? .pointerUp(s) : .pointerMove(s))
            }
            play(session, events)
        }
        let stroke = [(70.0, 60.0), (76, 61), (83, 63), (90, 62)]
        let still = Session(size: Size(width: 160, height: 120), compute: ComputeContext(threads: 2))
        let moved = Session(size: Size(width: 160, height: 120), compute: ComputeContext(threads: 2))
        play(moved, [.reframe(Rect(x: -40, y: -30, width: 200, height: 150))])
        mercurial(still, stroke)
        mercurial(moved, stroke)
        let painted = still.documentImage().layers[0]
        #expect(painted.bounds.area > 100, "it painted: \(painted.bounds)")
        #expect(moved.documentImage().layers[0] == painted, "the same pixels, the buffers' corner elsewhere")

        // Beyond the canvas's old corner, within the moved frame.
        mercurial(moved, [(-10, -5), (-4, -3), (2, -1)])
        let ink = moved.inkBounds()
        #expect(ink.minX < -10 && ink.minY < -5, "painted left of and above 0,0: \(ink)")
        // Far beyond the frame, each way: a stroke there paints where it goes, whole.
        for (dx, dy) in [(100_000.0, 0.0), (-70_000.0, -90_000.0)] {
            let far = Session(size: Size(width: 160, height: 120), compute: ComputeContext(threads: 2))
            mercurial(far, stroke.map { ($0.0 + dx, $0.1 + dy) })
            let layer = far.documentImage().layers[0], box = far.inkBounds()
            #expect(box.minX > Int(dx) && box.maxX < Int(dx) + 160 && box.minY > Int(dy) && box.maxY < Int(dy) + 120, "\(box)")
            // Its spray is random (seeded by where the samples are in the 64-px cell the stroke
            // begins in; these moves are not whole cells), so its box is about the same.
            let near = still.inkBounds()
            #expect(abs(box.width - near.width) <= 6 && abs(box.height - near.height) <= 6, "the whole stroke: \(box) against \(near)")
            #expect(layer.bounds.area > 100)
        }
    }
}
