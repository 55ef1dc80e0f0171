import Clock
import Compute
import Events
import Foundation
import Geometry
import Kernels
import Paint

/// The timed cases, each a closure timed by `median(runs:_:)`, and what they share: a canvas
/// size, the workers, a random walk to draw. The cases live in extensions, a file per concern.
struct Benchmarks {
    /// The canvas (and window) the cases draw at.
    let size: Size
    let compute: ComputeContext

    /// Median wall time in milliseconds of `runs` calls after two warm-up calls.
    static func median(runs: Int, _ body: () throws -> Void) rethrows -> Double {
        try body(); try body()
        let times = try (0..<runs).map { _ in try milliseconds(body) }
        return percentile(times, 0.5) ?? 0
    }

    /// Each case: name, runs, and a factory for its body (set-up happens only for cases run).
    /// The set-up or the body throws `BenchFailure` (or the failing call's error) when the work
    /// fails: a failure is never timed.
    func cases() -> [(String, Int, () throws -> () throws -> Void)] {
        [("compose.full", 50, { composeFull(coveredRowEvery: 3) }), ("compose.fullcover", 50, { composeFull(coveredRowEvery: 1) }),
         ("compose.copy", 50, { composeFull(coveredRowEvery: 0) }),
         ("compose.rotated", 50, { composeFull(coveredRowEvery: 3, transform: ViewTransform.identity.turned(
             by: 30, around: Double(size.width / 2), Double(size.height / 2))) }),
         ("memcpy.full", 50, { memcpyFull() }),
         ("compose.stroke", 400, { composeStroke() }), ("compose.stroke.layers1", 400, { composeStroke(layers: 1) }),
         ("compose.stroke.layers20", 400, { composeStroke(layers: 20) }), ("compose.pan.layers20", 50, { panFrame(layers: 20) }),
         ("pen.8", 9, { penStroke(size: 8) }), ("pen.32", 9, { penStroke(size: 32) }),
         ("restore.300k", 5, { try restore300k() }), ("parse.300k", 5, { try parse300k() }), ("play.300k", 5, { try play300k() }),
         ("mercurial.frame", 30, { mercurialFrame() }), ("mercurial.stroke", 200, { mercurialStroke() }),
         ("blur.full", 30, { blurFull() }), ("emboss.full", 10, { embossFull() }), ("pulse.frame", 50, { pulseFrame() }),
         ("view.zoom2", 50, { zoomedFrame(scale: 1) }), ("view.zoom0.5", 50, { zoomedFrame(scale: -1) }),
         ("clipboard.copy", 9, { clipboardCopy() }),
         ("document.png", 9, { try documentFile("png") }), ("document.save", 9, { try documentFile("save") }), ("document.open", 9, { try documentFile("open") }),
         ("ui.palette.open", 50, { toolsFrame(.paletteOpen) }), ("ui.palette.drag", 50, { toolsFrame(.paletteDrag) }),
         ("ui.editor.drag", 20, { toolsFrame(.editorDrag) }),
         ("ui.editor.open", 20, { toolsFrame(.editorOpen) }), ("ui.outline", 200, { toolsFrame(.outline) }),
         ("ui.none", 200, { toolsFrame(.none) }),
         ("ui.panel.select", 50, { try panelAction(.select) }), ("ui.panel.eye", 20, { try panelAction(.eye) })] + layerCases()
    }

    /// Cases spread over several frames, each run giving every frame's milliseconds and which
    /// one opened the piece: the figure is the median over the runs of the slowest frame (an
    /// average would hide it).
    func frameCases() -> [(String, Int, () -> () -> (times: [Double], opening: Int))] {
        [("ui.editor.first", 20, { editorFirstFrames(afterStart: false) }),
         ("ui.editor.afterstart", 20, { editorFirstFrames(afterStart: true) }),
         ("ui.panel.rename", 20, { panelRenameFrames() })]
    }

    /// The median over `runs` (after two warm-ups) of each run's slowest frame, and of its
    /// opening frame, its frame count and its total.
    static func medianWorstFrame(runs: Int, _ body: () -> (times: [Double], opening: Int))
        -> (worst: Double, opening: Double, frames: Double, total: Double) {
        _ = body(); _ = body()
        let all = (0..<runs).map { _ in body() }
        func median(_ f: ((times: [Double], opening: Int)) -> Double) -> Double { percentile(all.map(f), 0.5) ?? 0 }
        return (median { $0.times.max() ?? 0 }, median { $0.times[$0.opening] }, median { Double($0.times.count) },
                median { $0.times.reduce(0, +) })
    }

    /// The wall time of one call of `body`, in milliseconds.
    static func milliseconds(_ body: () throws -> Void) rethrows -> Double {
        let d = try ContinuousClock().measure(body)
        return Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
    }

    /// A deterministic random walk inside the canvas: steps of up to 10 px.
    func randomWalk(segments: Int) -> [(Double, Double)] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53)
        }
        var p = (Double(size.width) / 2, Double(size.height) / 2)
        var out = [p]
        for _ in 0..<segments {
            let angle = next() * 2 * Double.pi, step = next() * 10
            p.0 = min(max(p.0 + cos(angle) * step, 0), Double(size.width - 1))
            p.1 = min(max(p.1 + sin(angle) * step, 0), Double(size.height - 1))
            out.append(p)
        }
        return out
    }

    /// Queues `walk` as one stroke (down, moves, up) for the session's next frame.
    func queueStroke(_ walk: [(Double, Double)], into session: Session) {
        func sample(_ p: (Double, Double)) -> StrokeSample { StrokeSample(x: p.0, y: p.1, pressure: 0.5) }
        session.handle(.pointerDown(sample(walk[0])))
        for p in walk.dropFirst() { session.handle(.pointerMove(sample(p))) }
        session.handle(.pointerUp(sample(walk[walk.count - 1])))
    }

    /// A canvas with a long 32 px random-walk stroke on it, committed.
    func drawnSession(color: Color = Color(r: 30, g: 90, b: 200, a: 200)) -> Session {
        let session = Session(size: size, compute: compute, historyBytes: 0)
        session.handle(.command(.brush(size: 32, color: color)))
        queueStroke(randomWalk(segments: 10_000), into: session)
        session.draw(FrameInfo(index: 0, timestamp: 0, targetTimestamp: 0), to: OffscreenPresenter(size: size))
        return session
    }

    /// Removes the files the cases wrote (the journal, the documents).
    static func removeFiles() {
        for path in [journalPath] + ["png", "save", "open"].map(documentPath) { try? FileManager.default.removeItem(atPath: path) }
    }
}

/// The value at fraction `p` of the sorted values (nearest rank), or nil when there are none.
func percentile(_ values: [Double], _ p: Double) -> Double? {
    guard !values.isEmpty else { return nil }
    let sorted = values.sorted()
    let rank = Int((p * Double(sorted.count)).rounded(.up)) - 1
    return sorted[min(max(rank, 0), sorted.count - 1)]
}
