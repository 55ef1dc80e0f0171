import Compute
import Kernels
import Strokes

/// The live stroke's coverage: a committed mask (segments already final) and a tail mask
/// (redrawn every frame), both canvas-sized, combined with max when composed. Keeping the whole
/// stroke's coverage until it ends is what stops a translucent stroke from darkening where it
/// crosses itself; tracking bounds keeps every frame's work proportional to what changed.
final class StrokeLayer {
    private let committedStorage: TextureStorage<UInt8>
    private let tailStorage: TextureStorage<UInt8>
    var committed: Texture<UInt8> { committedStorage.texture }
    var tail: Texture<UInt8> { tailStorage.texture }
    /// Where the committed mask may be non-zero.
    private(set) var committedBounds = Rect.empty
    /// Where the tail mask may be non-zero.
    private(set) var tailBounds = Rect.empty

    init(size: Size) {
        committedStorage = TextureStorage(width: size.width, height: size.height, filledWith: 0)
        tailStorage = TextureStorage(width: size.width, height: size.height, filledWith: 0)
    }

    var bounds: Rect { committedBounds.union(tailBounds) }

    /// A sink that stamps into the committed mask.
    func committedSink() -> MaskSink { MaskSink(mask: committed) }

    func didCommit(_ damage: Rect) { committedBounds = committedBounds.union(damage) }

    /// Clears the old tail and returns a sink for the new one; the caller reports its damage.
    func beginTail() -> (sink: MaskSink, cleared: Rect) {
        let old = tailBounds
        tail.fill(old, with: 0)
        tailBounds = .empty
        return (MaskSink(mask: tail), old)
    }

    func didDrawTail(_ damage: Rect) { tailBounds = damage }

    /// Forgets the stroke: both masks back to zero over their bounds.
    func reset() {
        committed.fill(committedBounds, with: 0)
        tail.fill(tailBounds, with: 0)
        committedBounds = .empty
        tailBounds = .empty
    }

    /// The compose kernel's view of this layer.
    func kernelStroke(color: Color) -> ComposeKernel.Stroke {
        ComposeKernel.Stroke(color: color, committed: committed, tail: tail, bounds: bounds)
    }
}

/// The `StrokeSink` that rasterises dabs and spans into a coverage mask.
struct MaskSink: StrokeSink {
    let mask: Texture<UInt8>
    var clip: Rect { mask.bounds }
    mutating func dab(x: Double, y: Double, radius: Double) {
        Coverage.stampDisc(mask, x: x, y: y, radius: radius, clip: clip)
    }
    mutating func span(y: Int, x0: Int, x1: Int) { Coverage.fillSpan(mask, y: y, x0: x0, x1: x1) }
}
