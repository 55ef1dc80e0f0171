import Compute
import Geometry

/// The colour-buffer-to-image kernel (the aptpod demo's `computeTexture2d`), made to compose.
///
/// Output pixel = canvas pixel with the live stroke (colour × max(committed, tail) coverage)
/// blended over it, then the view filters. Run it over the damaged region only; run it with
/// `output` = `canvas` and no view to bake a finished stroke into the canvas.
///
/// A canvas pixel's alpha byte is how painted it is (0: bare background, 255: covered); blending
/// accumulates it source-over. Presented pixels are always opaque.
public struct ComposeKernel: Sendable {
    public var canvas: Texture<UInt32>
    public var output: Texture<UInt32>
    /// The live stroke: its colour, coverage masks (canvas-sized) and where they may be non-zero.
    public var stroke: Stroke?
    /// How the result is shown; nil bakes into the canvas (alpha kept, no filters).
    public var view: View?
    /// Where the canvas sits in the output (a shown frame only): zoomed and moved. Output
    /// pixels that show no canvas are the desk.
    public var transform: ViewTransform = .identity

    /// What the window shows around the canvas: a neutral grey, neither paper nor ink.
    public static let desk: UInt32 = 0xFF3A_3D42

    /// The view filters of the compose pass, applied in the same pass (no extra full pass).
    public struct View: Sendable, Equatable {
        /// Added to each channel where the canvas is unpainted, in proportion: the pulsing
        /// background is the canvas's own plus this (new background − canvas background).
        public var backgroundShift: SIMD3<Int32>
        /// Shown colour = (1 − r, 1 − g, 1 − b): the Metal colour-invert sample's fragment shader.
        public var invert: Bool
        public init(backgroundShift: SIMD3<Int32> = .zero, invert: Bool = false) {
            self.backgroundShift = backgroundShift; self.invert = invert
        }
        /// Shows `background` where the canvas (painted on `canvasBackground`) is bare.
        public init(background: Color, over canvasBackground: Color, invert: Bool) {
            self.init(backgroundShift: SIMD3(Int32(background.r) - Int32(canvasBackground.r),
                                             Int32(background.g) - Int32(canvasBackground.g),
                                             Int32(background.b) - Int32(canvasBackground.b)), invert: invert)
        }
        public static let plain = View()
    }

    public struct Stroke: Sendable {
        public var color: Color
        public var committed: Texture<UInt8>
        public var tail: Texture<UInt8>
        public var bounds: Rect
        /// False for an eraser: `color` is then the canvas's background, and coverage takes
        /// paint away (`Blend.over(paints: false)`).
        public var paints: Bool
        public init(color: Color, committed: Texture<UInt8>, tail: Texture<UInt8>, bounds: Rect, paints: Bool = true) {
            self.color = color; self.committed = committed; self.tail = tail; self.bounds = bounds; self.paints = paints
        }
    }

    public init(canvas: Texture<UInt32>, output: Texture<UInt32>, stroke: Stroke?, view: View?, transform: ViewTransform = .identity) {
        self.canvas = canvas; self.output = output; self.stroke = stroke; self.view = view; self.transform = transform
    }

    /// Compose streams memory row by row, so its threadgroups are wide: 256x16 keeps each
    /// group's rows on whole cache lines (no two workers write one line) and spreads the
    /// per-row set-up over 256 pixels instead of 16.
    public static let threadsPerThreadgroup = Size(width: 256, height: 16)

    /// Composes `region` of the output across the compute context. Without a transform the
    /// output's pixels are the canvas's own (a region outside the canvas is the desk, or left
    /// alone when baking); with one, each output pixel shows the canvas pixel under it (zoom ≥ 1,
    /// nearest) or the average of the block of canvas pixels under it (zoom < 1), in one pass.
    public func run(over region: Rect, on compute: ComputeContext) {
        let out = region.intersection(output.bounds)
        let tg = Self.threadsPerThreadgroup
        let r = transform == .identity ? out.intersection(canvas.bounds) : out
        compute.dispatchThreadgroups(ComputeContext.threadgroups(covering: r.size, threadsPerThreadgroup: tg),
                                     threadsPerThreadgroup: tg, grid: r) { group in
            if transform == .identity { self.execute(group) } else { self.executeTransformed(group) }
        }
        if transform == .identity, view != nil {
            // The canvas's corner is the output's: what is right of it and below it is desk.
            output.fill(Rect(minX: max(out.minX, canvas.width), minY: out.minY, maxX: out.maxX, maxY: out.maxY), with: Self.desk)
            output.fill(Rect(minX: out.minX, minY: max(out.minY, canvas.height), maxX: min(out.maxX, canvas.width), maxY: out.maxY), with: Self.desk)
        }
    }

    /// One threadgroup: `group.threadPositions` is already cut to the grid.
    public func execute(_ group: Threadgroup) {
        let g = group.threadPositions
        for y in g.ys { composeRow(y, xs: g.xs, into: output.row(y)) }
    }

    /// Composes canvas row `y` over `xs` into `dst` (indexed by canvas x).
    @inline(__always)
    private func composeRow(_ y: Int, xs: Range<Int>, into dst: UnsafeMutablePointer<UInt32>) {
        let src = canvas.row(y)
        if let stroke, y >= stroke.bounds.minY, y < stroke.bounds.maxY,
           case let b = xs.clamped(to: stroke.bounds.minX..<max(stroke.bounds.minX, stroke.bounds.maxX)), !b.isEmpty {
            Self.blendRow(src: src, dst: dst, committed: stroke.committed.row(y), tail: stroke.tail.row(y), xs: b, color: stroke.color,
                          paints: stroke.paints)
            // Around the stroke the canvas is read as it is; under it, the blend's result.
            finish(from: src, to: dst, xs: xs.lowerBound..<b.lowerBound)
            finish(from: dst, to: dst, xs: b)
            finish(from: src, to: dst, xs: b.upperBound..<xs.upperBound)
        } else {
            finish(from: src, to: dst, xs: xs)
        }
    }

    /// One threadgroup of a transformed view: each output row from the canvas row under it.
    public func executeTransformed(_ group: Threadgroup) {
        let g = group.threadPositions
        let s = transform.scale, ox = transform.x, oy = transform.y
        let bounds = canvas.bounds
        if s >= 0 {
            // Zoom ≥ 1: output x shows canvas x (x − ox) >> s; each canvas pixel is composed
            // once into a scratch row, then repeated.
            let cx0 = max(bounds.minX, (g.minX - ox) >> s), cx1 = min(bounds.maxX, ((g.maxX - 1 - ox) >> s) + 1)
            let scratch = UnsafeMutablePointer<UInt32>.allocate(capacity: max(1, cx1 - cx0))
            defer { scratch.deallocate() }
            var composedRow: Int?, previousY: Int?
            for y in g.ys {
                let dst = output.row(y)
                let cy = (y - oy) >> s
                guard cy >= bounds.minY, cy < bounds.maxY, cx0 < cx1 else {
                    (dst + g.minX).update(repeating: Self.desk, count: g.width)
                    continue
                }
                if let p = previousY, composedRow == cy {
                    // The same canvas row as the row above: copy it.
                    (dst + g.minX).update(from: output.row(p) + g.minX, count: g.width)
                } else {
                    composeRow(cy, xs: cx0..<cx1, into: scratch - cx0)
                    var x = g.minX
                    let first = cx0 << s + ox, last = cx1 << s + ox  // where the canvas shows
                    while x < min(first, g.maxX) { dst[x] = Self.desk; x &+= 1 }
                    while x < min(last, g.maxX) { dst[x] = scratch[((x &- ox) >> s) &- cx0]; x &+= 1 }
                    while x < g.maxX { dst[x] = Self.desk; x &+= 1 }
                    composedRow = cy
                }
                previousY = y
            }
        } else {
            // Zoom < 1: output pixel (x, y) is the average of the f×f canvas block from
            // ((x − ox)·f, (y − oy)·f); canvas pixels off the canvas count as desk.
            let f = 1 << -s
            let bx0 = (g.minX - ox) * f, width = g.width * f
            let rows = UnsafeMutablePointer<UInt32>.allocate(capacity: width * f)
            defer { rows.deallocate() }
            let cx0 = max(bounds.minX, bx0), cx1 = min(bounds.maxX, bx0 + width)
            for y in g.ys {
                let by0 = (y - oy) * f
                for k in 0..<f {
                    let row = rows + k * width
                    let cy = by0 + k
                    if cy >= bounds.minY, cy < bounds.maxY, cx0 < cx1 {
                        if bx0 < cx0 { row.update(repeating: Self.desk, count: cx0 - bx0) }
                        composeRow(cy, xs: cx0..<cx1, into: row - bx0)
                        if cx1 < bx0 + width { (row + (cx1 - bx0)).update(repeating: Self.desk, count: bx0 + width - cx1) }
                    } else {
                        row.update(repeating: Self.desk, count: width)
                    }
                }
                Self.averageBlocks(rows, width: width, f: f, into: output.row(y) + g.minX, count: g.width)
            }
        }
    }

    /// Each output pixel the rounded mean of an f×f block of `rows` (f rows of `width`), per
    /// channel, opaque. Integer sums in a fixed order: the same bytes on every thread count.
    ///
    /// Eight input columns at a time: masking with 0x00FF00FF leaves red and blue in the two
    /// 16-bit halves of each lane (green, shifted down, in the low half of another), so one add
    /// sums two channels; a block's 64 values at most (f = 8) stay under 2¹⁶. Adjacent lanes are
    /// then added pairwise (`evenHalf + oddHalf`) until each lane holds one block.
    @inline(__always)
    static func averageBlocks(_ rows: UnsafeMutablePointer<UInt32>, width: Int, f: Int, into dst: UnsafeMutablePointer<UInt32>, count: Int) {
        let shift = UInt32(2 * f.trailingZeroBitCount), half = UInt32(1) << (shift - 1)
        let mask = SIMD8<UInt32>(repeating: 0x00FF_00FF), perVector = 8 / f
        func finish(_ rb: UInt32, _ ga: UInt32) -> UInt32 {
            let rounded = (rb &+ (half << 16 | half)) >> shift & 0x00FF_00FF
            return 0xFF00_0000 | rounded | (((ga & 0xFFFF) &+ half) >> shift) << 8
        }
        var i = 0
        while i &+ perVector <= count {
            var rb = SIMD8<UInt32>(), ga = SIMD8<UInt32>()
            for k in 0..<f {
                let v = UnsafeRawPointer(rows + k &* width + i &* f).loadUnaligned(as: SIMD8<UInt32>.self)
                rb &+= v & mask
                ga &+= (v &>> 8) & mask
            }
            let rb4 = rb.evenHalf &+ rb.oddHalf, ga4 = ga.evenHalf &+ ga.oddHalf
            switch f {
            case 2: for j in 0..<4 { dst[i &+ j] = finish(rb4[j], ga4[j]) }
            case 4:
                let rb2 = rb4.evenHalf &+ rb4.oddHalf, ga2 = ga4.evenHalf &+ ga4.oddHalf
                dst[i] = finish(rb2[0], ga2[0]); dst[i &+ 1] = finish(rb2[1], ga2[1])
            default:
                let rb2 = rb4.evenHalf &+ rb4.oddHalf, ga2 = ga4.evenHalf &+ ga4.oddHalf
                dst[i] = finish(rb2[0] &+ rb2[1], ga2[0] &+ ga2[1])
            }
            i &+= perVector
        }
        while i < count {
            var rb: UInt32 = 0, ga: UInt32 = 0
            for k in 0..<f {
                let p = rows + k &* width + i &* f
                for j in 0..<f { rb &+= p[j] & 0x00FF_00FF; ga &+= (p[j] >> 8) & 0x00FF_00FF }
            }
            dst[i] = finish(rb, ga)
            i &+= 1
        }
    }

    /// The last step for each pixel: copied as it is (a bake), made opaque (a plain view), or
    /// filtered (pulse, invert) — in one pass from `source` to `row`.
    @inline(__always)
    private func finish(from source: UnsafeMutablePointer<UInt32>, to row: UnsafeMutablePointer<UInt32>, xs: Range<Int>) {
        guard !xs.isEmpty else { return }
        switch view {
        case nil: Self.copyRow(src: source, dst: row, xs: xs, opaque: false)
        case .plain?: Self.copyRow(src: source, dst: row, xs: xs, opaque: true)
        case let view?: Self.filterRow(from: source, to: row, xs: xs, view)
        }
    }

    /// Copies pixels, making them opaque when they are to be shown.
    @inline(__always)
    static func copyRow(src: UnsafeMutablePointer<UInt32>, dst: UnsafeMutablePointer<UInt32>, xs: Range<Int>, opaque: Bool) {
        guard !xs.isEmpty else { return }
        if opaque {
            for x in xs { dst[x] = src[x] | 0xFF00_0000 }
        } else if src != dst {
            (dst + xs.lowerBound).update(from: src + xs.lowerBound, count: xs.count)
        }
    }

    /// The view filters on shown pixels, whose alpha byte still says how painted each one is:
    /// the pulse adds its shift in proportion to how bare the pixel is, invert flips the colour,
    /// and the result is opaque. Eight pixels at a time: the shift's size per channel,
    /// mul255(|shift|, bare), is made in the 16-bit lane layout of `blendRow`, then added to the
    /// channels it raises and taken from those it lowers with byte arithmetic that saturates at 0
    /// and 255 (SSE2's paddusb/psubusb), which is the clamp.
    static func filterRow(from source: UnsafeMutablePointer<UInt32>, to row: UnsafeMutablePointer<UInt32>, xs: Range<Int>, _ view: View) {
        let shift = view.backgroundShift
        func size(_ d: Int32) -> UInt32 { UInt32(min(d.magnitude, 255)) }
        let sizes = size(shift.x) << 16 | size(shift.y) << 8 | size(shift.z)
        // Which channels the shift raises, which it lowers (bytes of 0xFF).
        func mask(_ d: Int32, _ at: UInt32, _ raises: Bool) -> UInt32 { d != 0 && (d > 0) == raises ? 0xFF << at : 0 }
        let raised = SIMD8<UInt32>(repeating: mask(shift.x, 16, true) | mask(shift.y, 8, true) | mask(shift.z, 0, true))
        let lowered = SIMD8<UInt32>(repeating: mask(shift.x, 16, false) | mask(shift.y, 8, false) | mask(shift.z, 0, false))
        let sizeBR = unsafeBitCast(SIMD8<UInt32>(repeating: sizes & 0x00FF_00FF), to: SIMD16<UInt16>.self)
        let sizeGA = unsafeBitCast(SIMD8<UInt32>(repeating: (sizes >> 8) & 0x00FF_00FF), to: SIMD16<UInt16>.self)
        let full = SIMD16<UInt16>(repeating: 255)
        let flip = SIMD8<UInt32>(repeating: view.invert ? 0x00FF_FFFF : 0), opaque = SIMD8<UInt32>(repeating: 0xFF00_0000)
        var x = xs.lowerBound
        while x &+ 8 <= xs.upperBound {
            let s = UnsafeRawPointer(source + x).loadUnaligned(as: SIMD8<UInt32>.self)
            // Eight bare pixels (most of a canvas) take the whole shift, eight fully painted ones
            // none: mul255(size, 255) = size and mul255(size, 0) = 0, so skipping the multiplies
            // gives the same bytes.
            let a = unsafeBitCast(s & opaque, to: (UInt64, UInt64, UInt64, UInt64).self)
            let m: SIMD8<UInt32>
            if a.0 | a.1 | a.2 | a.3 == 0 {
                m = SIMD8(repeating: sizes)
            } else if a.0 & a.1 & a.2 & a.3 == 0xFF00_0000_FF00_0000 {
                m = .zero
            } else {
                // 255 − alpha in both 16-bit halves of each pixel, with shifts only.
                let bare = full &- unsafeBitCast((s &>> 24) | ((s &>> 8) & 0x00FF_0000), to: SIMD16<UInt16>.self)
                m = unsafeBitCast(mul255(sizeBR, bare), to: SIMD8<UInt32>.self) | unsafeBitCast(mul255(sizeGA, bare), to: SIMD8<UInt32>.self) &<< 8
            }
            typealias Halves = (SIMD16<UInt8>, SIMD16<UInt8>)
            let bytes = unsafeBitCast(s, to: Halves.self)
            let up = unsafeBitCast(m & raised, to: Halves.self), down = unsafeBitCast(m & lowered, to: Halves.self)
            let shifted = (Self.saturating(bytes.0, plus: up.0, minus: down.0), Self.saturating(bytes.1, plus: up.1, minus: down.1))
            let out = (unsafeBitCast(shifted, to: SIMD8<UInt32>.self) | opaque) ^ flip
            UnsafeMutableRawPointer(row + x).storeBytes(of: out, as: SIMD8<UInt32>.self)
            x &+= 8
        }
        while x < xs.upperBound {
            var p = source[x]
            let bare = 255 - Int32(p >> 24)
            func channel(_ at: UInt32, _ d: Int32) -> UInt32 {
                let v = Int32((p >> at) & 0xff) + Int32(Blend.mul255(UInt32(max(d, 0)), UInt32(bare)))
                    - Int32(Blend.mul255(UInt32(max(-d, 0)), UInt32(bare)))
                return UInt32(min(max(v, 0), 255)) << at
            }
            p = channel(16, shift.x) | channel(8, shift.y) | channel(0, shift.z)
            row[x] = (p | 0xFF00_0000) ^ flip[0]
            x &+= 1
        }
    }

    /// (x + up) − down per byte, each step clamped to 0…255. Written so LLVM emits SSE2's
    /// paddusb and psubusb (a 16-byte vector; on 32 it falls back to lane-by-lane code).
    @inline(__always)
    private static func saturating(_ x: SIMD16<UInt8>, plus up: SIMD16<UInt8>, minus down: SIMD16<UInt8>) -> SIMD16<UInt8> {
        let sum = x &+ up
        let raised = sum.replacing(with: 255, where: sum .< x)
        let difference = raised &- down
        return difference.replacing(with: 0, where: difference .> raised)
    }

    /// Blends one row, eight pixels at a time, without unpacking pixels into channels: masking
    /// 0xAARRGGBB with 0x00FF00FF leaves B and R in the two 16-bit halves of each pixel, and
    /// shifting first leaves G and A, so one 16-bit `mul255` handles two channels. 16-bit lanes
    /// suffice (x·y + 128 < 2¹⁶) and 16-bit multiplies exist on every x86-64 (SSE2), where
    /// 32-bit ones do not. The colour's alpha lane is 255, so alpha accumulates source-over.
    @inline(__always)
    static func blendRow(src: UnsafeMutablePointer<UInt32>, dst: UnsafeMutablePointer<UInt32>,
                         committed: UnsafeMutablePointer<UInt8>, tail: UnsafeMutablePointer<UInt8>,
                         xs: Range<Int>, color: Color, paints: Bool = true) {
        let r = UInt32(color.r), g = UInt32(color.g), b = UInt32(color.b), a = UInt32(color.a)
        // The colour in the same two layouts: [B, R] and [G, 255] per pixel (an eraser's
        // alpha lane is 0: paint goes away).
        let colourBR = unsafeBitCast(SIMD8<UInt32>(repeating: r << 16 | b), to: SIMD16<UInt16>.self)
        let colourGA = unsafeBitCast(SIMD8<UInt32>(repeating: (paints ? 0xff : 0) << 16 | g), to: SIMD16<UInt16>.self)
        let a16 = SIMD16<UInt16>(repeating: UInt16(a)), full = SIMD16<UInt16>(repeating: 255)
        let low = SIMD8<UInt32>(repeating: 0x00ff_00ff)
        var x = xs.lowerBound
        while x &+ 8 <= xs.upperBound {
            let m1 = UnsafeRawPointer(committed + x).loadUnaligned(as: UInt64.self)
            let m2 = UnsafeRawPointer(tail + x).loadUnaligned(as: UInt64.self)
            let s = UnsafeRawPointer(src + x).loadUnaligned(as: SIMD8<UInt32>.self)
            // Most of a stroke's bounding box is uncovered: those pixels stay as they are.
            if m1 | m2 == 0 {
                if src != dst { UnsafeMutableRawPointer(dst + x).storeBytes(of: s, as: SIMD8<UInt32>.self) }
                x &+= 8
                continue
            }
            let c1 = unsafeBitCast(m1, to: SIMD8<UInt8>.self), c2 = unsafeBitCast(m2, to: SIMD8<UInt8>.self)
            // Coverage doubled into both 16-bit lanes of its pixel: c·257 splits into bytes c, c.
            let doubled = SIMD8<UInt16>(truncatingIfNeeded: pointwiseMax(c1, c2)) &* 257
            let coverage = SIMD16<UInt16>(truncatingIfNeeded: unsafeBitCast(doubled, to: SIMD16<UInt8>.self))
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
            dst[x] = Blend.over(src[x], r: r, g: g, b: b, alpha: Blend.mul255(a, coverage), paints: paints)
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
