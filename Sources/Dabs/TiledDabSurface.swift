import Compute
import Dispatch
import Geometry
import Kernels

/// Quicksilver's dab surface: dabs laid on a layer's 64x64 tiles of 8-bit premultiplied
/// 0xAARRGGBB pixels (`pixels`, the layer's `TiledTexture`), the way libmypaint's tiled surface
/// lays them on its 15-bit tiles.
///
/// A stroke paints into 15-bit working tiles: a layer tile is promoted when the stroke first
/// touches it (to draw, or to read for smudging), and every dab and every colour read of the
/// stroke happens at 15 bits. `endStroke` rounds the tiles the stroke painted back to 8 bits,
/// once, into fresh `Tile`s (the replaced ones are in `lastStroke`, for an undo step). The
/// `precision` chooses otherwise for the measurements (`DabPrecision`).
///
/// Dabs are queued as they come (`DabBatch`) and laid in batches: before a colour is read
/// (`sampleColor` sees every dab drawn before it), when the stroke ends, when anyone reads the
/// surface (`flush`), or at the end of an atomic section once a batch is big enough: on a surface
/// nobody watches (no `strokeTile` yet: a headless render), that one on a queue of its own
/// (`layAhead`) while libmypaint works out the next dabs, everything that reads the surface
/// waiting for it first (and a smaller batch too when that queue is idle); on a watched one, at
/// once, since it is read right after. The damage `endAtomic` returns is exact either way (it is
/// the dabs' bounds). A batch is laid by the dab kernel in 16x16 threadgroups over the tiles its
/// dabs touch, each dab in order, on the workers when it is costly enough to be worth waking
/// them, else on the calling thread. The same dabs give the same bytes for any number of threads
/// and any batching.
///
/// Dabs and colour reads come in the surface's own coordinates, which start at `origin` on the
/// layer (`setOrigin`); damage, `lastStroke` and `strokeTile` speak the layer's.
public final class TiledDabSurface: DabSurface {
    /// The layer's pixels, as they stand after the last stroke ended.
    public private(set) var pixels: TiledTexture
    public let precision: DabPrecision
    private let compute: ComputeContext
    private var working = WorkingTiles()
    /// The dabs drawn and not yet laid.
    private var batch = DabBatch()
    /// The batch being laid on `layQueue` while the brush goes on drawing the next (`layAhead`).
    private var ahead = DabBatch()
    private let laying = DispatchGroup()
    private let layQueue = DispatchQueue(label: "quicksilver.dabs.ahead")
    /// A stroke has been shown live (`strokeTile`): the surface is read after every section, and
    /// a batch laid ahead would only add a thread's wake-up to each.
    private var watched = false
    /// How many batches have gone to be laid ahead (`layAhead`): a figure for tests.
    public private(set) var laidAhead = 0
    /// What the section's dabs changed.
    private var damage = Rect.empty
    /// What the stroke has changed so far.
    public private(set) var strokeDamage = Rect.empty
    /// The last dab colour's reflectance curves (`DabPaint`'s pigment passes).
    private var curves = Spectral.Memo()
    /// The sequence pigment sampling draws from (libmypaint's `rand()`).
    private var random = GlibcRandom()
    /// When the dabs waiting reach this many, or cost this much (in the compute pass's units:
    /// about 175,000 pigment pixels laid in C), they are laid at the end of the atomic section:
    /// big enough batches for the workers, small enough to stay in cache.
    static let batchDabs = 1024
    static let batchCost = 1 << 19
    /// A batch this big or bigger is laid ahead as soon as the queue is idle: what remains at a
    /// stroke's end is laid on the calling thread after the last dab (a tenth of a short
    /// render's time when only full batches went ahead). A busy queue still gets full batches:
    /// smaller ones (64 dabs) slowed brushes whose dabs are costly, the lay being their limit.
    static let idleDabs = 256

    /// The tiles the last stroke changed, with what each held before (nil: no tile).
    public private(set) var lastStroke: [(key: TileKey, before: Tile?)] = []

    public init(pixels: TiledTexture = TiledTexture(), compute: ComputeContext, precision: DabPrecision = .perStroke) {
        self.pixels = pixels
        self.compute = compute
        self.precision = precision
    }

    deinit { working.deallocate() }

    // MARK: DabSurface

    public func beginAtomic() {}

    /// Dabs beyond this distance from the surface's origin, or not finite, are dropped.
    static let reach: Float = 1e8

    @discardableResult public func draw(_ dab: Dab) -> Bool {
        let opaque = min(max(dab.opaque, 0), 1), hardness = min(max(dab.hardness, 0), 1)
        guard dab.radius >= 0.1, hardness != 0, opaque != 0 else { return false }
        guard dab.x.isFinite, dab.y.isFinite, dab.radius.isFinite, abs(dab.x) < Self.reach, abs(dab.y) < Self.reach,
              dab.radius < 10_000 else { return false }
        let mask = DabMask(x: dab.x, y: dab.y, radius: dab.radius, hardness: hardness, aspectRatio: dab.aspectRatio,
                           angle: dab.angle.isFinite ? dab.angle : 0)
        let paint = DabPaint(r: dab.r, g: dab.g, b: dab.b, opaque: opaque, alphaEraser: dab.alphaEraser, lockAlpha: dab.lockAlpha,
                             colorize: dab.colorize, posterize: dab.posterize, posterizeLevels: dab.posterizeLevels, paint: dab.paint,
                             curves: &curves)
        let b = mask.bounds, o = origin
        let rect = Rect(minX: b.minX &+ o.x, minY: b.minY &+ o.y, maxX: b.maxX &+ o.x, maxY: b.maxY &+ o.y)
        damage = damage.union(rect)
        if paint.paints { batch.append(DabStamp(mask: mask, paint: paint)) }
        return true
    }

    public func sampleColor(x: Float, y: Float, radius: Float, paint: Float) -> SampledColor {
        flush()
        guard x.isFinite, y.isFinite, abs(x) < Self.reach, abs(y) < Self.reach, radius.isFinite, radius < 10_000 else {
            return SampledColor(r: 0, g: 1, b: 0, a: 0)
        }
        var random = self.random
        defer { self.random = random }
        return DabSampler.sample(x: x, y: y, radius: radius, paint: paint, random: &random) { tx, ty in
            let key = TileKey(x: tx, y: ty)
            if let t = working[key] { return UnsafePointer(t.values) }
            guard pixels[working.layerKey(key)] != nil else { return UnsafePointer(working.empty) }
            return UnsafePointer(working.promote(key, from: pixels).values)
        }
    }

    public func endAtomic() -> Rect {
        let full = batch.count >= Self.batchDabs || batch.cost >= Self.batchCost
        if watched {
            if full { flush() }
        } else if full || (batch.count >= Self.idleDabs && laying.wait(timeout: .now()) == .success) {
            layAhead()
        }
        let d = damage
        damage = .empty
        strokeDamage = strokeDamage.union(d)
        return d
    }

    public func endStroke() {
        flush()
        lastStroke = []
        strokeDamage = .empty
        guard precision != .fifteenBit else { return }
        for (key, t) in working.tiles.sorted(by: { $0.key < $1.key }) where t.changed {
            let tile = Tile.unset()
            t.store(into: tile)
            let key = working.layerKey(key)
            lastStroke.append((key, pixels[key]))
            let blank = UnsafeBufferPointer(start: tile.texture.base, count: 64 * 64).allSatisfy { $0 == 0 }
            pixels[key] = blank ? nil : tile
        }
        working.removeAll()
    }

    /// Paints from now on over `pixels` (a layer's, as they stand now): what was painted before
    /// is dropped, but for the strokes that ended (which are in `pixels` if they are the layer's).
    public func paint(over pixels: TiledTexture) {
        laying.wait()
        batch.lay(on: &working, from: self.pixels, compute: compute, roundTo8Bits: precision == .eightBit)
        working.removeAll()
        damage = .empty
        strokeDamage = .empty
        lastStroke = []
        self.pixels = pixels
    }

    /// The open stroke's tile at `key` as it would be if the stroke ended now (rounded to 8
    /// bits, in a new tile); nil where the stroke has not painted. For showing a stroke live.
    public func strokeTile(_ key: TileKey) -> Tile? {
        watched = true
        flush()
        guard let t = working[working.localKey(key)], t.changed else { return nil }
        let tile = Tile.unset()
        t.store(into: tile)
        return tile
    }

    /// Where the surface's (0, 0) lies on the layer, in pixels (multiples of 64).
    public var origin: (x: Int, y: Int) { (working.origin.x << 6, working.origin.y << 6) }

    /// Dabs and colour reads from now on are at `x`, `y` (rounded down to multiples of 64) plus
    /// their own position: what was drawn before stays where it was drawn.
    public func setOrigin(x: Int, y: Int) {
        flush()
        working.move(origin: TileKey(containing: x, y))
    }

    // MARK: laying the dabs

    /// Lays every dab drawn so far. Reading the surface (`sampleColor`, `overWhite`, `endStroke`)
    /// does it first; a caller that reads the working tiles itself calls it.
    public func flush() {
        laying.wait()
        batch.lay(on: &working, from: pixels, compute: compute, roundTo8Bits: precision == .eightBit)
    }

    /// Hands the batch to `layQueue`, to be laid while the caller goes on (libmypaint working
    /// out the next dabs): the one before is laid first.
    private func layAhead() {
        laying.wait()
        laidAhead += 1
        swap(&batch, &ahead)
        let job = Ahead(surface: self)
        layQueue.async(group: laying) { job.surface.layAheadBatch() }
    }

    private func layAheadBatch() {
        ahead.lay(on: &working, from: pixels, compute: compute, roundTo8Bits: precision == .eightBit)
    }

    // MARK: reading

    /// The pixels of `rect` composited over white, 8-bit RGB, row by row: from the working tiles
    /// at 15 bits where a stroke is open (or the precision keeps them), else from the layer.
    public func overWhite(_ rect: Rect) -> [UInt8] {
        flush()
        var out = [UInt8](repeating: 255, count: rect.area * 3)
        var i = 0
        for y in rect.ys {
            for x in rect.xs {
                if let t = working[working.localKey(TileKey(containing: x, y))] {
                    let p = t.values + ((y & 63) &* 64 &+ (x & 63)) &* 4
                    let a = UInt32(min(p[3], 32768))
                    for c in 0..<3 { out[i + c] = UInt8(Fix15.to8(UInt16(min(UInt32(p[c]) + 32768 - a, 32768)))) }
                } else {
                    let p = pixels[x, y]
                    let a = p >> 24
                    out[i] = UInt8(((p >> 16) & 0xff) + 255 - a)
                    out[i + 1] = UInt8(((p >> 8) & 0xff) + 255 - a)
                    out[i + 2] = UInt8((p & 0xff) + 255 - a)
                }
                i += 3
            }
        }
        return out
    }
}

/// The surface, handed to `layQueue`: the thread that owns it touches the working tiles and the
/// batch being laid only after `laying` says the lay is done.
private struct Ahead: @unchecked Sendable {
    let surface: TiledDabSurface
}
