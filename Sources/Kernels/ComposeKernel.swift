import Compute

/// The colour-buffer-to-image kernel (the aptpod demo's `computeTexture2d`), made to compose.
///
/// Output pixel = canvas pixel with the live stroke (colour × max(committed, tail) coverage)
/// blended over it. Rows with no stroke coverage are straight copies. Run it over the damaged
/// region only; run it with `output` = `canvas` to bake a finished stroke into the canvas.
public struct ComposeKernel: Sendable {
    public var canvas: Texture<UInt32>
    public var output: Texture<UInt32>
    /// The live stroke: its colour, coverage masks (canvas-sized) and where they may be non-zero.
    public var stroke: Stroke?

    public struct Stroke: Sendable {
        public var color: Color
        public var committed: Texture<UInt8>
        public var tail: Texture<UInt8>
        public var bounds: Rect
        public init(color: Color, committed: Texture<UInt8>, tail: Texture<UInt8>, bounds: Rect) {
            self.color = color; self.committed = committed; self.tail = tail; self.bounds = bounds
        }
    }

    public init(canvas: Texture<UInt32>, output: Texture<UInt32>, stroke: Stroke?) {
        self.canvas = canvas; self.output = output; self.stroke = stroke
    }

    /// Compose streams memory row by row, so its threadgroups are wide: 256x16 keeps each
    /// group's rows on whole cache lines (no two workers write one line) and spreads the
    /// per-row set-up over 256 pixels instead of 16.
    public static let threadsPerThreadgroup = Size(width: 256, height: 16)

    /// Composes `region` (clipped to the canvas and the output) across the compute context.
    public func run(over region: Rect, on compute: ComputeContext) {
        let r = region.intersection(canvas.bounds).intersection(output.bounds)
        let tg = Self.threadsPerThreadgroup
        compute.dispatchThreadgroups(ComputeContext.threadgroups(covering: r.size, threadsPerThreadgroup: tg),
                                     threadsPerThreadgroup: tg, grid: r) { group in self.execute(group) }
    }

    /// One threadgroup: `group.threadPositions` is already cut to the grid.
    public func execute(_ group: Threadgroup) {
        let g = group.threadPositions
        let blended = stroke.map { g.intersection($0.bounds) } ?? .empty
        for y in g.ys {
            let src = canvas.row(y), dst = output.row(y)
            if let stroke, y >= blended.minY, y < blended.maxY {
                if src != dst {
                    (dst + g.minX).update(from: src + g.minX, count: blended.minX - g.minX)
                    (dst + blended.maxX).update(from: src + blended.maxX, count: g.maxX - blended.maxX)
                }
                Self.blendRow(src: src, dst: dst, committed: stroke.committed.row(y), tail: stroke.tail.row(y),
                              xs: blended.xs, color: stroke.color)
            } else if src != dst {
                (dst + g.minX).update(from: src + g.minX, count: g.width)
            }
        }
    }

    /// Blends one row, eight pixels at a time, without unpacking pixels into channels: masking
    /// 0xAARRGGBB with 0x00FF00FF leaves B and R in the two 16-bit halves of each pixel, and
    /// shifting first leaves G and A, so one 16-bit `mul255` handles two channels. 16-bit lanes
    /// suffice (x·y + 128 < 2¹⁶) and 16-bit multiplies exist on every x86-64 (SSE2), where
    /// 32-bit ones do not. The colour's alpha lane is 255, so the result stays opaque.
    @inline(__always)
    static func blendRow(src: UnsafeMutablePointer<UInt32>, dst: UnsafeMutablePointer<UInt32>,
                         committed: UnsafeMutablePointer<UInt8>, tail: UnsafeMutablePointer<UInt8>,
                         xs: Range<Int>, color: Color) {
        let r = UInt32(color.r), g = UInt32(color.g), b = UInt32(color.b), a = UInt32(color.a)
        // The colour in the same two layouts: [B, R] and [G, 255] per pixel.
        let colourBR = unsafeBitCast(SIMD8<UInt32>(repeating: r << 16 | b), to: SIMD16<UInt16>.self)
        let colourGA = unsafeBitCast(SIMD8<UInt32>(repeating: 0xff << 16 | g), to: SIMD16<UInt16>.self)
        let a16 = SIMD16<UInt16>(repeating: UInt16(a)), full = SIMD16<UInt16>(repeating: 255)
        let low = SIMD8<UInt32>(repeating: 0x00ff_00ff)
        var x = xs.lowerBound
        while x &+ 8 <= xs.upperBound {
            let c1 = UnsafeRawPointer(committed + x).loadUnaligned(as: SIMD8<UInt8>.self)
            let c2 = UnsafeRawPointer(tail + x).loadUnaligned(as: SIMD8<UInt8>.self)
            // Coverage doubled into both 16-bit lanes of its pixel: c·257 splits into bytes c, c.
            let doubled = SIMD8<UInt16>(truncatingIfNeeded: pointwiseMax(c1, c2)) &* 257
            let coverage = SIMD16<UInt16>(truncatingIfNeeded: unsafeBitCast(doubled, to: SIMD16<UInt8>.self))
            let s = UnsafeRawPointer(src + x).loadUnaligned(as: SIMD8<UInt32>.self)
            let br = unsafeBitCast(s & low, to: SIMD16<UInt16>.self)
            let ga = unsafeBitCast((s &>> 8) & low, to: SIMD16<UInt16>.self)
            let alpha = mul255(a16, coverage), inv = full &- alpha
            let outBR = unsafeBitCast(mul255(colourBR, alpha) &+ mul255(br, inv), to: SIMD8<UInt32>.self)
            let outGA = unsafeBitCast(mul255(colourGA, alpha) &+ mul255(ga, inv), to: SIMD8<UInt32>.self)
            UnsafeMutableRawPointer(dst + x).storeBytes(of: outBR | outGA &<< 8, as: SIMD8<UInt32>.self)
            x &+= 8
        }
        while x < xs.upperBound {
            let coverage = UInt32(max(committed[x], tail[x]))
            dst[x] = Blend.over(src[x], r: r, g: g, b: b, alpha: Blend.mul255(a, coverage))
            x &+= 1
        }
    }

    /// `Blend.mul255` on sixteen lanes.
    @inline(__always)
    static func mul255(_ x: SIMD16<UInt16>, _ y: SIMD16<UInt16>) -> SIMD16<UInt16> {
        let t = x &* y &+ 128
        return (t &+ (t &>> 8)) &>> 8
    }
}
