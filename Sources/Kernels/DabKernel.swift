import CVector
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
        for s in stamps { paint(s, group: group, tile: tile, tileX: tileX, tileY: tileY, roundTo8Bits: roundTo8Bits) }
    }

    /// Lays the stamps `indices` names, in that order.
    @inline(__always)
    public static func paint(_ stamps: UnsafePointer<DabStamp>, indices: UnsafeBufferPointer<Int32>, group: Rect,
                             tile: UnsafeMutablePointer<UInt16>, tileX: Int, tileY: Int, roundTo8Bits: Bool = false) {
        for i in indices { paint(stamps[Int(i)], group: group, tile: tile, tileX: tileX, tileY: tileY, roundTo8Bits: roundTo8Bits) }
    }

    /// The widest vectors the dab rows have here (`qs_vector_bits()`): 256 and up lays plain and
    /// pigment dabs eight pixels at a time in AVX2 (CVector's DabRows.c), 0 keeps to Swift's lanes.
    public static let vectorBits = Int(qs_vector_bits())

    /// Lays one dab on `group`'s pixels of `tile`, with vectors up to `vectorBits` wide (less to
    /// compare the paths: the bytes are the same).
    @inline(__always)
    public static func paint(_ s: DabStamp, group: Rect, tile: UnsafeMutablePointer<UInt16>, tileX: Int, tileY: Int,
                             roundTo8Bits: Bool = false, vectorBits: Int = vectorBits) {
        let gx0 = group.minX &- tileX &* 64, gy0 = group.minY &- tileY &* 64
        let gx1 = group.maxX &- 1 &- tileX &* 64, gy1 = group.maxY &- 1 &- tileY &* 64
        let (lx, ly) = s.mask.local(tileX: tileX, tileY: tileY)
        let range = s.mask.tileRange(localX: lx, localY: ly)
        let x0 = max(range.x0, gx0), x1 = min(range.x1, gx1)
        let y0 = max(range.y0, gy0), y1 = min(range.y1, gy1)
        guard x0 <= x1, y0 <= y1 else { return }
        /// Each pixel of the dab's part of the group with its opacity, when not 0; where the mask
        /// is not anti-aliased, four pixels' opacities at a time (`lanes` given those four), and
        /// only the columns of each row it may lay anything on (`qs_dab_columns`).
        @inline(__always) func each(_ body: (UInt32, UnsafeMutablePointer<UInt16>) -> Void,
                                    lanes: ((SIMD4<UInt32>, UnsafeMutablePointer<UInt16>) -> Void)? = nil) {
            var vm = DabRows.vectorMask(s.mask, lx: lx, ly: ly)
            var first: Int32 = 0, last: Int32 = 0
            for yp in y0...y1 {
                var x0 = x0, x1 = x1
                if !s.mask.antialiased {
                    guard qs_dab_columns(&vm, Int32(yp), Int32(x0), Int32(x1), &first, &last) != 0 else { continue }
                    (x0, x1) = (Int(first), Int(last))
                }
                let row = tile + yp &* 256
                var xp = x0
                if lanes != nil || !s.mask.antialiased {
                    while xp &+ 3 <= x1 {
                        let m = s.mask.antialiased
                            ? SIMD4(s.mask.opacity(xp: xp, yp: yp, localX: lx, localY: ly),
                                    s.mask.opacity(xp: xp &+ 1, yp: yp, localX: lx, localY: ly),
                                    s.mask.opacity(xp: xp &+ 2, yp: yp, localX: lx, localY: ly),
                                    s.mask.opacity(xp: xp &+ 3, yp: yp, localX: lx, localY: ly))
                            : DabRows.opacities(s.mask, x: xp, y: yp, lx: lx, ly: ly)
                        if any(m .!= 0) {
                            if let lanes {
                                lanes(m, row + xp &* 4)
                            } else {
                                for i in 0..<4 where m[i] != 0 { body(m[i], row + (xp &+ i) &* 4) }
                            }
                        }
                        xp &+= 4
                    }
                }
                while xp <= x1 {
                    let m = s.mask.opacity(xp: xp, yp: yp, localX: lx, localY: ly)
                    if m != 0 { body(m, row + xp &* 4) }
                    xp &+= 1
                }
            }
        }
        if roundTo8Bits {
            each { m, p in
                s.paint.apply(mask: m, to: p)
                Fix15.roundTo8Bits(p)
            }
            return
        }
        // Eight pixels at a time in C where the processor allows.
        if laidInC(s.paint, vectorBits: vectorBits) {
            var dab = DabRows.vectorDab(s, lx: lx, ly: ly)
            if qs_dab_rows(&dab, tile, Int32(x0), Int32(y0), Int32(x1), Int32(y1), Int32(vectorBits)) != 0 { return }
        }
        let body: (UInt32, UnsafeMutablePointer<UInt16>) -> Void
        switch s.paint.kind {
        case .normal: body = { m, p in s.paint.applyNormal(mask: m, to: p) }
        case .normalAndEraser: body = { m, p in s.paint.applyNormalAndEraser(mask: m, to: p) }
        case .pigment: body = { m, p in s.paint.applyPigment(mask: m, to: p) }
        case .general: body = { m, p in s.paint.apply(mask: m, to: p) }
        }
        if s.paint.kind == .pigment {
            each(body, lanes: { m, p in DabRows.pigment(s.paint, mask: m, at: p) })
        } else {
            each(body)
        }
    }

    /// Whether a dab of this paint is laid in C (DabRows.c), vectors of `vectorBits` allowed.
    @inline(__always) static func laidInC(_ paint: DabPaint, vectorBits: Int = vectorBits) -> Bool {
        vectorBits >= 256 && paint.passesInC
    }

    /// How much laying one pixel of this dab costs, in the compute pass's units (a composed
    /// pixel's worth): what decides whether a batch is worth waking the workers for. Laid in C
    /// (DabRows.c), a pixel costs about an eighth of what it costs in Swift (measured over the
    /// stock brushes: docs/performance.md).
    @inline(__always) public static func cost(of paint: DabPaint) -> Int {
        let inC = laidInC(paint)
        switch paint.kind {
        case .normal, .normalAndEraser: return inC ? 1 : 4
        case .pigment, .general: return inC ? 3 : 24
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

    /// `count` pixels of four 15-bit values each packed into `dst` (eight at a time in C where
    /// the processor allows, with the same bytes as `pack`).
    @inline(__always)
    public static func pack(_ values: UnsafePointer<UInt16>, into dst: UnsafeMutablePointer<UInt32>, count: Int,
                            vectorBits: Int = DabKernel.vectorBits) {
        var i = Int(qs_pack15(values, dst, Int32(count), Int32(vectorBits)))
        while i < count {
            dst[i] = pack(values + i &* 4)
            i &+= 1
        }
    }

    /// Four 15-bit values r, g, b, a as a 0xAARRGGBB pixel (channels above 1.0 clamped).
    @inline(__always) public static func pack(_ p: UnsafePointer<UInt16>) -> UInt32 {
        @inline(__always) func c(_ v: UInt16) -> UInt32 { min(to8(v), 255) }
        let a = c(p[3])
        return a << 24 | min(c(p[0]), a) << 16 | min(c(p[1]), a) << 8 | min(c(p[2]), a)
    }
}
