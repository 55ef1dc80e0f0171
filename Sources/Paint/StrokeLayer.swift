import Compute
import Geometry
import Kernels
import Strokes

/// The live stroke's coverage: a committed mask (segments already final) and a tail mask
/// (redrawn every frame), combined with max when composed. Both are tiled without edges
/// (`TiledMask`): a stroke anywhere costs the tiles it crosses, wherever they are. Keeping the
/// whole stroke's coverage until it ends is what stops a translucent stroke from darkening
/// where it crosses itself; tracking bounds keeps every frame's work proportional to what
/// changed.
///
/// Each dab and span is drawn tile by tile in the tile's own coordinates (the canvas ones less
/// the tile's corner, a multiple of 64, so exactly): a stroke moved by a multiple of 64 pixels
/// gives the same coverage, moved.
final class StrokeLayer {
    private(set) var committed = TiledMask()
    private(set) var tail = TiledMask()
    /// Where the committed mask may be non-zero.
    private(set) var committedBounds = Rect.empty
    /// Where the tail mask may be non-zero.
    private(set) var tailBounds = Rect.empty
    /// The mercurial brush's mask: it sprays, blurs and embosses a dense image, the frame's
    /// size, which `absorbFrameMask` copies into the committed tiles.
    private var frameStorage: TextureStorage<UInt8>?

    init() {}

    var bounds: Rect { committedBounds.union(tailBounds) }

    /// Where the stroke itself draws (its builder's clip: `StrokeEngine.reach(of:)`, the
    /// whole plane by default). Its mirror copies land wherever they map to on the plane, so
    /// the masks take anything on it.
    var clip: Rect = .plane

    /// The dense mask the mercurial brush draws into, `size` at least (made on first use).
    func frameMask(size: Size) -> Texture<UInt8> {
        if let f = frameStorage, f.width >= size.width, f.height >= size.height { return f.texture }
        let new = TextureStorage<UInt8>(width: max(size.width, frameStorage?.width ?? 0), height: max(size.height, frameStorage?.height ?? 0), filledWith: 0)
        if let old = frameStorage { new.texture.copy(old.texture.bounds, from: old.texture) }
        frameStorage = new
        return new.texture
    }

    /// The canvas point at the frame mask's pixel (0, 0) (the mercurial brush's `origin`).
    var frameOrigin = (x: 0, y: 0)

    /// Copies `damage` (canvas) of the frame mask into the committed tiles (the mercurial brush
    /// drew it).
    func absorbFrameMask(_ damage: Rect) {
        guard let frame = frameStorage?.texture else { return }
        let (ox, oy) = frameOrigin
        let r = damage.intersection(frame.bounds.moved(by: ox, oy))
        for key in TileKey.covering(r) {
            let part = key.rect.intersection(r)
            let tile = committed.writableTile(key, rows: (part.minY & 63)..<(part.minY & 63) + part.height)
            for y in part.ys {
                (tile.texture.row(y & 63) + (part.minX & 63)).update(from: frame.row(y - oy) + part.minX - ox, count: part.width)
            }
        }
        didCommit(r)
    }

    /// Dab shapes shared by every dab of this layer.
    private let stamps = DiscStamps()
    /// The geometry being gathered, kept between calls for its storage.
    private var batch = StrokeSink(clip: .empty)

    /// Has `body` describe geometry and stamps it into the committed mask; returns the area
    /// `body` says it damaged.
    func commit(_ body: (inout StrokeSink) -> Rect) -> Rect {
        var mask = TiledMask()
        swap(&mask, &committed)
        let damage = draw(into: &mask, body)
        swap(&mask, &committed)
        didCommit(damage)
        return damage
    }

    func didCommit(_ damage: Rect) { committedBounds = committedBounds.union(damage) }

    /// Clears the old tail and draws the new one that `body` describes. Returns the area
    /// cleared and the area drawn.
    func redrawTail(_ body: (inout StrokeSink) -> Rect) -> (cleared: Rect, drawn: Rect) {
        let old = tailBounds
        // The tiles stay, zeroed: the next tail mostly lands in them again.
        for key in tail.keys(in: old) {
            let r = key.rect.intersection(old)
            tail[key]?.texture.fill(Rect(x: r.minX & 63, y: r.minY & 63, width: r.width, height: r.height), with: 0)
        }
        var mask = TiledMask()
        swap(&mask, &tail)
        tailBounds = draw(into: &mask, body)
        swap(&mask, &tail)
        return (old, tailBounds)
    }

    private func draw(into mask: inout TiledMask, _ body: (inout StrokeSink) -> Rect) -> Rect {
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
            for d in dabs[firstDab...] { stamp(d, into: &mask) }
        }
        for i in firstSpan..<local.spans.count {
            let s = local.spans[i]
            let xs = max(s.x0, Rect.plane.minX)..<min(s.x1, Rect.plane.maxX)
            guard !xs.isEmpty, s.y >= Rect.plane.minY, s.y < Rect.plane.maxY else { continue }
            var x = xs.lowerBound
            while x < xs.upperBound {
                let key = TileKey(containing: x, s.y), end = min(xs.upperBound, (key.x + 1) << 6)
                let origin = key.x << 6
                Coverage.fillSpan(mask.writableTile(key, rows: (s.y & 63)..<(s.y & 63) + 1).texture, y: s.y & 63, x0: x - origin, x1: end - origin)
                x = end
            }
        }
        if local.dabs.count + local.spans.count > 4096 { local.removeAll() }
        swap(&local, &batch)
        return damage
    }

    /// One dab, drawn into each tile it reaches in the tile's own coordinates.
    private func stamp(_ d: StrokeSink.Dab, into mask: inout TiledMask) {
        guard d.x.isFinite, d.y.isFinite, d.radius.isFinite, abs(d.x) < 1e15, abs(d.y) < 1e15 else { return }
        let reach = d.radius + 3
        let area = Rect.covering(minX: d.x - reach, minY: d.y - reach, maxX: d.x + reach, maxY: d.y + reach).intersection(.plane)
        guard !area.isEmpty else { return }
        for ty in (area.minY >> 6)...((area.maxY - 1) >> 6) {
            for tx in (area.minX >> 6)...((area.maxX - 1) >> 6) {
                let key = TileKey(x: tx, y: ty), corner = key.rect
                let local = area.intersection(corner), top = local.minY - corner.minY
                // The stamp writes inside its clip only: those rows are the ones marked.
                stamps.stamp(mask.writableTile(key, rows: top..<top + local.height).texture, x: d.x - Double(corner.minX), y: d.y - Double(corner.minY),
                             radius: d.radius, clip: Rect(x: local.minX - corner.minX, y: top, width: local.width, height: local.height))
            }
        }
    }

    /// Forgets the stroke: both masks empty.
    func reset() {
        if let frame = frameStorage?.texture { frame.fill(committedBounds.moved(by: -frameOrigin.x, -frameOrigin.y), with: 0) }
        committed = TiledMask()
        tail = TiledMask()
        committedBounds = .empty
        tailBounds = .empty
    }

    /// The tiles either mask holds, in order: where the stroke may cover anything.
    var tileKeys: [TileKey] { Set(committed.keys + tail.keys).sorted() }

    /// True when the stroke covers any pixel of `rect` (committed or tail).
    func covers(_ rect: Rect) -> Bool {
        let r = rect.intersection(bounds)
        return r.ys.contains { y in
            var c = committed.reader(row: y), t = tail.reader(row: y)
            if c.isEmpty, t.isEmpty { return false }
            return ((r.minX >> 6)...((r.maxX - 1) >> 6)).contains { tx in
                let cp = c.pointerIfSet(column: tx), tp = t.pointerIfSet(column: tx)
                guard cp != nil || tp != nil else { return false }
                return r.xs.clamped(to: (tx << 6)..<((tx + 1) << 6)).contains { x in (cp?[x & 63] ?? 0) | (tp?[x & 63] ?? 0) != 0 }
            }
        }
    }

    /// The compose kernel's view of this layer.
    func kernelStroke(color: Color, paints: Bool = true) -> ComposeKernel.Stroke {
        ComposeKernel.Stroke(color: color, committed: committed, tail: tail, bounds: bounds, paints: paints)
    }
}
