import CVector
import Compute
import Geometry

/// The layers-to-image kernel (the aptpod demo's `computeTexture2d`, grown into a stack).
///
/// Output pixel = what lies below the current layer (the background and the layers under it,
/// flattened: `Below`), then the current layer with the live stroke painted into it (colour ×
/// max(committed, tail) coverage, premultiplied source-over; an eraser takes alpha away),
/// blended with the layer's mode and opacity, then what lies above (`Over`: one flattened
/// cache, or the layers one by one where their modes need the backdrop), then the invert
/// filter; presented pixels are opaque. Run it over the damaged region only. See Paint's
/// `Layer` for the pixel model. When the current layer is inside isolated groups, each is a
/// `Level`: composed onto transparency around the current layer, then blended as the group.
public struct ComposeKernel: Sendable {
    /// What lies under the current layer: only the background colour, or a flattened cache
    /// (opaque) of it and the visible layers below.
    public enum Below: Sendable {
        case color(UInt32)
        case texture(Texture<UInt32>)
        /// A flattened cache in tiles, made where it is read; `missing` where there is no tile.
        case tiles(TiledTexture, missing: UInt32)
    }

    /// Premultiplied pixels blended over what is under them.
    public struct Over: Sendable {
        public enum Pixels: Sendable {
            case tiles(TiledTexture)
            case texture(Texture<UInt32>)
            /// An isolated group: these composed onto transparency, bottom first, then blended
            /// as one with the `Over`'s opacity and mode.
            case group([Over])
        }
        public var pixels: Pixels
        public var opacity: UInt32
        public var mode: BlendMode
        /// Where they may be non-transparent.
        public var bounds: Rect
        public init(pixels: Pixels, opacity: UInt32, mode: BlendMode, bounds: Rect) {
            self.pixels = pixels; self.opacity = opacity; self.mode = mode; self.bounds = bounds
        }
    }

    /// An isolated group that holds the current layer: what it holds below and above the
    /// current layer (or the next group in), composed onto transparency around it, then
    /// blended with the group's opacity and mode.
    public struct Level: Sendable {
        public var below: [Over]
        public var above: [Over]
        public var opacity: UInt32
        public var mode: BlendMode
        public init(below: [Over] = [], above: [Over] = [], opacity: UInt32, mode: BlendMode) {
            self.below = below; self.above = above; self.opacity = opacity; self.mode = mode
        }
    }

    public var below: Below
    /// The isolated groups holding the current layer, outermost first (none: the layer is
    /// blended straight onto `below`).
    public var levels: [Level] = []
    /// The current layer (nil when hidden: the live stroke is then not shown either).
    public var layer: TiledTexture?
    public var layerOpacity: UInt32 = 255
    public var layerMode = BlendMode.normal
    /// The live stroke: its colour, coverage masks (canvas-sized) and where they may be non-zero.
    public var stroke: Stroke?
    /// Bottom first.
    public var above: [Over] = []
    /// Shown colour = (1 − r, 1 − g, 1 − b): the Metal colour-invert sample's fragment shader.
    public var invert = false
    /// The part of the canvas that may be shown: output pixels showing canvas outside it are
    /// the desk. (The layers have no edges: the stack view shows the whole plane.)
    public var canvas: Rect
    /// The document's frame, when the output shows it: canvas outside it is dimmed (blended
    /// halfway toward the desk), so that paint beyond the frame shows, on the desk.
    public var frame: Rect?
    /// For a turned view, whose frame's window rect is only its bounding box: the canvas beyond
    /// the frame composed row by row beside it (`composeShownRow`), then sampled.
    public var beyond: Beyond?
    public var output: Texture<UInt32>
    /// Where the canvas sits in the output: zoomed and moved. Output pixels that show no canvas
    /// are the desk.
    public var transform: ViewTransform = .identity
    /// The widest vectors, in bits, that the fused compose and a turned view's bilinear rows may
    /// use (CVector's `qs_fused_piece` and `qs_bilinear_row`: AVX-512 or AVX2, where the processor
    /// has them); 0 keeps them in Swift's own vectors. Each gives the same bytes: tests compare them.
    public var vectorBits = Int(qs_vector_bits())

    /// What the window shows around the canvas: a neutral grey, neither paper nor ink.
    public static let desk: UInt32 = 0xFF3A_3D42

    public init(below: Below, layer: TiledTexture?, canvas: Rect, output: Texture<UInt32>) {
        self.below = below; self.layer = layer; self.canvas = canvas; self.output = output
    }

    /// Compose streams memory along rows, so its threadgroups are wide: 512x32 keeps each
    /// group's rows on whole cache lines (no two workers write one line), spreads the per-row
    /// set-up (a lookup of each source's tile row) over eight tiles, and gives the fused path
    /// (`composeFused(rows:xs:)`, a tile column at a time) 32 rows of each tile to read in a run.
    public static let threadsPerThreadgroup = Size(width: 512, height: 32)

    /// Composes `region` of the output across the compute context. Without a transform the
    /// output's pixels are the canvas's own (a region outside the canvas is the desk); with an
    /// upright one at a power of two, each output pixel shows the canvas pixel under it (zoom ≥
    /// 1) or the average of the block of canvas pixels under it (zoom < 1), in one pass; any
    /// other view samples as `ViewTransform.sampling` says (`executeView`).
    public func run(over region: Rect, on compute: ComputeContext) {
        let out = region.intersection(output.bounds)
        let exact = transform.powerOfTwoScale != nil
        let r = transform == .identity ? out.intersection(canvas) : out
        let tg = exact ? Self.threadsPerThreadgroup : Self.viewThreadgroup(for: r.size, sampling: transform.sampling)
        compute.dispatchThreadgroups(ComputeContext.threadgroups(covering: r.size, threadsPerThreadgroup: tg),
                                     threadsPerThreadgroup: tg, grid: r) { group in
            if transform == .identity { self.execute(group) } else if exact { self.executeTransformed(group) } else { self.executeView(group, scratch: compute.scratch) }
        }
        if transform == .identity {
            // Desk around the canvas (none when the canvas is the plane).
            for part in out.subtracting(canvas) { output.fill(part, with: Self.desk) }
        }
        if let frame { dim(out.subtracting(transform.windowRect(covering: frame)), on: compute) }
    }

    /// Each pixel of `parts` blended halfway toward the desk: canvas outside the frame.
    private func dim(_ parts: [Rect], on compute: ComputeContext) {
        for part in parts {
            compute.dispatchRows(over: part) { group in
                let g = group.threadPositions
                for y in g.ys { Self.dim(output.row(y), xs: g.xs) }
            }
        }
    }

    /// One threadgroup: `group.threadPositions` is already cut to the grid.
    public func execute(_ group: Threadgroup) {
        let g = group.threadPositions
        if composeFused(rows: g.ys, xs: g.xs) { return }
        for y in g.ys { composeRow(y, xs: g.xs, into: output.row(y)) }
    }

    /// Composes canvas row `y` over `xs` into `dst` (indexed by canvas x), opaque.
    @inline(__always)
    func composeRow(_ y: Int, xs: Range<Int>, into dst: UnsafeMutablePointer<UInt32>) {
        switch below {
        case .color(let c): (dst + xs.lowerBound).update(repeating: c, count: xs.count)
        case .texture(let t): (dst + xs.lowerBound).update(from: t.row(y) + xs.lowerBound, count: xs.count)
        case .tiles(let t, let missing): t.copy(row: y, xs: xs, into: dst, missing: missing)
        }
        if levels.isEmpty {
            if let layer { blendCurrentLayer(layer, y, xs, dst) }
        } else {
            composeLevels(y, xs, dst)
        }
        for o in above { Self.blend(o, row: y, xs: xs, onto: dst) }
        if invert { for x in xs { dst[x] = (dst[x] | 0xFF00_0000) ^ 0x00FF_FFFF } }
    }

    /// Blends `o`'s row `y` over `xs` onto `dst` (indexed by canvas x), where it has pixels.
    @inline(__always)
    public static func blend(_ o: Over, row y: Int, xs: Range<Int>, onto dst: UnsafeMutablePointer<UInt32>) {
        guard y >= o.bounds.minY, y < o.bounds.maxY else { return }
        let b = xs.clamped(to: o.bounds.minX..<max(o.bounds.minX, o.bounds.maxX))
        guard !b.isEmpty else { return }
        switch o.pixels {
        case .texture(let t): LayerBlend.blendRow(t.row(y) + b.lowerBound, onto: dst + b.lowerBound, count: b.count, opacity: o.opacity, mode: o.mode)
        case .tiles(let t):
            t.segments(row: y, xs: b) { r, p in
                if let p { LayerBlend.blendRow(p, onto: dst + r.lowerBound, count: r.count, opacity: o.opacity, mode: o.mode) }
            }
        case .group(let inside):
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: b.count) { buffer in
                let tmp = buffer.baseAddress! - b.lowerBound
                (tmp + b.lowerBound).update(repeating: 0, count: b.count)
                for child in inside { blend(child, row: y, xs: b, onto: tmp) }
                LayerBlend.blendRow(tmp + b.lowerBound, onto: dst + b.lowerBound, count: b.count, opacity: o.opacity, mode: o.mode)
            }
        }
    }

    /// The current layer inside its isolated groups: each level's row composed onto
    /// transparency (what it holds below, the next level or the current layer, what it holds
    /// above), then blended onto the level outside it, the outermost onto `dst`.
    private func composeLevels(_ y: Int, _ xs: Range<Int>, _ dst: UnsafeMutablePointer<UInt32>) {
        let n = xs.count
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: n * levels.count) { buffer in
            func row(_ i: Int) -> UnsafeMutablePointer<UInt32> { buffer.baseAddress! + i * n - xs.lowerBound }
            for (i, level) in levels.enumerated() {
                (row(i) + xs.lowerBound).update(repeating: 0, count: n)
                for o in level.below { Self.blend(o, row: y, xs: xs, onto: row(i)) }
            }
            if let layer { blendCurrentLayer(layer, y, xs, row(levels.count - 1)) }
            for i in levels.indices.reversed() {
                for o in levels[i].above { Self.blend(o, row: y, xs: xs, onto: row(i)) }
                let outside = i == 0 ? dst : row(i - 1)
                LayerBlend.blendRow(row(i) + xs.lowerBound, onto: outside + xs.lowerBound, count: n, opacity: levels[i].opacity, mode: levels[i].mode)
            }
        }
    }

    /// The current layer's row, with the live stroke painted into it where it lies, blended
    /// onto `dst`.
    @inline(__always)
    private func blendCurrentLayer(_ layer: TiledTexture, _ y: Int, _ xs: Range<Int>, _ dst: UnsafeMutablePointer<UInt32>) {
        func plain(_ xs: Range<Int>) {
            layer.segments(row: y, xs: xs) { r, p in
                if let p { LayerBlend.blendRow(p, onto: dst + r.lowerBound, count: r.count, opacity: layerOpacity, mode: layerMode) }
            }
        }
        guard let stroke, y >= stroke.bounds.minY, y < stroke.bounds.maxY,
              case let b = xs.clamped(to: stroke.bounds.minX..<max(stroke.bounds.minX, stroke.bounds.maxX)), !b.isEmpty else {
            return plain(xs)
        }
        plain(xs.lowerBound..<b.lowerBound)
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: b.count) { buffer in
            let tmp = buffer.baseAddress! - b.lowerBound
            layer.copy(row: y, xs: b, into: tmp)
            Self.blendStroke(stroke, row: y, xs: b, src: tmp, dst: tmp)
            LayerBlend.blendRow(tmp + b.lowerBound, onto: dst + b.lowerBound, count: b.count, opacity: layerOpacity, mode: layerMode)
        }
        plain(b.upperBound..<xs.upperBound)
    }

    /// One threadgroup of a transformed view: each output row from the canvas row under it.
    public func executeTransformed(_ group: Threadgroup) {
        let g = group.threadPositions
        let s = transform.scale, ox = transform.x, oy = transform.y
        let bounds = canvas
        if s >= 0 {
            // Zoom ≥ 1: output x shows canvas x (x − ox) >> s; each canvas pixel is composed
            // once into a scratch row, then repeated.
            let cx0 = max(bounds.minX, (g.minX - ox) >> s), cx1 = min(bounds.maxX, ((g.maxX - 1 - ox) >> s) + 1)
            if s == 0, cx0 < cx1, let plan = fusedPlan() { return composeMoved(g, xs: cx0..<cx1, plan) }
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
                } else if s == 0 {
                    // At 100 % the composed row lands where it shows: no scratch to copy from.
                    let first = cx0 &+ ox, last = cx1 &+ ox
                    (dst + g.minX).update(repeating: Self.desk, count: first &- g.minX)
                    composeRow(cy, xs: cx0..<cx1, into: dst + ox)
                    (dst + last).update(repeating: Self.desk, count: g.maxX &- last)
                    composedRow = cy
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
            for y in g.ys {
                composeAveraged(x0: bx0, y0: (y - oy) * f, width: width, f: f, scratch: rows, into: output.row(y) + g.minX)
            }
        }
    }

    /// The `f` canvas rows from `y0` over `x0 ..< x0 + width` composed into `rows` (`f` rows of
    /// `width`), desk off the canvas, then each f×f block's mean into `dst` (`width / f`
    /// pixels): an output row of a view below 100 %.
    func composeAveraged(x0: Int, y0: Int, width: Int, f: Int, scratch rows: UnsafeMutablePointer<UInt32>, into dst: UnsafeMutablePointer<UInt32>) {
        let cx0 = max(canvas.minX, x0), cx1 = min(canvas.maxX, x0 + width)
        for k in 0..<f {
            let row = rows + k * width, cy = y0 + k
            if cy >= canvas.minY, cy < canvas.maxY, cx0 < cx1 {
                if x0 < cx0 { row.update(repeating: Self.desk, count: cx0 - x0) }
                composeShownRow(cy, xs: cx0..<cx1, into: row - x0)
                if cx1 < x0 + width { (row + (cx1 - x0)).update(repeating: Self.desk, count: x0 + width - cx1) }
            } else {
                row.update(repeating: Self.desk, count: width)
            }
        }
        Self.averageBlocks(rows, width: width, f: f, into: dst, count: width / f)
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

    /// Blends one row, eight pixels at a time, without unpacking pixels into channels: masking
    /// 0xAARRGGBB with 0x00FF00FF leaves B and R in the two 16-bit halves of each pixel, and
    /// shifting first leaves G and A, so one 16-bit `mul255` handles two channels. 16-bit lanes
    /// suffice (x·y + 128 < 2¹⁶) and 16-bit multiplies exist on every x86-64 (SSE2), where
    /// 32-bit ones do not. The colour's alpha lane is 255, so alpha accumulates source-over.
    @inline(__always)
    public static func blendRow(src: UnsafeMutablePointer<UInt32>, dst: UnsafeMutablePointer<UInt32>,
                         committed: UnsafeMutablePointer<UInt8>, tail: UnsafeMutablePointer<UInt8>,
                         xs: Range<Int>, color: Color, paints: Bool = true) {
        let paint = StrokePaint(color: color, paints: paints)
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
            UnsafeMutableRawPointer(dst + x).storeBytes(of: paint.blend(s, m1, m2), as: SIMD8<UInt32>.self)
            x &+= 8
        }
        // The masks are read a tile at a time, so every tile's run ends here with up to seven
        // pixels, mostly uncovered (`blend` leaves those as they are).
        while x < xs.upperBound {
            dst[x] = paint.blend(src[x], UInt32(max(committed[x], tail[x])))
            x &+= 1
        }
    }
}
