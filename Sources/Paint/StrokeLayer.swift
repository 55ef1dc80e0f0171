import Compute
import Geometry
import Kernels
import Strokes

/// The live stroke's coverage: a committed mask (segments already final) and a tail mask
/// (redrawn every frame), both canvas-sized, combined with max when composed. Keeping the whole
/// stroke's coverage until it ends is what stops a translucent stroke from darkening where it
/// crosses itself; tracking bounds keeps every frame's work proportional to what changed.
final class StrokeLayer {
    private var committedStorage: TextureStorage<UInt8>
    private var tailStorage: TextureStorage<UInt8>
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

    /// Geometry outside this (the visible canvas) is not drawn.
    var clip: Rect = .empty

    /// Grows the masks to `size`, keeping their content.
    func grow(to size: Size) {
        func grown(_ old: TextureStorage<UInt8>) -> TextureStorage<UInt8> {
            let new = TextureStorage<UInt8>(width: max(size.width, old.width), height: max(size.height, old.height), filledWith: 0)
            new.texture.copy(old.texture.bounds, from: old.texture)
            return new
        }
        committedStorage = grown(committedStorage)
        tailStorage = grown(tailStorage)
    }

    /// Dab shapes shared by every dab of this layer.
    private let stamps = DiscStamps()
    /// The geometry being gathered, kept between calls for its storage.
    private var batch = StrokeSink(clip: .empty)

    /// Has `body` describe geometry (clipped to the visible canvas) and stamps it into the
    /// committed mask; returns the area `body` says it damaged.
    func commit(_ body: (inout StrokeSink) -> Rect) -> Rect {
        let damage = draw(into: committed, body)
        didCommit(damage)
        return damage
    }

    func didCommit(_ damage: Rect) { committedBounds = committedBounds.union(damage) }

    /// Clears the old tail and draws the new one that `body` describes. Returns the area
    /// cleared and the area drawn.
    func redrawTail(_ body: (inout StrokeSink) -> Rect) -> (cleared: Rect, drawn: Rect) {
        let old = tailBounds
        tail.fill(old, with: 0)
        tailBounds = draw(into: tail, body)
        return (old, tailBounds)
    }

    private func draw(into mask: Texture<UInt8>, _ body: (inout StrokeSink) -> Rect) -> Rect {
        // Taken out while in use: `body` then works on a local value, which needs no
        // exclusivity check at run time (a stored property handed to it inout would).
        var local = StrokeSink(clip: clip)
        swap(&local, &batch)
        local.clip = clip
        // Only what `body` adds is drawn. The batch is emptied once it holds a few thousand
        // shapes rather than after every sample: emptying an array costs as much as a stamp.
        let (firstDab, firstSpan) = (local.dabs.count, local.spans.count)
        let damage = body(&local)
        local.dabs.withUnsafeBufferPointer { dabs in
            for d in dabs[firstDab...] { stamps.stamp(mask, x: d.x, y: d.y, radius: d.radius, clip: clip) }
        }
        for i in firstSpan..<local.spans.count {
            let s = local.spans[i]
            Coverage.fillSpan(mask, y: s.y, x0: s.x0, x1: s.x1)
        }
        if local.dabs.count + local.spans.count > 4096 { local.removeAll() }
        swap(&local, &batch)
        return damage
    }

    /// Forgets the stroke: both masks back to zero over their bounds.
    func reset() {
        committed.fill(committedBounds, with: 0)
        tail.fill(tailBounds, with: 0)
        committedBounds = .empty
        tailBounds = .empty
    }

    /// True when the stroke covers any pixel of `rect` (committed or tail).
    func covers(_ rect: Rect) -> Bool {
        let r = rect.intersection(bounds)
        return r.ys.contains { y in
            let c = committed.row(y), t = tail.row(y)
            return r.xs.contains { c[$0] | t[$0] != 0 }
        }
    }

    /// The compose kernel's view of this layer.
    func kernelStroke(color: Color, paints: Bool = true) -> ComposeKernel.Stroke {
        ComposeKernel.Stroke(color: color, committed: committed, tail: tail, bounds: bounds, paints: paints)
    }
}
