import Compute
import Events
import Geometry
import Kernels
import Strokes

/// The live mercurial stroke: every frame its coalesced samples go to the scaffold kernel in
/// batches of four, then the changed part of the scaffold is blurred (σ 3) and thresholded into
/// the stroke layer's coverage, which the compose kernel shows in the brush colour. The scaffold
/// accumulates for the whole stroke, as in MercurialPaint.
final class MercurialBrush {
    private let kernel: ScaffoldKernel
    private let blur = GaussianBlur(sigma: 3)
    private var scaffold: TextureStorage<UInt8>
    /// The canvas point at the buffers' pixel (0, 0): the frame's corner when the stroke began.
    private(set) var origin = (x: 0, y: 0)
    /// The canvas rectangle its buffers hold, for the whole stroke (the frame, wherever it lies).
    var held: Rect { scaffold.texture.bounds.moved(by: origin.x, origin.y) }
    /// Where the scaffold was written, in canvas coordinates.
    private var scaffoldBounds = Rect.empty
    /// This frame's samples, in order, and the force (pressure) of the newest one.
    private var samples: [(x: Int32, y: Int32)] = []
    private var force = 0.5
    private(set) var brush = Brush()
    private(set) var last = StrokePoint(x: 0, y: 0, pressure: 0.5)

    /// Whether the spray's random numbers are drawn relative to the stroke (`anchor`), so that
    /// a stroke moved by a multiple of 64 px is the same stroke moved (`Session.sprayFromStroke`).
    private let sprayFromStroke: Bool
    /// What the spray's random numbers are drawn relative to: the corner of the 64-px cell the
    /// stroke begins in, or the canvas's (0, 0) (`sprayFromStroke` false).
    private var anchor = (x: 0, y: 0)

    init(size: Size, seed: Int64, sprayFromStroke: Bool) {
        kernel = ScaffoldKernel(seed: seed)
        self.sprayFromStroke = sprayFromStroke
        scaffold = TextureStorage(width: size.width, height: size.height, filledWith: 0)
    }

    /// Batches sent to the scaffold kernel so far (for tests: none may be lost).
    private(set) var batchesRun = 0
    /// Samples sent to the scaffold kernel so far.
    private(set) var samplesRun = 0

    /// A stroke begins at `p`, the buffers' corner at canvas `origin`.
    func begin(_ p: StrokePoint, brush: Brush, origin: (x: Int, y: Int)) {
        self.brush = brush
        self.origin = origin
        add(p)
        // The cell of the first sample as the kernel gets it (the frame size, which places the
        // buffers, has no say: the same stroke sprays the same in any frame).
        let first = Self.sample(p)
        anchor = sprayFromStroke ? (Int(first.x) & ~63, Int(first.y) & ~63) : (0, 0)
    }

    func add(_ p: StrokePoint) {
        last = p
        force = p.pressure
        samples.append(Self.sample(p))
    }

    /// `p` as the scaffold kernel takes it: whole canvas pixels.
    private static func sample(_ p: StrokePoint) -> (x: Int32, y: Int32) {
        (Int32(clamping: Int(p.x.rounded(.down))), Int32(clamping: Int(p.y.rounded(.down))))
    }

    /// Runs this frame's batches and recomputes the live look where the scaffold changed,
    /// writing 0/255 coverage into `mask` (its pixel (0, 0) at `origin`, as the scaffold's).
    /// `clip` and the damaged rectangle returned are in canvas coordinates.
    func runFrame(into mask: Texture<UInt8>, clip: Rect, on compute: ComputeContext) -> Rect {
        guard !samples.isEmpty else { return .empty }
        let radius = Float(Double(brush.tip.size) * force)
        var written = Rect.empty
        var batches = SampleBatch.batches(of: samples)
        // Sessions from before the endless canvas cut a batch at a sample at −1, as
        // MercurialPaint's marker did: their replays still do, to stay exact.
        if !sprayFromStroke { batches = batches.map { SampleBatch(x: $0.x, y: $0.y) } }
        for batch in batches {
            written = written.union(kernel.run(batch, radius: radius, into: scaffold.texture, origin: origin,
                                               anchor: anchor, clip: clip, on: compute))
            batchesRun += 1
        }
        samplesRun += samples.count
        samples.removeAll(keepingCapacity: true)
        guard !written.isEmpty else { return .empty }
        scaffoldBounds = scaffoldBounds.union(written)
        // The blur reaches `radius` pixels: everything that far from a new particle may change.
        let region = written.insetBy(-blur.radius).intersection(clip).moved(by: -origin.x, -origin.y)
        return blur.runThresholded(scaffold.texture, over: region, into: mask, on: compute).moved(by: origin.x, origin.y)
    }

    /// Clears the scaffold for the next stroke.
    func reset() {
        scaffold.texture.fill(scaffoldBounds.moved(by: -origin.x, -origin.y), with: 0)
        scaffoldBounds = .empty
        samples.removeAll()
    }

    /// Grows the buffers with the canvas, keeping the scaffold.
    func grow(to size: Size) {
        let old = scaffold
        scaffold = TextureStorage(width: size.width, height: size.height, filledWith: 0)
        scaffold.texture.copy(old.texture.bounds, from: old.texture)
    }
}
