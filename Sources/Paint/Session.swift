import Clock
import Compute
import Events
import Geometry
import Kernels
import Strokes

/// One painting session: events in, frames out. It plays each frame's events on four parts:
/// the `Document` (the layer stack and its history: what is drawn), the `StrokeEngine` (the live
/// stroke, baked into the current layer when it ends), the `StackView` (what the compose kernel
/// reads of the stack) and the `View` (how the window shows it all), and presents what changed.
///
/// Reading it changes nothing: a finished mercurial stroke whose emboss is still computing is
/// baked by the frame that finds it done, by anything that changes the layers, or by `settle()`,
/// which a caller about to read the layers (an export, a journal's snapshot) calls first.
///
/// Input is queued by `handle(_:)` and played by `draw(_:to:)`, once per frame, in arrival
/// order: the coalesced samples of that frame, none dropped. The window drives `draw` from its
/// 60 Hz clock; `quicksilver render` drives it from a virtual one, so both give the same pixels.
public final class Session {
    /// Where compute passes run. Any context gives the same pixels.
    public let compute: ComputeContext
    public let document: Document
    public internal(set) var brush = Brush()
    /// Mirror painting, from the next stroke on (`Command.symmetry`).
    public internal(set) var symmetry = Symmetry.off
    public let seed: Int64
    /// Whether the mercurial brush draws its spray's random numbers relative to the stroke, so
    /// that the same stroke anywhere is the same stroke moved (the endless canvas's promise, as
    /// every other brush keeps it), or from canvas positions, as MercurialPaint and sessions
    /// before the endless canvas did (a replay without `"spray": "stroke"` in its header).
    public let sprayFromStroke: Bool

    /// Events received since the last frame, played by the next.
    ///
    /// This and `recycled` are changed only through locals swapped in and out (`withPending`):
    /// an array property changed in place across a call costs a run-time exclusivity check at
    /// every access, and a replay queues every one of its events here.
    private(set) var pending: [SessionEvent] = []
    /// The events the last frame played: their storage, for the queue once no one holds them.
    private var recycled: [SessionEvent] = []
    let strokes: StrokeEngine
    private let stack = StackView()
    /// A stroke begun on a group: it holds no pixels, so its samples draw nothing (the window
    /// refuses such a stroke first; a replay may still hold one).
    var strokeOnGroup = false
    /// Canvas area whose presented image is stale.
    var damage: Rect
    /// How the window shows the session.
    public internal(set) var view = View()
    /// What the last frame command played did (`Command.frame`), for the window to say; nil
    /// before any.
    public internal(set) var frameChange: FrameChange?

    /// What a frame did: the events it played, in order (what the window records and journals),
    /// and the rectangle it presented (empty when nothing changed).
    public struct Frame {
        public var played: [SessionEvent]
        public var presented: Rect
    }

    /// - Parameter seed: every random choice of the session (the mercurial brush's particles).
    /// - Parameter historyBytes: memory for undo steps (0: none kept, undo does nothing).
    /// - Parameter sprayFromStroke: `sprayFromStroke`; a new session's is true.
    public init(size: Size, background: Color = .white, seed: Int64 = 0, sprayFromStroke: Bool = true, compute: ComputeContext,
                historyBytes: Int = 256 << 20) {
        self.compute = compute
        self.seed = seed
        self.sprayFromStroke = sprayFromStroke
        document = Document(size: size, background: background, historyBytes: historyBytes)
        strokes = StrokeEngine(size: size, seed: seed, sprayFromStroke: sprayFromStroke)
        damage = Rect(size: size)
    }

    /// Waits for a finished mercurial stroke's emboss and bakes it into its layer (as the frame
    /// that finds it done would): call before reading the layers (`documentImage`, `snapshot`,
    /// `color(at:)`), so that what is read does not depend on how long the emboss took.
    public func settle() { damage = damage.union(strokes.settle(into: document)) }

    /// The layers' pixels and attributes as they stand (a journal's snapshot, a saved file).
    /// The live stroke is not included; call `settle()` first.
    public func documentImage() -> DocumentImage {
        assert(!strokes.isEmbossing, "settle() first")
        return DocumentImage(document)
    }

    /// Starts the document from saved layers (a snapshot, an opened file). Call before any event.
    public func load(_ image: DocumentImage) {
        image.load(into: document)
        followFrame()
        damage = document.frame
        view.windowIsStale = true
    }

    /// What a `HistoryImage` of the undo history is made of, taken now (cheap: O(layers +
    /// steps), no tile copied), for the image to be made on another thread: what a compacted
    /// journal keeps beside its snapshot. Call between frames, after `settle()`, as for
    /// `documentImage()`.
    public func historyCapture() -> HistoryImage.Capture {
        assert(!strokes.isEmbossing, "settle() first")
        return document.historyCapture()
    }

    /// The undo history as values, made now (`historyCapture()`, then the image of it).
    public func historyImage() -> HistoryImage { HistoryImage(historyCapture()) }

    /// Makes `history` the undo history, taken with the document just loaded by `load(_:)` (a
    /// compacted journal's snapshot), before any event. Refused, changing nothing, when it
    /// does not fit that document.
    public func load(history: HistoryImage) throws(HistoryImage.Mismatch) { try document.load(history) }

    /// True when the document is not a blank one: more than one layer, any pixel drawn, or a
    /// layer's attributes changed.
    public var hasPaint: Bool {
        let layers = document.layers
        return layers.count > 1 || !layers[0].pixels.isEmpty || layers[0].attributes != LayerAttributes(name: "Layer 1")
    }

    /// The colour at canvas point (x, y), opaque: the layers there over the background (no
    /// filter). Nil outside the canvas. Call between frames (after `settle()`): it reads the
    /// layers as the last frame left them. Anywhere on the plane: paint outside the frame too.
    public func color(at x: Double, _ y: Double) -> Color? {
        guard x.isFinite, y.isFinite, case let (cx, cy) = (Int(x.rounded(.down)), Int(y.rounded(.down))),
              Rect.plane.contains(x: cx, y: cy) else { return nil }
        syncStack()
        stack.complete(document, within: Rect(x: cx, y: cy, width: 1, height: 1), on: compute)
        var pixel: UInt32 = 0
        withUnsafeMutablePointer(to: &pixel) { p in
            // A view that puts canvas pixel (cx, cy) at the corner of a one-pixel output.
            stack.kernel(document, stroke: nil, invert: false, output: Texture(base: p, width: 1, height: 1, rowStride: 1),
                         transform: ViewTransform(scale: 0, x: -cx, y: -cy)).run(over: Rect(x: 0, y: 0, width: 1, height: 1), on: compute)
        }
        return Color(r: UInt8(pixel >> 16 & 0xff), g: UInt8(pixel >> 8 & 0xff), b: UInt8(pixel & 0xff))
    }

    /// Queues an event for the next frame. A view that follows a view is queued in its place,
    /// and so is a symmetry that follows a symmetry: a drag moves them a hundred times a second,
    /// and only where they end up shows.
    public func handle(_ event: SessionEvent) {
        withPending { queue in
            // The event is looked at first: a replay queues every one of its samples here.
            if Self.replacesItsLike(event), let last = queue.last, Self.replaces(event, last) {
                queue[queue.count - 1] = event
            } else {
                queue.append(event)
            }
        }
    }

    private static func replacesItsLike(_ event: SessionEvent) -> Bool {
        switch event {
        case .view, .command(.symmetry): true
        default: false
        }
    }

    private static func replaces(_ event: SessionEvent, _ last: SessionEvent) -> Bool {
        switch (event, last) {
        case (.view, .view), (.command(.symmetry), .command(.symmetry)): true
        default: false
        }
    }

    /// Events queued for the next frame.
    public var queuedCount: Int { pending.count }

    /// Gives the queued pointer samples the times the window journals them at: the `i`th queued
    /// event's `times[i]` (a MyPaint brush's dtime comes from them).
    public func stampQueued(_ times: [Double]) {
        withPending { queue in
            for i in queue.indices where i < times.count { queue[i] = queue[i].withSampleTime(times[i]) }
        }
    }

    /// `body` given the queue as a local, put back after.
    private func withPending<T>(_ body: (inout [SessionEvent]) -> T) -> T {
        var queue: [SessionEvent] = []
        swap(&queue, &pending)
        defer { swap(&queue, &pending) }
        return body(&queue)
    }

    /// True when a frame would change what is shown: the frame clock may pause otherwise. (An
    /// overlay that changed asks for a frame itself.)
    public var needsDraw: Bool {
        !pending.isEmpty || !damage.isEmpty || view.windowIsStale || view.pulse != nil || strokes.isEmbossing || stack.isCatchingUp
    }

    /// Whether a stroke is in progress (pointer down). A finished mercurial stroke whose emboss
    /// is still computing is not: anything that reads the layers waits for it.
    public var isStroking: Bool { strokes.isStroking }

    /// Mercurial samples sent to the scaffold kernel, and in how many batches of four.
    public var mercurialCounts: (samples: Int, batches: Int) { strokes.mercurialCounts }

    /// Hemisphere images made for mercurial strokes so far (for tests: one each time a stroke is
    /// lit otherwise than the one baked before it, never one per stroke).
    public var embossesMade: Int { strokes.embossesMade }

    /// Shows the live pen stroke going on to (x, y) (canvas pixels) beyond its last sample, from
    /// the next frame (or ink present) on, until a sample comes; nil shows none.
    public func predict(_ point: (x: Double, y: Double)?) { view.prediction = (point, true) }

    /// The prediction asked for, once this frame's samples have been played.
    private func applyPrediction() {
        guard view.prediction.asked else { return }
        view.prediction.asked = false
        strokes.predict(view.prediction.point)
    }

    /// The window changed size or must be shown again whole: the next frame redraws it all.
    public func windowChanged() { view.windowIsStale = true }

    /// The window's on-canvas tools, drawn over every frame it presents (never in a snapshot).
    public var overlay: Overlay? {
        get { view.overlay }
        set { view.overlay = newValue }
    }

    /// Runs one frame: plays the queued events, then composes and presents the damaged region.
    @discardableResult
    public func draw(_ frame: FrameInfo, to presenter: Presenter) -> Frame {
        damage = damage.union(strokes.bakeIfDone(into: document))
        let events = playQueued()
        return Frame(played: events, presented: finishFrame(frame, to: presenter))
    }

    /// Runs one frame whose events are the queued ones, then `events`: as if `events` had been
    /// queued, without queuing each (a replay's frames, a few events each, for hours). Returns the
    /// window rectangle presented; the played events are the caller's.
    @discardableResult
    func draw(_ frame: FrameInfo, playing events: some Sequence<SessionEvent>, to presenter: Presenter) -> Rect {
        damage = damage.union(strokes.bakeIfDone(into: document))
        if !pending.isEmpty { _ = playQueued() }
        for event in events { play(resolved(event) ?? event) }
        return finishFrame(frame, to: presenter)
    }

    /// Plays the queued events, each resolved just before it plays, after the ones before it;
    /// returns them as played. They are played where they were queued; the queue goes on in the
    /// storage the last frame handed out, once its caller let go of it (no allocation a frame).
    private func playQueued() -> [SessionEvent] {
        var events: [SessionEvent] = [], storage: [SessionEvent] = []
        swap(&events, &pending)
        swap(&storage, &recycled)
        if !storage.isEmpty { storage.removeAll(keepingCapacity: true) }
        swap(&pending, &storage)
        for i in events.indices {
            if let e = resolved(events[i]) { events[i] = e }
            play(events[i])
        }
        recycled = events
        return events
    }

    /// The end of every frame: the mercurial brush's samples sprayed, the pulse, the prediction,
    /// and what changed presented.
    private func finishFrame(_ frame: FrameInfo, to presenter: Presenter) -> Rect {
        damage = damage.union(strokes.runFrame(on: compute))
        // While pulsing, every frame redraws the whole canvas.
        if view.pulseFrame(frame.index) { damage = document.frame }
        applyPrediction()
        return present(to: presenter)
    }

    /// The immediate ink path: plays the queued events now, as long as they are samples of a pen,
    /// pixel-pen, eraser or MyPaint brush's stroke (up to the first that is not: a command, a
    /// mercurial stroke, a view), and presents what they changed, between frames. The pixels are
    /// exactly those the next frame would have drawn (a MyPaint brush's samples at the times the
    /// window stamped them with, `queuedInkCount`); everything else waits for it. Nothing happens
    /// while the window must be redrawn whole. Returns what it played and presented.
    @discardableResult
    public func drawInk(to presenter: Presenter) -> Frame {
        guard !view.windowIsStale else { return Frame(played: [], presented: .empty) }
        var played: [SessionEvent] = []
        withPending { queue in
            while let event = queue.first, ink(event, during: inkStroke) != nil {
                queue.removeFirst()
                play(event)
                played.append(event)
            }
        }
        guard !played.isEmpty else { return Frame(played: [], presented: .empty) }
        applyPrediction()
        return Frame(played: played, presented: present(to: presenter))
    }

    /// How many of the queued events `drawInk` would play now: the window stamps a MyPaint
    /// brush's among them with their times first (`stampQueued`).
    public var queuedInkCount: Int {
        var stroke = inkStroke, count = 0
        for event in pending {
            guard let next = ink(event, during: stroke) else { break }
            stroke = next
            count += 1
        }
        return count
    }

    /// The stroke the ink path is drawing, as far as it cares.
    private enum InkStroke { case none, pen, mypaint, other }

    private var inkStroke: InkStroke {
        switch strokes.live {
        case .none: .none
        case .pen: .pen
        case .mypaint: .mypaint
        case .mercurial, .embossing: .other
        }
    }

    /// Whether the ink path may draw `event` while `stroke` is drawn (a sample of a pen-like or
    /// MyPaint stroke, started or going on): the stroke after it if so, else nil.
    private func ink(_ event: SessionEvent, during stroke: InkStroke) -> InkStroke? {
        switch (event, stroke) {
        case (.pointerMove, .pen), (.pointerMove, .mypaint): stroke
        case (.pointerUp, .pen), (.pointerUp, .mypaint): InkStroke.none
        case (.pointerDown, .none): brush.mypaint != nil ? .mypaint : (brush.tip.kind != .mercurial ? .pen : nil)
        default: nil
        }
    }

    /// The stack view brought up to date with the document's changes.
    func syncStack() {
        let (changed, whole) = stack.update(document, background: view.shownBackground ?? document.background, on: compute)
        damage = damage.union(changed)
        if whole { view.windowIsStale = true }
    }

    /// Composes and presents what is stale; returns the window rectangle presented.
    private func present(to presenter: Presenter) -> Rect {
        let window = Rect(size: presenter.size)
        // Nothing shown (a headless replay): the damage, and the document's changes the stack
        // view has not taken yet, wait for a presenter that shows them (or a snapshot).
        guard !window.isEmpty else { return .empty }
        damage = damage.union(strokes.showMyPaint(in: document))
        syncStack()
        stack.viewed = view.transform.canvasRect(shownIn: window)
        damage = damage.union(strokes.redrawTail())
        let regions = view.regions(window: window, canvasDamage: damage, canvas: .plane)
        damage = .empty
        guard !regions.isEmpty else {
            // A frame with nothing to compose rebuilds a band of the caches, if they are stale.
            stack.catchUp(document, on: compute)
            return .empty
        }
        let target = presenter.frameTarget()
        for region in regions {
            compose(region, into: target, transform: view.transform, showingFrame: true)
            view.overlay?.draw(into: target, clip: region)
        }
        for region in regions { presenter.present(region) }
        return regions.reduce(Rect.empty) { $0.union($1) }
    }

    /// What the session shows now (the layers plus the live stroke, with the view filters), as a
    /// new image of the canvas's size: the same bytes the window presents at 100 %, for export
    /// and `quicksilver render`. A predicted tail is the window's alone: the picture has none.
    /// Call `settle()` first.
    public func snapshot() -> Snapshot { snapshot(of: document.frame) }

    /// Composes `region` (of `target`) of what the session shows, seen through `transform` (the
    /// canvas at 100 % in the top-left corner by default), the canvas outside the frame dimmed
    /// when `showingFrame` (the window's). The stack must be in sync.
    public func compose(_ region: Rect, into target: Texture<UInt32>, transform: ViewTransform = .identity, showingFrame: Bool = false) {
        // A turned frame's window rect is only its bounding box: a turned view cuts the frame
        // out of each canvas row instead (`ComposeKernel.Beyond`).
        let turned = showingFrame && transform.isTurned
        let inside = showingFrame && !turned ? region.intersection(transform.windowRect(covering: document.frame)) : region
        stack.complete(document, within: transform.canvasRect(shownIn: inside), on: compute)
        let stroke = strokes.overlay
        var kernel = stack.kernel(document, stroke: stroke, invert: view.invert, output: target, transform: transform)
        if turned {
            kernel.beyond = ComposeKernel.Beyond(kernel: stack.outsideKernel(document, stroke: stroke, output: target, transform: transform),
                                                 frame: document.frame)
        }
        kernel.run(over: inside, on: compute)
        guard showingFrame, !turned else { return }
        for part in region.subtracting(inside) {
            stack.outsideKernel(document, stroke: stroke, output: target, transform: transform).run(over: part, on: compute)
        }
    }
}
