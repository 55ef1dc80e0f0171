import Clock
import Compute
import Events
import Geometry
import Kernels
import Strokes

/// One painting session: the document, the brush, the live stroke and undo history.
///
/// Input is queued by `handle(_:)` and played by `draw(_:to:)`, once per frame, in arrival
/// order: the coalesced samples of that frame, none dropped. The window drives `draw` from its
/// 60 Hz clock; `quicksilver render` drives it from a virtual one, so both give the same pixels.
public final class Session {
    /// Where compute passes run. Any context gives the same pixels; a restore plays on one with
    /// a worker fewer, leaving a core to the thread that parses, then hands the window this one.
    public var compute: ComputeContext
    public let canvas: Canvas
    public private(set) var brush = Brush()
    public let seed: Int64

    /// Events received since the last frame, played by the next.
    private var pending: [SessionEvent] = []
    private let layer: StrokeLayer
    private let history: History
    /// What is being drawn: nothing, a stroke, or a finished mercurial stroke being embossed.
    private var live = LiveStroke.none
    /// The mercurial brush's buffers, made on first use (they are canvas-sized) and kept.
    private var mercurialBuffers: MercurialBrush?
    private lazy var emboss = Emboss()
    /// Canvas area whose presented image is stale.
    private var damage: Rect
    /// The whole window is stale (the view moved, the window was resized or exposed).
    private var windowIsStale = true
    /// How the window shows the canvas.
    public private(set) var viewTransform = ViewTransform.identity
    /// Samples were added to the live pen stroke since its tail was last drawn.
    private var tailIsStale = false
    /// Where the pen is predicted to be (an overlay beyond the last sample, shown in the window
    /// only: never in the canvas, an export, a journal or a replay).
    private var prediction: (x: Double, y: Double)?
    private var requestedPrediction: (x: Double, y: Double)?
    private var predictionRequested = false
    /// The view filters: invert, and the pulsing background with the frame it started at.
    public private(set) var invert = false
    public private(set) var pulse: Pulse?
    private var pulseStart: Int?
    private var shownBackground: Color?

    /// The states of the live stroke, each with what it needs.
    private enum LiveStroke {
        case none
        /// A pen, pixel-pen or eraser stroke in progress.
        case pen(PenStroke)
        /// A mercurial stroke in progress: the brush holds this frame's samples and the scaffold.
        case mercurial(MercurialBrush)
        /// A finished mercurial stroke whose emboss is still being computed; its live look stays
        /// in the stroke layer until the emboss is baked in.
        case embossing(EmbossJob)
    }

    /// A pen, pixel-pen or eraser stroke: its geometry, the brush it started with, the newest
    /// sample (where it ends if the pointer is lost) and, when the brush has one, the stabilizer
    /// the samples go through.
    private struct PenStroke {
        var builder: StrokeBuilder
        let brush: Brush
        var last: StrokePoint
        var stabilizer: Stabilizer?
    }

    /// What a frame did: the events it played, in order (what the window records and journals),
    /// and the rectangle it presented (empty when nothing changed).
    public struct Frame {
        public var played: [SessionEvent]
        public var presented: Rect
    }

    /// - Parameter seed: every random choice of the session (the mercurial brush's particles).
    /// - Parameter historyBytes: memory for undo steps (0: none kept, undo does nothing).
    public init(size: Size, background: Color = .white, seed: Int64 = 0, compute: ComputeContext, historyBytes: Int = 256 << 20) {
        self.compute = compute
        self.seed = seed
        canvas = Canvas(size: size, background: background)
        layer = StrokeLayer(size: size)
        layer.clip = Rect(size: size)
        history = History(byteLimit: historyBytes)
        damage = Rect(size: size)
    }

    /// Starts the canvas from saved pixels (a journal's snapshot): `size.area` pixels, row-major,
    /// copied into the top-left corner. Call before any event.
    public func load(pixels: [UInt32], size: Size) {
        guard pixels.count >= size.area, size.area > 0 else { return }
        pixels.withUnsafeBufferPointer { p in
            // A read-only view of the array as a texture: its rows go straight into the canvas.
            let source = Texture(base: UnsafeMutablePointer(mutating: p.baseAddress!), width: size.width, height: size.height,
                                 rowStride: size.width)
            canvas.texture.copy(Rect(size: size), from: source)
        }
        damage = damage.union(canvas.bounds)
    }

    /// Every stored pixel of the canvas (hidden parts too) and its size: what a journal snapshot
    /// keeps. The live stroke is not included.
    public func canvasPixels() -> (size: Size, pixels: [UInt32]) {
        settleEmboss()
        return (canvas.texture.size, canvas.storage.pixels)
    }

    /// True when any stored pixel differs from the background (one pass over the canvas, no copy).
    public var hasPaint: Bool {
        settleEmboss()
        let bg = canvas.barePixel, t = canvas.texture
        return !t.bounds.ys.allSatisfy { y in UnsafeBufferPointer(start: t.row(y), count: t.width).allSatisfy { $0 == bg } }
    }

    /// The colour at canvas point (x, y), opaque: the paint there over the background, or the
    /// background where the canvas is bare. Nil outside the canvas. Call between frames: it
    /// reads the canvas as the last frame left it.
    public func color(at x: Double, _ y: Double) -> Color? {
        settleEmboss()
        guard x.isFinite, y.isFinite, case let (cx, cy) = (Int(x.rounded(.down)), Int(y.rounded(.down))),
              canvas.bounds.contains(x: cx, y: cy) else { return nil }
        let p = canvas.texture[cx, cy]
        return Color(r: UInt8(p >> 16 & 0xff), g: UInt8(p >> 8 & 0xff), b: UInt8(p & 0xff))
    }

    /// Forgets every undo and redo step (a compacted journal cannot replay them).
    public func dropHistory() { history.removeAll() }

    /// Queues an event for the next frame.
    public func handle(_ event: SessionEvent) { pending.append(event) }

    /// True when a frame would change what is shown: the frame clock may pause otherwise.
    public var needsDraw: Bool {
        if !pending.isEmpty || !damage.isEmpty || windowIsStale || pulse != nil { return true }
        if case .embossing = live { return true }
        return false
    }

    /// Whether a stroke is in progress (pointer down). A finished mercurial stroke whose emboss
    /// is still computing is not: anything that reads the canvas waits for it.
    public var isStroking: Bool {
        switch live {
        case .pen, .mercurial: true
        case .none, .embossing: false
        }
    }

    /// Mercurial samples sent to the scaffold kernel, and in how many batches of four.
    public var mercurialCounts: (samples: Int, batches: Int) {
        (mercurialBuffers?.samplesRun ?? 0, mercurialBuffers?.batchesRun ?? 0)
    }

    /// Shows the live pen stroke going on to (x, y) (canvas pixels) beyond its last sample, from
    /// the next frame (or ink present) on, until a sample comes; nil shows none. Only a pen or
    /// eraser stroke shows one.
    public func predict(_ point: (x: Double, y: Double)?) {
        requestedPrediction = point
        predictionRequested = true
    }

    /// The prediction asked for, once this frame's samples have been played.
    private func applyPrediction() {
        guard predictionRequested else { return }
        predictionRequested = false
        if case .pen(let stroke) = live, stroke.brush.tip.kind.isSmooth {
            prediction = requestedPrediction
            tailIsStale = true
        }
    }

    /// The window changed size or must be shown again whole: the next frame redraws it all.
    public func windowChanged() { windowIsStale = true }

    /// Runs one frame: plays the queued events, then composes and presents the damaged region.
    @discardableResult
    public func draw(_ frame: FrameInfo, to presenter: Presenter) -> Frame {
        if case .embossing(let job) = live, job.isDone { bake(job) }
        let events = pending
        pending.removeAll(keepingCapacity: true)
        for event in events { play(event) }
        if case .mercurial(let m) = live { commit(m.runFrame(into: layer.committed, clip: layer.clip, on: compute)) }
        if let pulse {
            // While pulsing, every frame redraws the whole window.
            let start = pulseStart ?? frame.index
            pulseStart = start
            shownBackground = pulse.color(loc: Pulse.loc(frames: frame.index - start))
            damage = canvas.bounds
        }
        applyPrediction()
        return Frame(played: events, presented: present(to: presenter))
    }

    /// The immediate ink path: plays the queued events now, as long as they are samples of a pen,
    /// pixel-pen or eraser stroke (up to the first that is not: a command, a mercurial stroke, a
    /// view), and presents what they changed, between frames. The pixels are exactly those the
    /// next frame would have drawn; everything else waits for it. Nothing happens while the
    /// window must be redrawn whole. Returns what it played and presented.
    @discardableResult
    public func drawInk(to presenter: Presenter) -> Frame {
        guard !windowIsStale else { return Frame(played: [], presented: .empty) }
        var played: [SessionEvent] = []
        while let event = pending.first, isInk(event) {
            pending.removeFirst()
            play(event)
            played.append(event)
        }
        guard !played.isEmpty else { return Frame(played: [], presented: .empty) }
        applyPrediction()
        return Frame(played: played, presented: present(to: presenter))
    }

    /// A sample the ink path may draw: one of a pen-like stroke, started or going on.
    private func isInk(_ event: SessionEvent) -> Bool {
        switch (event, live) {
        case (.pointerMove, .pen), (.pointerUp, .pen): true
        case (.pointerDown, .none): brush.tip.kind != .mercurial
        default: false
        }
    }

    /// The live tail (last committed point → newest sample), redrawn only when samples came and
    /// only when something is about to look at it: a headless replay (a restore, `render`)
    /// draws no tail but the last, which is most of a live stroke's cost saved.
    private func redrawTail() {
        guard tailIsStale else { return }
        tailIsStale = false
        guard case .pen(let stroke) = live else { return }
        let (sink, cleared) = layer.beginTail()
        var tailSink = sink
        let predicted = prediction.map { StrokePoint(x: $0.x, y: $0.y, pressure: stroke.last.pressure) }
        let drawn = stroke.builder.tail(into: &tailSink, predictedTo: predicted)
        layer.didDrawTail(drawn)
        damage = damage.union(cleared).union(drawn)
    }

    /// Composes and presents what is stale; returns the window rectangle presented.
    private func present(to presenter: Presenter) -> Rect {
        let window = Rect(size: presenter.size)
        // Nothing shown (a headless replay): the damage waits for a presenter that shows it.
        guard !window.isEmpty else { return .empty }
        redrawTail()
        let region = windowIsStale ? window : viewTransform.windowRect(covering: damage.intersection(canvas.bounds)).intersection(window)
        damage = .empty
        windowIsStale = false
        guard !region.isEmpty else { return .empty }
        compose(region, into: presenter.frameTarget(), transform: viewTransform)
        presenter.present(region)
        return region
    }

    /// What the session shows now (canvas plus live stroke), as a new image of the canvas's size:
    /// the same bytes the window presents at 100 %, for export and `quicksilver render`.
    public func snapshot() -> Snapshot {
        settleEmboss()
        // A predicted tail is the window's alone: the picture is drawn without it.
        let predicted = prediction
        if predicted != nil {
            prediction = nil
            tailIsStale = true
        }
        let size = canvas.visibleSize
        // Composed straight into the array the picture keeps (no second canvas-sized copy); the
        // compose writes every pixel of the region, so none is left uninitialised.
        let pixels = [UInt32](unsafeUninitializedCapacity: max(1, size.area)) { buffer, count in
            compose(canvas.bounds, into: Texture(base: buffer.baseAddress!, width: size.width, height: size.height, rowStride: size.width))
            count = size.area
        }
        if predicted != nil {
            prediction = predicted
            tailIsStale = true
        }
        return Snapshot(width: size.width, height: size.height, pixels: pixels)
    }

    /// The compose pass's view filters as they stand.
    private var view: ComposeKernel.View {
        ComposeKernel.View(background: shownBackground ?? canvas.background, over: canvas.background, invert: invert)
    }

    /// The live stroke layer as the compose kernel shows it, if anything is live.
    private var liveStroke: ComposeKernel.Stroke? {
        switch live {
        case .none: nil
        case .pen(let stroke): kernelStroke(stroke.brush)
        case .mercurial(let m): layer.kernelStroke(color: m.brush.color)
        case .embossing(let job): layer.kernelStroke(color: job.color)
        }
    }

    /// The stroke layer in `brush`'s colour; an eraser's is the background's, taking paint away.
    private func kernelStroke(_ brush: Brush) -> ComposeKernel.Stroke {
        brush.tip.kind == .eraser ? layer.kernelStroke(color: canvas.background, paints: false) : layer.kernelStroke(color: brush.color)
    }

    /// Composes `region` (of `target`) of what the session shows, the canvas plus the live
    /// stroke, seen through `transform` (the canvas at 100 % in the top-left corner by default).
    public func compose(_ region: Rect, into target: Texture<UInt32>, transform: ViewTransform = .identity) {
        redrawTail()
        let stroke = liveStroke
        ComposeKernel(canvas: canvas.visibleTexture, output: target, stroke: stroke, view: view, transform: transform)
            .run(over: region, on: compute)
    }

    // MARK: - Playing events

    private func play(_ event: SessionEvent) {
        // A real sample replaces any prediction.
        if case .command = event {} else { prediction = nil }
        switch event {
        case .pointerDown(let s):
            endStroke(at: nil)
            settleEmboss()
            if brush.tip.kind == .mercurial {
                let m = mercurialBuffers ?? MercurialBrush(size: canvas.texture.size, seed: seed)
                mercurialBuffers = m
                m.begin(s.point, brush: brush)
                live = .mercurial(m)
                return
            }
            var sink = layer.committedSink()
            var d = Rect.empty
            let builder = StrokeBuilder(tip: brush.tip, start: s.point, into: &sink, damage: &d)
            let stabilizer = brush.stabilizer > 0 ? Stabilizer(strength: brush.stabilizer, start: s.point) : nil
            live = .pen(PenStroke(builder: builder, brush: brush, last: s.point, stabilizer: stabilizer))
            tailIsStale = true
            commit(d)
        case .pointerMove(let s):
            switch live {
            case .mercurial(let m):
                m.add(s.point)
            case .pen(var stroke):
                var sink = layer.committedSink()
                let p = stroke.stabilizer?.add(s.point) ?? s.point
                commit(stroke.builder.add(p, into: &sink))
                stroke.last = s.point
                live = .pen(stroke)
                tailIsStale = true
            case .none, .embossing:
                break
            }
        case .pointerUp(let s):
            endStroke(at: s.point)
        case .command(let command):
            run(command)
        case .resize(let size):
            if canvas.resize(to: size) {
                layer.grow(to: canvas.texture.size)
                mercurialBuffers?.grow(to: canvas.texture.size)
            }
            layer.clip = canvas.bounds
            windowIsStale = true
        case .view(let transform):
            viewTransform = transform
            windowIsStale = true
        }
    }

    private func commit(_ d: Rect) {
        layer.didCommit(d)
        damage = damage.union(d)
    }

    /// Finishes the live stroke (at `p`, or where it last was) and bakes it into the canvas as
    /// one undo step.
    private func endStroke(at p: StrokePoint?) {
        switch live {
        case .mercurial(let m):
            endMercurial(m)
        case .pen(var stroke):
            let brush = stroke.brush
            var sink = layer.committedSink()
            // With a stabilizer the stroke catches up with the last sample here, in this frame.
            commit(stroke.builder.finish(at: p ?? stroke.last, into: &sink))
            damage = damage.union(layer.beginTail().cleared)
            let bounds = layer.bounds.intersection(canvas.texture.bounds)
            if !bounds.isEmpty {
                history.record(bounds, of: canvas.texture)
                ComposeKernel(canvas: canvas.texture, output: canvas.texture,
                              stroke: kernelStroke(brush), view: nil).run(over: bounds, on: compute)
            }
            layer.reset()
            live = .none
        case .none, .embossing:
            break
        }
    }

    /// Ends the live mercurial stroke: its last frame of samples is sprayed, then its emboss
    /// starts in the background (`bake` puts it into the canvas as one undo step).
    private func endMercurial(_ m: MercurialBrush) {
        commit(m.runFrame(into: layer.committed, clip: layer.clip, on: compute))
        let bounds = layer.bounds.intersection(canvas.texture.bounds)
        if bounds.isEmpty {
            layer.reset()
            live = .none
        } else {
            live = .embossing(EmbossJob(coverage: layer.committed, bounds: bounds, color: m.brush.color, emboss: emboss))
        }
        m.reset()
    }

    /// Waits for a pending emboss and bakes it: before anything else may change the canvas, so
    /// the result never depends on how long the emboss took.
    private func settleEmboss() {
        if case .embossing(let job) = live { bake(job) }
    }

    private func bake(_ job: EmbossJob) {
        history.record(job.bounds, of: canvas.texture)
        job.bake(into: canvas.texture)
        damage = damage.union(job.bounds).union(layer.bounds)
        layer.reset()
        live = .none
    }

    private func run(_ command: Command) {
        switch command {
        case .brush(let kind, let size, let color, let stabilizer):
            brush.apply(kind: kind, size: size, color: color, stabilizer: stabilizer)
        case .channel(let c):
            brush.flip(c)
        case .undo:
            endStroke(at: nil)
            settleEmboss()
            if let d = history.undo(canvas.texture) { damage = damage.union(d) }
        case .redo:
            endStroke(at: nil)
            settleEmboss()
            if let d = history.redo(canvas.texture) { damage = damage.union(d) }
        case .exit:
            break
        case .continued:
            endStroke(at: nil)
            settleEmboss()
            pulseStart = nil
        case .invert(let on):
            invert = on ?? !invert
            damage = canvas.bounds
        case .pulse(let on, let hue, let centre, let range):
            var p = pulse ?? Pulse()
            if let hue { p.hue = hue }
            if let centre { p.centre = centre }
            if let range { p.range = range }
            if on ?? (pulse == nil) {
                if pulse == nil { pulseStart = nil }
                pulse = p
            } else {
                pulse = nil
                shownBackground = nil
            }
            damage = canvas.bounds
        case .clear:
            endStroke(at: nil)
            settleEmboss()
            history.record(canvas.texture.bounds, of: canvas.texture)
            canvas.clear()
            damage = damage.union(canvas.bounds)
        case .paste(let picture):
            endStroke(at: nil)
            settleEmboss()
            let covered = picture.bounds.intersection(canvas.bounds)
            guard !covered.isEmpty, picture.pixels.count == picture.size.area else { return }
            history.record(covered, of: canvas.texture)
            canvas.paste(picture.pixels, size: picture.size, at: picture.x, picture.y, over: covered)
            damage = damage.union(covered)
        }
    }
}
