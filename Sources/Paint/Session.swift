import Clock
import Compute
import Geometry
import Kernels
import Strokes

/// One painting session: the document, the brush, the live stroke and undo history.
///
/// Input is queued by `handle(_:)` and played by `draw(_:to:)`, once per frame, in arrival
/// order: the coalesced samples of that frame, none dropped. The window drives `draw` from its
/// 60 Hz clock; `quicksilver render` drives it from a virtual one, so both give the same pixels.
public final class Session {
    public let compute: ComputeContext
    public let canvas: Canvas
    public private(set) var brush = Brush()
    /// Pointer samples and commands received since the last frame.
    public private(set) var pending: [InputEvent] = []

    private let layer: StrokeLayer
    private let history: History
    /// The live pen or pixel-pen stroke.
    private var stroke: (builder: StrokeBuilder, brush: Brush, last: StrokePoint)?
    /// The live mercurial stroke's state (made on first use: it holds canvas-sized buffers).
    private var mercurial: MercurialBrush?
    private var mercurialIsLive = false
    /// A finished mercurial stroke whose emboss is still being computed; its live look stays
    /// in `layer` until the emboss is baked in.
    private var embossing: EmbossJob?
    public let seed: Int64
    private lazy var emboss = Emboss()
    /// Canvas area whose presented image is stale.
    private var damage: Rect
    /// The view filters: invert, and the pulsing background with the frame it started at.
    public private(set) var invert = false
    public private(set) var pulse: Pulse?
    private var pulseStart: Int?
    private var shownBackground: Color?

    /// - Parameter seed: every random choice of the session (the mercurial brush's particles).
    public init(size: Size, background: Color = .white, seed: Int64 = 0, compute: ComputeContext, historyBytes: Int = 256 << 20) {
        self.compute = compute
        self.seed = seed
        canvas = Canvas(size: size, background: background)
        layer = StrokeLayer(size: size)
        layer.clip = Rect(size: size)
        history = History(byteLimit: historyBytes)
        damage = Rect(size: size)
    }

    /// Starts the canvas from saved pixels (a journal's snapshot): `size` pixels, row-major,
    /// copied into the top-left corner. Call before any event.
    public func load(pixels: [UInt32], size: Size) {
        let storage = TextureStorage<UInt32>(width: size.width, height: size.height, filledWith: 0)
        for (i, p) in pixels.prefix(size.area).enumerated() { storage.texture.base[i] = p }
        canvas.texture.copy(Rect(size: size), from: storage.texture)
        damage = damage.union(canvas.bounds)
    }

    /// Every stored pixel of the canvas (hidden parts too) and its size: what a journal snapshot
    /// keeps. The live stroke is not included.
    public func canvasPixels() -> (size: Size, pixels: [UInt32]) {
        settleEmboss()
        return (canvas.texture.size, canvas.storage.pixels)
    }

    /// True when any stored pixel differs from the background (one pass over the canvas).
    public var hasPaint: Bool {
        settleEmboss()
        let bg = canvas.barePixel
        return !canvas.storage.pixels.allSatisfy { $0 == bg }
    }

    /// Forgets every undo and redo step (a compacted journal cannot replay them).
    public func dropHistory() { history.removeAll() }

    /// Queues an event for the next frame.
    public func handle(_ event: InputEvent) { pending.append(event) }

    /// True when a frame would change what is shown: the frame clock may pause otherwise.
    public var needsDraw: Bool { !pending.isEmpty || !damage.isEmpty || embossing != nil || pulse != nil }

    /// Whether a stroke is in progress (pointer down). A finished mercurial stroke whose emboss
    /// is still computing is not: anything that reads the canvas waits for it.
    public var isStroking: Bool { stroke != nil || mercurialIsLive }

    /// Mercurial samples sent to the scaffold kernel, and in how many batches of four.
    public var mercurialCounts: (samples: Int, batches: Int) { (mercurial?.samplesRun ?? 0, mercurial?.batchesRun ?? 0) }

    /// Runs one frame: plays the queued input, then composes and presents the damaged region.
    /// Returns the rectangle presented (empty when nothing changed).
    @discardableResult
    public func draw(_ frame: FrameInfo, to presenter: Presenter) -> Rect {
        if let job = embossing, job.isDone { bake(job) }
        let events = pending
        pending.removeAll(keepingCapacity: true)
        for event in events { play(event) }
        if mercurialIsLive, let mercurial { commit(mercurial.runFrame(into: layer.committed, clip: layer.clip, on: compute)) }
        if let pulse {
            // While pulsing, every frame redraws the whole window.
            let start = pulseStart ?? frame.index
            pulseStart = start
            shownBackground = pulse.color(loc: Pulse.loc(frames: frame.index - start))
            damage = canvas.bounds
        }
        if let stroke {
            let (sink, cleared) = layer.beginTail()
            var tailSink = sink
            let drawn = stroke.builder.tail(into: &tailSink)
            layer.didDrawTail(drawn)
            damage = damage.union(cleared).union(drawn)
        }
        let region = damage.intersection(canvas.bounds).intersection(Rect(size: presenter.size))
        damage = .empty
        guard !region.isEmpty else { return .empty }
        compose(region, into: presenter.frameTarget())
        presenter.present(region)
        return region
    }

    /// What the session shows now (canvas plus live stroke), as a new image of the visible size:
    /// the same bytes the window presents, for export and `quicksilver render`.
    public func snapshot() -> TextureStorage<UInt32> {
        settleEmboss()
        let image = TextureStorage<UInt32>(width: canvas.visibleSize.width, height: canvas.visibleSize.height, filledWith: 0)
        compose(canvas.bounds, into: image.texture)
        return image
    }

    /// The compose pass's view filters as they stand.
    private var view: ComposeKernel.View {
        ComposeKernel.View(background: shownBackground ?? canvas.background, over: canvas.background, invert: invert)
    }

    /// Composes `region` of what the session shows (canvas plus live stroke) into `target`.
    public func compose(_ region: Rect, into target: Texture<UInt32>) {
        let color = stroke?.brush.color ?? (mercurialIsLive ? mercurial?.brush.color : nil) ?? embossing?.color
        let live = color.map { layer.kernelStroke(color: $0) }
        ComposeKernel(canvas: canvas.texture, output: target, stroke: live, view: view).run(over: region, on: compute)
    }

    // MARK: - Playing events

    private func play(_ event: InputEvent) {
        switch event {
        case .pointerDown(let s):
            endStroke(at: nil)
            settleEmboss()
            if brush.tip.kind == .mercurial {
                let m = mercurial ?? MercurialBrush(size: canvas.texture.size, seed: seed)
                mercurial = m
                m.begin(point(s), brush: brush)
                mercurialIsLive = true
                return
            }
            var sink = layer.committedSink()
            var d = Rect.empty
            let p = point(s)
            let builder = StrokeBuilder(tip: brush.tip, start: p, into: &sink, damage: &d)
            stroke = (builder, brush, p)
            commit(d)
        case .pointerMove(let s):
            if mercurialIsLive { mercurial?.add(point(s)); return }
            guard var current = stroke else { return }
            var sink = layer.committedSink()
            let p = point(s)
            commit(current.builder.add(p, into: &sink))
            current.last = p
            stroke = current
        case .pointerUp(let s):
            endStroke(at: point(s))
        case .command(let command, _):
            run(command)
        case .resize(let size, _):
            if canvas.resize(to: size) {
                layer.grow(to: canvas.texture.size)
                mercurial?.grow(to: canvas.texture.size)
            }
            layer.clip = canvas.bounds
            damage = damage.union(canvas.bounds)
        case .key, .modifiers, .expose, .close:
            break
        }
    }

    private func point(_ s: PointerSample) -> StrokePoint {
        StrokePoint(x: s.x, y: s.y, pressure: s.pressure ?? 0.5)
    }

    private func commit(_ d: Rect) {
        layer.didCommit(d)
        damage = damage.union(d)
    }

    /// Finishes the live stroke (at `p`, or where it last was) and bakes it into the canvas as
    /// one undo step.
    private func endStroke(at p: StrokePoint?) {
        if mercurialIsLive { endMercurial(); return }
        guard var current = stroke else { return }
        var sink = layer.committedSink()
        commit(current.builder.finish(at: p ?? current.last, into: &sink))
        damage = damage.union(layer.beginTail().cleared)
        let bounds = layer.bounds.intersection(canvas.texture.bounds)
        if !bounds.isEmpty {
            history.record(bounds, of: canvas.texture)
            ComposeKernel(canvas: canvas.texture, output: canvas.texture,
                          stroke: layer.kernelStroke(color: current.brush.color), view: nil).run(over: bounds, on: compute)
        }
        layer.reset()
        stroke = nil
    }

    /// Ends the live mercurial stroke: its last frame of samples is sprayed, then its emboss
    /// starts in the background (`bake` puts it into the canvas as one undo step).
    private func endMercurial() {
        guard let mercurial else { return }
        commit(mercurial.runFrame(into: layer.committed, clip: layer.clip, on: compute))
        mercurialIsLive = false
        let bounds = layer.bounds.intersection(canvas.texture.bounds)
        if bounds.isEmpty {
            layer.reset()
        } else {
            embossing = EmbossJob(coverage: layer.committed, bounds: bounds, color: mercurial.brush.color, emboss: emboss)
        }
        mercurial.reset()
    }

    /// Waits for a pending emboss and bakes it: before anything else may change the canvas, so
    /// the result never depends on how long the emboss took.
    private func settleEmboss() {
        if let job = embossing { bake(job) }
    }

    private func bake(_ job: EmbossJob) {
        history.record(job.bounds, of: canvas.texture)
        job.bake(into: canvas.texture)
        damage = damage.union(job.bounds).union(layer.bounds)
        layer.reset()
        embossing = nil
    }

    private func run(_ command: Command) {
        switch command {
        case .brush(let kind, let size, let color):
            brush.apply(kind: kind, size: size, color: color)
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
        }
    }
}
