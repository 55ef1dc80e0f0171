import Compute
import Geometry

/// Pre-rendered anti-aliased discs, so a stroke's thousands of dabs are byte-wise `max`es
/// (which vectorise) instead of a square root per rim pixel.
///
/// Dab centres are rounded to 1/4 pixel and radii to 1/16 pixel, so each stamp is reused for
/// every dab of that shape; the difference from exact placement is invisible (< 0.13 px). Discs
/// larger than `maxCachedRadius` are drawn directly: their cost is the plain fill inside.
/// One cache per stroke layer; not thread-safe.
public final class DiscStamps {
    public static let maxCachedRadius = 32.0
    /// Bytes of stamps kept; when full, all are dropped and made again as needed. Pressure
    /// changes the radius, and a stroke whose pressure wanders uses a few thousand shapes of
    /// a couple of hundred bytes each.
    static let poolBytes = 4 << 20

    /// A stamp's shape: radius in 1/16 pixel and the centre's quarter-pixel offsets (0…3 each).
    private struct Key { var radius16: Int, fx: Int, fy: Int }
    /// Where a stamp's bytes lie in `pool`: rows of `stride` bytes (the width rounded up to 16,
    /// the rest zeros, so a row is whole 16-byte maxes), offset from the dab's integer pixel.
    /// A side of 0: not made yet.
    private struct Stamp {
        var offset: Int, stride: Int
        var dx: Int, dy: Int, side: Int
    }

    private static let slots = (Int(maxCachedRadius * 16) + 1) * 16
    /// Stamps by shape, a slot per key (an index, not a hash: a lookup per dab is on the hot
    /// path of every stroke and every restore).
    /// This and `pool` are plain memory held by constants: reading them per dab costs neither
    /// reference counting nor an exclusivity check.
    private let stamps: UnsafeMutablePointer<Stamp>
    /// Every stamp's bytes, one after another; pages are touched only as stamps are made.
    private let pool: UnsafeMutablePointer<UInt8>
    private var poolUsed = 0
    /// The last radius stamped, in pixels and in sixteenths.
    private var last = (radius: Double.nan, radius16: 0)

    private static func slot(_ key: Key) -> Int { key.radius16 &* 16 &+ key.fx &* 4 &+ key.fy }

    public init() {
        stamps = .allocate(capacity: Self.slots)
        stamps.initialize(repeating: Stamp(offset: 0, stride: 0, dx: 0, dy: 0, side: 0), count: Self.slots)
        pool = .allocate(capacity: Self.poolBytes)
    }

    deinit {
        stamps.deallocate()
        pool.deallocate()
    }

    /// Stamps a disc of `radius` centred at (x, y) into `mask` (coverage combines with max).
    public func stamp(_ mask: Texture<UInt8>, x: Double, y: Double, radius: Double, clip: Rect) {
        guard radius >= 0, radius <= Self.maxCachedRadius, x.isFinite, y.isFinite, abs(x) < 1e9, abs(y) < 1e9 else {
            Coverage.stampDisc(mask, x: x, y: y, radius: radius, clip: clip)
            return
        }
        let qx = (x * 4).roundedToNearestInt, qy = (y * 4).roundedToNearestInt
        // The whole pixel ⌊q / 4⌋ (an arithmetic shift floors negatives too) and the quarter.
        let ix = qx >> 2, iy = qy >> 2
        // A stroke's dabs mostly share one radius.
        if radius != last.radius { last = (radius, (radius * 16).roundedToNearestInt) }
        let key = Key(radius16: last.radius16, fx: qx & 3, fy: qy & 3)
        let found = stamps[Self.slot(key)]
        let s = found.side > 0 ? found : make(key)
        let area = Rect(x: ix + s.dx, y: iy + s.dy, width: s.side, height: s.side)
        let r = area.intersection(clip).intersection(mask.bounds)
        guard !r.isEmpty else { return }
        let source = pool + s.offset + (r.minX - area.minX)
        // Whole rows inside the clip, with room in the row for the zero padding: 16 bytes at a
        // time (max with the padding's zeros leaves those bytes as they are).
        if r.minX == area.minX, r.maxX == area.maxX, area.minX + s.stride <= mask.width {
            // Pointers stepped row by row: the loop is a handful of instructions a row.
            var from = UnsafeRawPointer(source + (r.minY - area.minY) &* s.stride)
            var to = UnsafeMutableRawPointer(mask.row(r.minY) + r.minX)
            let stride = s.stride, rowStride = mask.rowStride
            // Loaded first, so the max is over two values (one vector instruction), not bytes
            // through pointers that might overlap.
            @inline(__always) func max16(_ i: Int) {
                let a = from.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self)
                var b = to.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self)
                for k in 0..<16 { b[k] = max(a[k], b[k]) }
                to.storeBytes(of: b, toByteOffset: i, as: SIMD16<UInt8>.self)
            }
            if stride == 16 {
                // Discs up to radius 6, most pens: one vector a row, no inner loop.
                for _ in 0..<r.height {
                    max16(0)
                    from += 16
                    to += rowStride
                }
                return
            }
            for _ in 0..<r.height {
                var i = 0
                repeat {
                    max16(i)
                    i &+= 16
                } while i < stride
                from += stride
                to += rowStride
            }
            return
        }
        for y in r.ys {
            let from = source + (y - area.minY) &* s.stride, to = mask.row(y) + r.minX
            for i in 0..<r.width { to[i] = max(to[i], from[i]) }
        }
    }

    private func make(_ key: Key) -> Stamp {
        let radius = Double(key.radius16) / 16
        let cx = Double(key.fx) / 4, cy = Double(key.fy) / 4
        let reach = Int((radius + 1.5).rounded(.up))
        let side = 2 * reach + 1
        let stride = (side + 15) & ~15
        let bytes = stride * side
        if poolUsed + bytes > Self.poolBytes {
            stamps.update(repeating: Stamp(offset: 0, stride: 0, dx: 0, dy: 0, side: 0), count: Self.slots)
            poolUsed = 0
        }
        let target = Texture(base: pool + poolUsed, width: side, height: side, rowStride: stride)
        (pool + poolUsed).initialize(repeating: 0, count: bytes)
        // The disc centred at (reach + cx, reach + cy) in the stamp's own pixels.
        Coverage.stampDisc(target, x: Double(reach) + cx, y: Double(reach) + cy, radius: radius, clip: target.bounds)
        let stamp = Stamp(offset: poolUsed, stride: stride, dx: -reach, dy: -reach, side: side)
        poolUsed += bytes
        stamps[Self.slot(key)] = stamp
        return stamp
    }
}
