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
    private static let maxEntries = 512

    /// A stamp's shape: radius in 1/16 pixel and the centre's quarter-pixel offsets (0…3 each).
    private struct Key { var radius16: Int, fx: Int, fy: Int }
    private struct Stamp {
        /// Offset of the stamp's top-left pixel from the dab's integer pixel.
        var dx: Int, dy: Int, width: Int, height: Int
        var bytes: [UInt8]
    }

    /// Stamps by shape, a slot per key (an index, not a hash: a lookup per dab is on the hot
    /// path of every stroke and every restore).
    private var stamps = [Stamp?](repeating: nil, count: (Int(maxCachedRadius * 16) + 1) * 16)
    private var cached = 0

    private static func slot(_ key: Key) -> Int { key.radius16 &* 16 &+ key.fx &* 4 &+ key.fy }

    public init() {}

    /// Stamps a disc of `radius` centred at (x, y) into `mask` (coverage combines with max).
    public func stamp(_ mask: Texture<UInt8>, x: Double, y: Double, radius: Double, clip: Rect) {
        guard radius >= 0, radius <= Self.maxCachedRadius, x.isFinite, y.isFinite, abs(x) < 1e9, abs(y) < 1e9 else {
            Coverage.stampDisc(mask, x: x, y: y, radius: radius, clip: clip)
            return
        }
        let qx = (x * 4).rounded(), qy = (y * 4).rounded()
        let ix = Int((qx / 4).rounded(.down)), iy = Int((qy / 4).rounded(.down))
        let key = Key(radius16: Int((radius * 16).rounded()), fx: Int(qx) - ix * 4, fy: Int(qy) - iy * 4)
        let s = stamps[Self.slot(key)] ?? make(key)
        let area = Rect(x: ix + s.dx, y: iy + s.dy, width: s.width, height: s.height)
        let r = area.intersection(clip).intersection(mask.bounds)
        guard !r.isEmpty else { return }
        s.bytes.withUnsafeBufferPointer { src in
            for y in r.ys {
                let from = src.baseAddress! + (y - area.minY) * s.width + (r.minX - area.minX)
                let to = mask.row(y) + r.minX
                for i in 0..<r.width { to[i] = max(to[i], from[i]) }
            }
        }
    }

    private func make(_ key: Key) -> Stamp {
        if cached >= Self.maxEntries {
            for i in stamps.indices { stamps[i] = nil }
            cached = 0
        }
        let radius = Double(key.radius16) / 16
        let cx = Double(key.fx) / 4, cy = Double(key.fy) / 4
        let reach = Int((radius + 1.5).rounded(.up))
        let side = 2 * reach + 1
        let storage = TextureStorage<UInt8>(width: side, height: side, filledWith: 0)
        // The disc centred at (reach + cx, reach + cy) in the stamp's own pixels.
        Coverage.stampDisc(storage.texture, x: Double(reach) + cx, y: Double(reach) + cy, radius: radius, clip: storage.texture.bounds)
        let stamp = Stamp(dx: -reach, dy: -reach, width: side, height: side, bytes: storage.pixels)
        stamps[Self.slot(key)] = stamp
        cached += 1
        return stamp
    }
}
