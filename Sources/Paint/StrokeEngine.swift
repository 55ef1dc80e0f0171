import Brushes
import Compute
import Events
import Geometry
import Kernels
import Strokes

/// The stroke engine: samples become the live stroke (a pen, pixel-pen or eraser stroke's
/// coverage, or the mercurial brush's liquid metal), shown over the current layer as it grows
/// and baked into that layer, as one undo step, when it ends. It never touches the layers
/// otherwise; every method returns the canvas area it changed.
final class StrokeEngine {
    /// What is being drawn: nothing, a stroke, or a finished mercurial stroke being embossed.
    private(set) var live = LiveStroke.none
    private let layer: StrokeLayer
    /// The mercurial brush's buffers, made on first use and kept (`mercurialSize`).
    private var mercurialBuffers: MercurialBrush?
    /// The emboss of the last mercurial stroke baked, for the next one if its shading is the
    /// same; a job makes a new one (off the frame loop) when it is not.
    private var emboss: Emboss?
    /// Embosses (hemisphere images) made so far.
    private(set) var embossesMade = 0
    private let seed: Int64
    /// The mercurial spray drawn relative to its stroke (`Session.sprayFromStroke`).
    private let sprayFromStroke: Bool
    /// The largest frame's size (`Document.storageSize`); the mercurial brush's buffers are
    /// twice it each way, placed around where its stroke begins (`mercurialOrigin`).
    private(set) var size: Size
    private var mercurialSize: Size { Size(width: 2 * size.width, height: 2 * size.height) }
    /// Samples were added to the live pen stroke since its tail was last drawn.
    private var tailIsStale = false
    /// Where the pen is predicted to be (shown in the window only).
    private var prediction: (x: Double, y: Double)?
    /// The MyPaint brush last chosen, made when its event was played (nil: none, or it could
    /// not be made).
    private var mypaint: MyPaintTool?
    /// The brushes installed, looked in once a brush is chosen by name alone.
    private lazy var library = BrushLibrary.installed()

    enum LiveStroke {
        case none
        /// A pen, pixel-pen or eraser stroke in progress.
        case pen(PenStroke)
        /// A mercurial stroke in progress: the brush holds this frame's samples and the scaffold.
        case mercurial(MercurialBrush)
        /// A finished mercurial stroke whose emboss is still being computed; its live look stays
        /// in the stroke layer until the emboss is baked in.
        case embossing(EmbossJob)
        /// A MyPaint brush's stroke in progress, painting straight into the layer's tiles.
        case mypaint(MyPaintTool)
    }

    /// A pen, pixel-pen or eraser stroke: its geometry, the brush it started with, the newest
    /// sample (where it ends if the pointer is lost) and, when the brush has one, the stabilizer
    /// the samples go through. A reference, so that each sample changes it in place (a value
    /// in the enum would be copied out and back, brush and all, for every sample).
    ///
    /// Its properties are only ever read or written whole, never changed in place across a call
    /// (callers take a value out, work on it and put it back): the compiler can then prove no
    /// two accesses overlap and drops the run-time exclusivity checks, which cost a tenth of a
    /// replay's time.
    final class PenStroke {
        var builder: StrokeBuilder
        let brush: Brush
        var last: StrokePoint
        var stabilizer: Stabilizer?

        init(builder: StrokeBuilder, brush: Brush, last: StrokePoint, stabilizer: Stabilizer?) {
            self.builder = builder
            self.brush = brush
            self.last = last
            self.stabilizer = stabilizer
        }
    }

    init(size: Size, seed: Int64, sprayFromStroke: Bool) {
        self.size = size
        self.seed = seed
        self.sprayFromStroke = sprayFromStroke
        layer = StrokeLayer()
        frame = Rect(size: size)
    }

    /// Whether a stroke is in progress (pointer down). A finished mercurial stroke whose emboss
    /// is still computing is not.
    var isStroking: Bool {
        switch live {
        case .pen, .mercurial, .mypaint: true
        case .none, .embossing: false
        }
    }

    var isEmbossing: Bool { if case .embossing = live { true } else { false } }

    /// Mercurial samples sent to the scaffold kernel, and in how many batches of four.
    var mercurialCounts: (samples: Int, batches: Int) { (mercurialBuffers?.samplesRun ?? 0, mercurialBuffers?.batchesRun ?? 0) }

    /// The document's frame as `Session.followFrame` last brought the engine to it (its change
    /// is what makes the window redraw whole).
    var frame: Rect

    /// The frame grew (a replay's `resize`): the mercurial brush's buffers grow with it.
    func grow(to size: Size) {
        self.size = size
        mercurialBuffers?.grow(to: mercurialSize)
    }

    /// The mercurial brush's frame of samples sprayed into its dense mask, then copied into the
    /// stroke's tiles.
    private func runMercurial(_ m: MercurialBrush, on compute: ComputeContext) -> Rect {
        let d = m.runFrame(into: layer.frameMask(size: mercurialSize), clip: m.held, on: compute)
        layer.absorbFrameMask(d)
        return d
    }

    // MARK: - MyPaint brushes

    /// Makes the MyPaint brush `choice` anew, in `color`: from its settings, else the installed
    /// brush of its name. Returns the choice with its settings (what a journal embeds), or why
    /// the brush could not be made (it then paints nothing).
    func choose(_ choice: MyPaintChoice, color: Color, compute: ComputeContext) -> Result<MyPaintChoice, BrushError> {
        mypaint = nil
        do throws(BrushError) {
            let settings = if let json = choice.settings {
                try BrushSettings.parse(Array(json.utf8), path: choice.name)
            } else {
                try library.settings(named: choice.name)
            }
            var made = choice
            made.settings = made.settings ?? settings.json
            mypaint = try MyPaintTool(made, settings: settings, color: color, compute: compute)
            return .success(made)
        } catch {
            return .failure(error)
        }
    }

    /// A MyPaint stroke starts at `s` on the current layer (nothing when the brush chosen could
    /// not be made).
    func beginMyPaint(_ s: StrokeSample, color: Color, symmetry: Symmetry = .off, view: ViewTransform, into document: Document) -> Rect {
        guard let tool = mypaint else { return .empty }
        tool.begin(on: document.currentLayer, color: color, symmetry: symmetry)
        live = .mypaint(tool)
        return tool.play(s, pressure: s.pressure, view: view, into: document)
    }

    /// A sample of the live MyPaint stroke (an up: `pressure` 0); nil when the live stroke is
    /// not one.
    func addMyPaint(_ s: StrokeSample, pressure: Double, view: ViewTransform, into document: Document) -> Rect? {
        guard case .mypaint(let tool) = live else { return nil }
        return tool.play(s, pressure: pressure, view: view, into: document)
    }

    /// The live MyPaint stroke shown in its layer as it stands.
    func showMyPaint(in document: Document) -> Rect {
        guard case .mypaint(let tool) = live else { return .empty }
        return tool.show(in: document)
    }

    // MARK: - Samples

    /// A stroke starts at `s` with `brush`, with its copies under `symmetry` (the mercurial
    /// brush paints none: its particles are sprayed by a kernel over the whole stroke, not
    /// placed as dabs).
    func begin(_ s: StrokePoint, brush: Brush, symmetry: Symmetry = .off) -> Rect {
        if brush.tip.kind == .mercurial {
            let m = mercurialBuffers ?? MercurialBrush(size: mercurialSize, seed: seed, sprayFromStroke: sprayFromStroke)
            mercurialBuffers = m
            m.begin(s, brush: brush, origin: mercurialOrigin(of: s))
            layer.frameOrigin = m.origin
            live = .mercurial(m)
            return .empty
        }
        layer.clip = Self.reach(of: s)
        var builder: StrokeBuilder?
        let d = layer.commit { sink in
            var d = Rect.empty
            builder = StrokeBuilder(tip: brush.tip, start: s, symmetry: symmetry, into: &sink, damage: &d)
            return d
        }
        guard let builder else { return d }
        let stabilizer = brush.stabilizer > 0 ? Stabilizer(strength: brush.stabilizer, start: s) : nil
        live = .pen(PenStroke(builder: builder, brush: brush, last: s, stabilizer: stabilizer))
        tailIsStale = true
        return d
    }

    func add(_ s: StrokePoint) -> Rect {
        switch live {
        case .mercurial(let m):
            m.add(s)
            return .empty
        case .pen(let stroke):
            // The stabilizer and the builder taken out while they work, and put back (`PenStroke`).
            var p = s
            if var stabilizer = stroke.stabilizer.take() {
                p = stabilizer.add(s)
                stroke.stabilizer = stabilizer
            }
            var builder = stroke.builder
            let d = layer.commit { builder.add(p, into: &$0) }
            stroke.builder = builder
            stroke.last = s
            tailIsStale = true
            return d
        case .none, .embossing, .mypaint:
            return .empty
        }
    }

    /// This frame's mercurial samples, sprayed.
    func runFrame(on compute: ComputeContext) -> Rect {
        guard case .mercurial(let m) = live else { return .empty }
        return runMercurial(m, on: compute)
    }

    /// Finishes the live stroke (at `p`, or where it last was) and bakes it into the current
    /// layer of `document` as one undo step (a mercurial stroke: once its emboss is done).
    func end(at p: StrokePoint?, into document: Document, on compute: ComputeContext) -> Rect {
        switch live {
        case .mercurial(let m):
            var d = runMercurial(m, on: compute)
            let bounds = layer.bounds.intersection(m.held)
            if bounds.isEmpty {
                d = d.union(layer.bounds)
                layer.reset()
                live = .none
            } else {
                // Lit as the brush was when the stroke started.
                live = .embossing(EmbossJob(coverage: layer.frameMask(size: mercurialSize), origin: m.origin, bounds: bounds, color: m.brush.color,
                                            radius: Emboss.radius(forBrushSize: m.brush.tip.size), shading: m.brush.shading, kept: emboss))
            }
            m.reset()
            return d
        case .pen(let stroke):
            let end = p ?? stroke.last
            var builder = stroke.builder, stabilizer = stroke.stabilizer.take()
            var d = layer.commit { sink in
                var d = Rect.empty
                // With a stabilizer the stroke catches up with the last sample here, in this
                // frame, along the steadied line rather than in a jump.
                for q in stabilizer?.finish(at: end) ?? [] { d = d.union(builder.add(q, into: &sink)) }
                return d.union(builder.finish(at: end, into: &sink))
            }
            d = d.union(layer.redrawTail { _ in .empty }.cleared)
            bake(stroke.brush, into: document, on: compute)
            d = d.union(layer.bounds)
            layer.reset()
            live = .none
            prediction = nil
            return d
        case .mypaint(let tool):
            live = .none
            return tool.end(into: document)
        case .none, .embossing:
            return .empty
        }
    }

    /// Waits for a pending emboss and bakes it: before anything else may change the layers, so
    /// the result never depends on how long the emboss took.
    func settle(into document: Document) -> Rect {
        guard case .embossing(let job) = live else { return .empty }
        return bake(job, into: document)
    }

    /// Bakes the emboss if it is done (the frame loop asks each frame).
    func bakeIfDone(into document: Document) -> Rect {
        guard case .embossing(let job) = live, job.isDone else { return .empty }
        return bake(job, into: document)
    }

    private func bake(_ job: EmbossJob, into document: Document) -> Rect {
        let (change, _) = document.beginPixels(of: document.currentLayer, in: job.bounds) { job.covers($0) }
        job.bake(into: document.currentLayer.pixels)
        document.record([change])
        if let made = job.madeEmboss {
            emboss = made
            embossesMade += 1
        }
        let d = job.bounds.union(layer.bounds)
        layer.reset()
        live = .none
        return d
    }

    /// The pen stroke's coverage blended into the current layer's tiles where it covers any:
    /// premultiplied source-over, or for an eraser destination-out (tiles that have none stay
    /// none). A threadgroup per tile writes the whole new tile from the old one: blended where
    /// the stroke's bounds cross it, copied around them (no copy of the tile beforehand).
    private func bake(_ brush: Brush, into document: Document, on compute: ComputeContext) {
        let bounds = layer.bounds
        guard !bounds.isEmpty else { return }
        let target = document.currentLayer
        let paints = brush.tip.kind != .eraser
        let (change, tiles) = document.rewritePixels(of: target, in: bounds, onlyExisting: !paints, among: layer.tileKeys) { layer.covers($0) }
        let stroke = kernelStroke(brush)
        let pixels = target.pixels, side = Tile.side
        // The blend over the bounds is the work (the rest is copying): a stroke of a few thousand
        // pixels is baked on this thread, where waking the workers cost a tenth of a replay.
        compute.dispatchThreadgroups(Size(width: tiles.count, height: 1), threadsPerThreadgroup: Size(width: side, height: side),
                                     grid: Rect(x: 0, y: 0, width: tiles.count * side, height: side),
                                     workingThreads: bounds.area) { group in
            let (key, source) = tiles[group.positionInGrid.x]
            guard let written = pixels[key] else { return }
            let tileRect = key.rect
            let (x0, y0) = (tileRect.minX, tileRect.minY)
            let blended = tileRect.intersection(bounds)
            for ty in 0..<side {
                let from = source.texture.row(ty), to = written.texture.row(ty), y = y0 + ty
                let copied = from != to
                guard blended.ys.contains(y) else {
                    if copied { to.update(from: from, count: side) }
                    continue
                }
                let lo = blended.minX - x0, hi = blended.maxX - x0
                if copied {
                    to.update(from: from, count: lo)
                    (to + hi).update(from: from + hi, count: side - hi)
                }
                // Indexed by canvas x, as the masks are.
                ComposeKernel.blendStroke(stroke, row: y, xs: blended.xs, src: from - x0, dst: to - x0)
            }
        }
        document.record([change])
    }

    // MARK: - What is shown

    /// Shows the live pen stroke going on to `point` (canvas pixels) beyond its last sample,
    /// until a sample comes; nil shows none. Only a smooth pen or eraser stroke shows one, and
    /// not a steadied one: its pen trails the pointer on purpose, and a line on to where the
    /// shaky pointer is heading would shake with it.
    func predict(_ point: (x: Double, y: Double)?) {
        if case .pen(let stroke) = live, stroke.brush.tip.kind.isSmooth, stroke.stabilizer == nil {
            prediction = point
            tailIsStale = true
        }
    }

    /// A real sample replaces any prediction.
    func forgetPrediction() { prediction = nil }

    /// Whether a prediction is shown.
    var isPredicting: Bool { prediction != nil }

    /// The live tail (last committed point → newest sample, or the prediction), redrawn only
    /// when samples came and only when something is about to look at it: a headless replay
    /// draws no tail but the last. Returns the area it changed.
    func redrawTail() -> Rect {
        guard tailIsStale else { return .empty }
        tailIsStale = false
        guard case .pen(let stroke) = live else { return .empty }
        let predicted = prediction.map { StrokePoint(x: $0.x, y: $0.y, pressure: stroke.last.pressure) }
        let builder = stroke.builder
        let (cleared, drawn) = layer.redrawTail { builder.tail(into: &$0, predictedTo: predicted) }
        return cleared.union(drawn)
    }

    /// Hides the prediction for a picture (exports never show it); returns it to put back.
    func withoutPrediction<T>(_ body: () -> T) -> T {
        let saved = prediction
        if saved != nil {
            prediction = nil
            tailIsStale = true
        }
        defer {
            if saved != nil {
                prediction = saved
                tailIsStale = true
            }
        }
        return body()
    }

    /// The live stroke as the compose kernel paints it into the current layer, if any.
    var overlay: ComposeKernel.Stroke? {
        switch live {
        case .none, .mypaint: nil
        case .pen(let stroke): kernelStroke(stroke.brush)
        case .mercurial(let m): layer.kernelStroke(color: m.brush.color)
        case .embossing(let job): layer.kernelStroke(color: job.color)
        }
    }

    /// An eraser's stroke takes paint away.
    private func kernelStroke(_ brush: Brush) -> ComposeKernel.Stroke {
        layer.kernelStroke(color: brush.color, paints: brush.tip.kind != .eraser)
    }
}
