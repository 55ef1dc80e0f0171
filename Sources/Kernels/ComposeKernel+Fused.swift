import CVector
import Compute
import Geometry

/// The common stack in one pass: what lies below (a colour, a texture or tiles), the current
/// layer in `normal` mode with the live stroke painted into it, at most one `normal` layer or
/// cache above, and the invert filter, eight pixels at a time in registers, each output pixel
/// written once. Upright views at 100 %, and the rows a turned view samples at level 1, take it
/// whenever the stack has that shape and a live stroke or a layer above to combine (the stack
/// view's caches give it that shape whenever every layer above is `normal`), else the general
/// path, pass by pass. (With only the layer over a colour, the general path's fill and one
/// blend were as fast.) It works in bands of the rows within one row of tiles, a tile column at
/// a time, so each source's tile is looked up once per band, not once per row: row by row, a
/// turned view's short spans lost more to that set-up than the single pass saved. Every pixel
/// goes through the same integer steps as on the general path (`blendRow`'s stroke blend, then
/// `LayerBlend`'s normal blend), so the bytes are the same; only the order of the loops differs.
extension ComposeKernel {
    /// The live stroke's colour, in the lanes `blendRow` uses.
    struct StrokePaint {
        let colourBR: SIMD16<UInt16>, colourGA: SIMD16<UInt16>, a16: SIMD16<UInt16>
        let r: UInt32, g: UInt32, b: UInt32, a: UInt32, paints: Bool

        init(_ stroke: Stroke) { self.init(color: stroke.blendColor, paints: stroke.paints) }

        /// `color` at its alpha; an eraser's (`paints` false) alpha lane is 0, so paint goes away.
        init(color c: Color, paints: Bool) {
            r = UInt32(c.r); g = UInt32(c.g); b = UInt32(c.b); a = UInt32(c.a); self.paints = paints
            colourBR = unsafeBitCast(SIMD8<UInt32>(repeating: r << 16 | b), to: SIMD16<UInt16>.self)
            colourGA = unsafeBitCast(SIMD8<UInt32>(repeating: (paints ? 0xff : 0) << 16 | g), to: SIMD16<UInt16>.self)
            a16 = SIMD16<UInt16>(repeating: UInt16(a))
        }

        /// Eight pixels `s` with the coverage bytes `m1`, `m2` (committed, tail) painted in: `blendRow`'s vector step.
        @inline(__always)
        func blend(_ s: SIMD8<UInt32>, _ m1: UInt64, _ m2: UInt64) -> SIMD8<UInt32> {
            let low = SIMD8<UInt32>(repeating: 0x00ff_00ff), full = SIMD16<UInt16>(repeating: 255)
            let coverage = ComposeKernel.coverageLanes(ComposeKernel.byteMax(m1, m2))
            let br = unsafeBitCast(s & low, to: SIMD16<UInt16>.self)
            let ga = unsafeBitCast((s &>> 8) & low, to: SIMD16<UInt16>.self)
            let alpha = LayerBlend.mul255(a16, coverage), inv = full &- alpha
            let outBR = unsafeBitCast(LayerBlend.mul255(colourBR, alpha) &+ LayerBlend.mul255(br, inv), to: SIMD8<UInt32>.self)
            let outGA = unsafeBitCast(LayerBlend.mul255(colourGA, alpha) &+ LayerBlend.mul255(ga, inv), to: SIMD8<UInt32>.self)
            return outBR | outGA &<< 8
        }

        /// One pixel: `blendRow`'s scalar step.
        @inline(__always)
        func blend(_ s: UInt32, _ coverage: UInt32) -> UInt32 {
            coverage == 0 ? s : Blend.over(s, r: r, g: g, b: b, alpha: Blend.mul255(a, coverage), paints: paints)
        }
    }

    /// What the fused path reads that is the same for every row: nil when the stack does not
    /// have its shape.
    struct FusedPlan {
        let over: Over?, stroke: Stroke?, paint: StrokePaint?
        let opacity: UInt32, overOpacity: UInt32, baseColor: UInt32
        /// `ComposeKernel.vectorBits`.
        let vectorBits: Int
    }

    /// The fused path's plan, or nil when the stack does not have its shape or has nothing for
    /// it to combine beyond the layer.
    func fusedPlan() -> FusedPlan? {
        guard levels.isEmpty, above.count <= 1, layer == nil || layerMode == .normal, stroke != nil || !above.isEmpty else { return nil }
        var over: Over?
        if let o = above.first {
            guard o.mode == .normal else { return nil }
            if case .group = o.pixels { return nil }
            if min(o.opacity, 255) > 0 { over = o }
        }
        let stroke = min(layerOpacity, 255) > 0 && layer != nil ? self.stroke : nil
        var baseColor: UInt32 = 0
        switch below {
        case .color(let c): baseColor = c
        case .texture: break
        case .tiles(_, let missing): baseColor = missing
        }
        return FusedPlan(over: over, stroke: stroke, paint: stroke.map(StrokePaint.init), opacity: min(layerOpacity, 255),
                         overOpacity: min(over?.opacity ?? 0, 255), baseColor: baseColor, vectorBits: vectorBits)
    }

    /// Composes the rows `ys` over `xs` of the output in one pass, a tile column at a time (each
    /// row's 64 pixels of it, then the next column) and returns true when the stack has the
    /// fused path's shape; returns false, having written nothing, when not. Column by column,
    /// each tile's rows (and each mask tile's one-line rows) are read one after another, which
    /// the caches fetch ahead, where row by row every row starts a new page in every tile.
    func composeFused(rows ys: Range<Int>, xs: Range<Int>) -> Bool {
        guard let plan = fusedPlan() else { return false }
        guard !xs.isEmpty else { return true }
        var y0 = ys.lowerBound
        while y0 < ys.upperBound {
            let y1 = Swift.min(ys.upperBound, (y0 >> 6 &+ 1) << 6)
            composeFusedBand(y0..<y1, xs: xs, plan, into: output.row(y0), stride: output.rowStride)
            y0 = y1
        }
        return true
    }

    /// The output rows of `g` in a view moved at 100 % (panned), the canvas's columns `xs`
    /// showing: desk around the canvas, the canvas's rows composed straight into the output
    /// in bands of a row of tiles.
    func composeMoved(_ g: Rect, xs: Range<Int>, _ plan: FusedPlan) {
        let ox = transform.x, oy = transform.y, first = xs.lowerBound &+ ox, last = xs.upperBound &+ ox
        let rows = (g.minY &- oy..<g.maxY &- oy).clamped(to: canvas.minY..<Swift.max(canvas.minY, canvas.maxY))
        for y in g.ys {
            let dst = output.row(y)
            if rows.contains(y &- oy) {
                (dst + g.minX).update(repeating: Self.desk, count: first &- g.minX)
                (dst + last).update(repeating: Self.desk, count: g.maxX &- last)
            } else {
                (dst + g.minX).update(repeating: Self.desk, count: g.width)
            }
        }
        var y0 = rows.lowerBound
        while y0 < rows.upperBound {
            let y1 = Swift.min(rows.upperBound, (y0 >> 6 &+ 1) << 6)
            composeFusedBand(y0..<y1, xs: xs, plan, into: output.row(y0 &+ oy) + ox, stride: output.rowStride)
            y0 = y1
        }
    }

    /// One piece of the fused path: `rows` rows of `count` pixels, each source's first pixel in
    /// the first row and its step to the next row (0: the same pixels again, scratch standing
    /// for a missing source: below's colour, transparent, no coverage).
    struct FusedPiece {
        var count = 0, rows = 0
        var dst: UnsafeMutablePointer<UInt32>, dstStride: Int
        var base: UnsafeMutablePointer<UInt32>, baseStride: Int
        var layer: UnsafeMutablePointer<UInt32>, layerStride: Int
        /// The mask tiles' pixels (their row step is 64), and which of the rows may be set (bit
        /// 0: the first row); where none may be, `none`.
        var committed: UnsafeMutablePointer<UInt8>, committedRows: UInt64 = 0
        var tail: UnsafeMutablePointer<UInt8>, tailRows: UInt64 = 0
        let none: UnsafeMutablePointer<UInt8>
        var over: UnsafeMutablePointer<UInt32>?, overStride = 0
        /// The rows (counted from the first) the stroke and the layer above may cover.
        var strokeRows = 0..<0, overRows = 0..<0
        /// The piece's first canvas x, and each row's part of the canvas to compose (nil: all).
        var x = 0, spans: UnsafePointer<Range<Int>>?
    }

    /// The rows `ys`, all in one row of tiles, over `xs` (or, with `spans`, each row over its
    /// own span within `xs`) into `dst` (row `ys.lowerBound`, indexed by canvas x; the next row
    /// `stride` pixels on), a tile column at a time: each source's tile in the column is looked
    /// up once for all the rows, and a mask tile's row is read only where `setRows` says it may
    /// be set.
    func composeFusedBand(_ ys: Range<Int>, xs: Range<Int>, _ plan: FusedPlan, into dst: UnsafeMutablePointer<UInt32>, stride: Int,
                          spans: UnsafePointer<Range<Int>>? = nil) {
        let y0 = ys.lowerBound, ry0 = y0 & 63
        var baseTexture: Texture<UInt32>?, baseTiles: TiledTexture.RowReader?
        switch below {
        case .color: break
        case .texture(let t): baseTexture = t
        case .tiles(let t, _): baseTiles = t.reader(row: y0)
        }
        var layerTiles = plan.opacity > 0 ? layer?.reader(row: y0) : nil
        var strokeRows = 0..<0, strokeXs = 0..<0, overRows = 0..<0, overXs = 0..<0
        var committed: TiledMask.RowReader?, tail: TiledMask.RowReader?
        if let s = plan.stroke {
            let r = ys.clamped(to: s.bounds.minY..<Swift.max(s.bounds.minY, s.bounds.maxY))
            strokeRows = (r.lowerBound &- y0)..<(r.upperBound &- y0)
            strokeXs = s.bounds.minX..<Swift.max(s.bounds.minX, s.bounds.maxX)
            if !r.isEmpty { committed = s.committed.reader(row: y0); tail = s.tail.reader(row: y0) }
        }
        var overTexture: Texture<UInt32>?, overTiles: TiledTexture.RowReader?
        if let o = plan.over {
            let r = ys.clamped(to: o.bounds.minY..<Swift.max(o.bounds.minY, o.bounds.maxY))
            overRows = (r.lowerBound &- y0)..<(r.upperBound &- y0)
            overXs = o.bounds.minX..<Swift.max(o.bounds.minX, o.bounds.maxX)
            switch o.pixels {
            case .texture(let t): overTexture = t
            case .tiles(let t): overTiles = t.reader(row: y0)
            case .group: break
            }
        }
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 128) { words in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { bytes in
                let fill = words.baseAddress!, clear = fill + 64, none = bytes.baseAddress!
                fill.initialize(repeating: plan.baseColor, count: 64)
                clear.initialize(repeating: 0, count: 64)
                none.initialize(repeating: 0, count: 64)
                var x = xs.lowerBound
                while x < xs.upperBound {
                    let tx = x >> 6, start = tx << 6, columnEnd = Swift.min(xs.upperBound, start &+ 64)
                    let baseTile = baseTiles?.tile(column: tx), layerTile = layerTiles?.tile(column: tx)
                    let committedTile = committed?.tile(column: tx), tailTile = tail?.tile(column: tx)
                    let overTile = overTiles?.tile(column: tx)
                    // Pieces of the column that each source covers wholly or not at all.
                    var px = x
                    while px < columnEnd {
                        var end = columnEnd
                        func cut(_ e: Int) { if e > px, e < end { end = e } }
                        cut(strokeXs.lowerBound); cut(strokeXs.upperBound); cut(overXs.lowerBound); cut(overXs.upperBound)
                        let inTile = ry0 &* 64 &+ (px &- start)
                        var p = FusedPiece(count: end &- px, rows: ys.count, dst: dst + px, dstStride: stride,
                                           base: fill, baseStride: 0, layer: clear, layerStride: 0, committed: none, tail: none, none: none,
                                           x: px, spans: spans)
                        if let t = baseTexture { p.base = t.row(y0) + px; p.baseStride = t.rowStride }
                        if let t = baseTile { p.base = t.base + inTile; p.baseStride = 64 }
                        if let t = layerTile { p.layer = t.base + inTile; p.layerStride = 64 }
                        if strokeXs.contains(px) {
                            p.strokeRows = strokeRows
                            if let t = committedTile { p.committed = t.base + inTile; p.committedRows = t.setRows >> UInt64(ry0) }
                            if let t = tailTile { p.tail = t.base + inTile; p.tailRows = t.setRows >> UInt64(ry0) }
                        }
                        if overXs.contains(px) {
                            p.overRows = overRows
                            if let t = overTexture { p.over = t.row(y0) + px; p.overStride = t.rowStride }
                            if let t = overTile { p.over = t.base + inTile; p.overStride = 64 }
                        }
                        Self.fusedPiece(p, plan, invert: invert)
                        px = end
                    }
                    x = columnEnd
                }
            }
        }
    }

    /// The pixels of `p`: below, the layer with the stroke's coverage painted in, blended
    /// normal at the layer's opacity, then the layer above normal at its opacity, then inverted.
    @inline(never)
    static func fusedPiece(_ p: FusedPiece, _ plan: FusedPlan, invert: Bool) {
        if plan.vectorBits > 0, fusedPieceInC(p, plan, invert: invert) { return }
        let paint = plan.paint, opacity = plan.opacity, overOpacity = plan.overOpacity
        for j in 0..<p.rows {
            var lo = 0, n = p.count
            if let spans = p.spans {
                let s = spans[j]
                lo = Swift.max(0, s.lowerBound &- p.x)
                n = Swift.min(p.count, s.upperBound &- p.x) &- lo
                if n <= 0 { continue }
            }
            let bit = UInt64(truncatingIfNeeded: j)
            let c = p.committedRows >> bit & 1 != 0 ? p.committed + j &* 64 : p.none
            let t = p.tailRows >> bit & 1 != 0 ? p.tail + j &* 64 : p.none
            let painted = paint != nil && p.strokeRows.contains(j) && (c != p.none || t != p.none)
            let over = p.overRows.contains(j) ? p.over.map { $0 + (j &* p.overStride &+ lo) } : nil
            fusedLoop(n, p.dst + (j &* p.dstStride &+ lo), p.base + (j &* p.baseStride &+ lo), p.layer + (j &* p.layerStride &+ lo), opacity,
                      c + lo, t + lo, painted ? paint : nil, over, overOpacity, invert)
        }
    }

    /// `fusedPiece` in AVX2 where the processor has it (CVector's FusedPiece.c, the same bytes):
    /// false when it does not, having written nothing.
    static func fusedPieceInC(_ p: FusedPiece, _ plan: FusedPlan, invert: Bool) -> Bool {
        // A turned view's spans are Range<Int>s, a frozen pair of Ints: lower, upper.
        var piece = qs_piece(count: p.count, rows: p.rows, dst: p.dst, dst_stride: p.dstStride, base: p.base,
                             base_stride: p.baseStride, layer: p.layer, layer_stride: p.layerStride, committed: p.committed,
                             committed_rows: p.committedRows, tail: p.tail, tail_rows: p.tailRows, none: p.none,
                             over: p.over, over_stride: p.overStride, stroke_rows_lo: p.strokeRows.lowerBound,
                             stroke_rows_hi: p.strokeRows.upperBound, over_rows_lo: p.overRows.lowerBound,
                             over_rows_hi: p.overRows.upperBound, x: p.x,
                             spans: p.spans.map { UnsafeRawPointer($0).assumingMemoryBound(to: Int.self) })
        let bits = Int32(plan.vectorBits), flip: Int32 = invert ? 1 : 0
        guard let paint = plan.paint else { return qs_fused_piece(&piece, nil, plan.opacity, plan.overOpacity, flip, bits) != 0 }
        var colour = qs_stroke_paint(r: paint.r, g: paint.g, b: paint.b, a: paint.a, paints: paint.paints ? 1 : 0)
        return qs_fused_piece(&piece, &colour, plan.opacity, plan.overOpacity, flip, bits) != 0
    }

    /// `count` pixels of the fused path: `base` below, `layer` with the coverage of `committed`
    /// and `tail` painted in when there is a `paint`, blended normal at `opacity`, then `over`
    /// (if any) normal at `overOpacity`, then inverted.
    @inline(__always)
    static func fusedLoop(_ n: Int, _ dst: UnsafeMutablePointer<UInt32>, _ base: UnsafeMutablePointer<UInt32>,
                          _ layer: UnsafeMutablePointer<UInt32>, _ opacity: UInt32,
                          _ committed: UnsafeMutablePointer<UInt8>, _ tail: UnsafeMutablePointer<UInt8>, _ paint: StrokePaint?,
                          _ over: UnsafeMutablePointer<UInt32>?, _ overOpacity: UInt32, _ invert: Bool) {
        @inline(__always) func load(_ p: UnsafeMutablePointer<UInt32>, _ i: Int) -> SIMD8<UInt32> {
            UnsafeRawPointer(p + i).loadUnaligned(as: SIMD8<UInt32>.self)
        }
        @inline(__always) func load(_ p: UnsafeMutablePointer<UInt8>, _ i: Int) -> UInt64 {
            UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self)
        }
        let flip = SIMD8<UInt32>(repeating: 0x00FF_FFFF), opaque = SIMD8<UInt32>(repeating: 0xFF00_0000)
        var i = 0
        while i &+ 8 <= n {
            var s = load(layer, i)
            if let paint, case let m1 = load(committed, i), case let m2 = load(tail, i), m1 | m2 != 0 {
                s = paint.blend(s, m1, m2)
            }
            var d = normal8(s, onto: load(base, i), opacity: opacity)
            if let over { d = normal8(load(over, i), onto: d, opacity: overOpacity) }
            if invert { d = (d | opaque) ^ flip }
            UnsafeMutableRawPointer(dst + i).storeBytes(of: d, as: SIMD8<UInt32>.self)
            i &+= 8
        }
        while i < n {
            var s = layer[i]
            if let paint { s = paint.blend(s, UInt32(Swift.max(committed[i], tail[i]))) }
            var d = normal1(s, onto: base[i], opacity: opacity)
            if let over { d = normal1(over[i], onto: d, opacity: overOpacity) }
            if invert { d = (d | 0xFF00_0000) ^ 0x00FF_FFFF }
            dst[i] = d
            i &+= 1
        }
    }

    /// `LayerBlend.normalRow`'s vector step on eight pixels: `s` at `opacity` over `d`.
    @inline(__always)
    static func normal8(_ src: SIMD8<UInt32>, onto d: SIMD8<UInt32>, opacity: UInt32) -> SIMD8<UInt32> {
        let s = LayerBlend.scaled8(src, opacity)
        let a = unsafeBitCast(s & SIMD8<UInt32>(repeating: 0xFF00_0000), to: LayerBlend.Alphas.self)
        if a.0 | a.1 | a.2 | a.3 == 0 { return d }
        if a.0 & a.1 & a.2 & a.3 == 0xFF00_0000_FF00_0000 { return s }
        let low = SIMD8<UInt32>(repeating: 0x00FF_00FF)
        let inv = SIMD16<UInt16>(repeating: 255) &- unsafeBitCast((s &>> 24) | ((s &>> 8) & 0x00FF_0000), to: SIMD16<UInt16>.self)
        let keptBR = unsafeBitCast(LayerBlend.mul255(unsafeBitCast(d & low, to: SIMD16<UInt16>.self), inv), to: SIMD8<UInt32>.self)
        let keptGA = unsafeBitCast(LayerBlend.mul255(unsafeBitCast((d &>> 8) & low, to: SIMD16<UInt16>.self), inv), to: SIMD8<UInt32>.self)
        return s &+ (keptBR | keptGA &<< 8)
    }

    /// `LayerBlend.normalRow`'s scalar step on one pixel.
    @inline(__always)
    static func normal1(_ src: UInt32, onto d: UInt32, opacity: UInt32) -> UInt32 {
        let s = opacity == 255 ? src : LayerBlend.scaled(src, opacity)
        return s &+ LayerBlend.scaled(d, 255 &- (s >> 24))
    }

    /// Each byte the larger of the two bytes in its place in `a` and `b` (SIMD within a
    /// register: the standard library's `pointwiseMax` on bytes was a call per eight pixels).
    @inline(__always)
    static func byteMax(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let h: UInt64 = 0x8080_8080_8080_8080
        // High bit of each byte: a's low seven bits ≥ b's (no borrow crosses a byte), then the
        // top bits decide where they differ.
        let t = (a | h) &- (b & ~h)
        let atLeast = ((a & ~b) | (~(a ^ b) & t)) & h
        let m = (atLeast >> 7) &* 0xFF
        return (a & m) | (b & ~m)
    }

    /// The eight coverage bytes of `c` as sixteen 16-bit lanes, each byte in both lanes of its
    /// pixel: element moves that LLVM turns into two byte unpacks (the standard library's
    /// widening conversions were calls).
    @inline(__always)
    static func coverageLanes(_ c: UInt64) -> SIMD16<UInt16> {
        let b = unsafeBitCast(SIMD2<UInt64>(c, 0), to: SIMD16<UInt8>.self)
        let d = SIMD32<UInt8>(b[0], 0, b[0], 0, b[1], 0, b[1], 0, b[2], 0, b[2], 0, b[3], 0, b[3], 0,
                              b[4], 0, b[4], 0, b[5], 0, b[5], 0, b[6], 0, b[6], 0, b[7], 0, b[7], 0)
        return unsafeBitCast(d, to: SIMD16<UInt16>.self)
    }
}
