import Geometry

/// One dab ready to lay: its shape (`DabMask`) and what it does to each pixel (`DabPaint`).
public struct DabStamp: Sendable {
    public var mask: DabMask
    public var paint: DabPaint
    public init(mask: DabMask, paint: DabPaint) { self.mask = mask; self.paint = paint }
}

/// Lays a batch of dabs, in order, on the pixels of one threadgroup: the dab kernel.
///
/// Pixels are 15-bit premultiplied RGBA (four `UInt16`s, 1.0 = 1<<15) in 64x64 tiles, the
/// layout libmypaint's tiled surface paints. A threadgroup is a 16x16 block aligned to 16, so it
/// lies within one tile; each dab meeting it computes its mask over the pixels they share and
/// lays its passes there, the dabs in the batch's order. Every pixel's result depends only on the
/// batch, never on the threadgroups' size or order, so any number of threads gives the same bytes.
public enum DabKernel {
    /// 15-bit values a tile holds: 64 · 64 pixels of four channels.
    public static let tileValues = 64 * 64 * 4

    /// Lays `stamps` on `group` (canvas pixels, within tile (tileX, tileY)) of `tile`.
    /// With `roundTo8Bits`, each pixel a dab touches is rounded to the nearest value 8 bits hold
    /// after that dab: what blending straight into 8-bit tiles gives.
    @inline(__always)
    public static func paint(_ stamps: UnsafeBufferPointer<DabStamp>, group: Rect, tile: UnsafeMutablePointer<UInt16>,
                             tileX: Int, tileY: Int, roundTo8Bits: Bool = false) {
        let gx0 = group.minX &- tileX &* 64, gy0 = group.minY &- tileY &* 64
        let gx1 = group.maxX &- 1 &- tileX &* 64, gy1 = group.maxY &- 1 &- tileY &* 64
        for s in stamps {
            let (lx, ly) = s.mask.local(tileX: tileX, tileY: tileY)
            let range = s.mask.tileRange(localX: lx, localY: ly)
            let x0 = max(range.x0, gx0), x1 = min(range.x1, gx1)
            let y0 = max(range.y0, gy0), y1 = min(range.y1, gy1)
            guard x0 <= x1, y0 <= y1 else { continue }
            for yp in y0...y1 {
                let row = tile + yp &* 256
                for xp in x0...x1 {
                    let m = s.mask.opacity(xp: xp, yp: yp, localX: lx, localY: ly)
                    guard m != 0 else { continue }
                    let p = row + xp &* 4
                    s.paint.apply(mask: m, to: p)
                    if roundTo8Bits { Fix15.roundTo8Bits(p) }
                }
            }
        }
    }
}

/// Conversions between 8-bit and 15-bit channel values (1.0 = 255 and 1<<15), both rounded to
/// nearest: 8 → 15 → 8 gives back every 8-bit value.
public enum Fix15 {
    @inline(__always) public static func from8(_ v: UInt32) -> UInt16 { UInt16(truncatingIfNeeded: (v &* 32768 &+ 127) / 255) }
    @inline(__always) public static func to8(_ v: UInt16) -> UInt32 { (UInt32(v) &* 255 &+ 16384) >> 15 }

    /// Rounds a 15-bit pixel's channels to the values 8 bits can hold.
    @inline(__always) public static func roundTo8Bits(_ p: UnsafeMutablePointer<UInt16>) {
        for c in 0..<4 { p[c] = from8(to8(p[c])) }
    }

    /// A 0xAARRGGBB pixel (premultiplied) as four 15-bit values r, g, b, a.
    @inline(__always) public static func expand(_ pixel: UInt32, into p: UnsafeMutablePointer<UInt16>) {
        p[0] = from8((pixel >> 16) & 0xff)
        p[1] = from8((pixel >> 8) & 0xff)
        p[2] = from8(pixel & 0xff)
        p[3] = from8(pixel >> 24)
    }

    /// Four 15-bit values r, g, b, a as a 0xAARRGGBB pixel (channels above 1.0 clamped).
    @inline(__always) public static func pack(_ p: UnsafePointer<UInt16>) -> UInt32 {
        @inline(__always) func c(_ v: UInt16) -> UInt32 { min(to8(v), 255) }
        let a = c(p[3])
        return a << 24 | min(c(p[0]), a) << 16 | min(c(p[1]), a) << 8 | min(c(p[2]), a)
    }
}
