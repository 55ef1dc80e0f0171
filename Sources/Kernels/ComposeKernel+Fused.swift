import Compute
import Geometry

/// The common stack in one pass: what lies below (a colour, a texture or tiles), the current
/// layer in `normal` mode with the live stroke painted into it, at most one `normal` layer or
/// cache above, and the invert filter, eight pixels at a time in registers, each output pixel
/// written once. Upright views at 100 % take it whenever the stack has that shape and a live
/// stroke or a layer above to combine (the stack view's caches give it that shape whenever every
/// layer above is `normal`), else the general path, pass by pass. (With only the layer over a
/// colour, the general path's fill and one blend were as fast; the turned view's short spans
/// lost more to the per-row set-up than the single pass saved: measured, not guessed.) Every pixel goes through the same integer steps as on the general path
/// (`blendRow`'s stroke blend, then `LayerBlend`'s normal blend), so the bytes are the same; only
/// the order of the loops differs.
extension ComposeKernel {
    /// The live stroke's colour, in the lanes `blendRow` uses.
    struct StrokePaint {
        let colourBR: SIMD16<UInt16>, colourGA: SIMD16<UInt16>, a16: SIMD16<UInt16>
        let r: UInt32, g: UInt32, b: UInt32, a: UInt32, paints: Bool

        init(_ stroke: Stroke) {
            let c = stroke.blendColor
            r = UInt32(c.r); g = UInt32(c.g); b = UInt32(c.b); a = UInt32(c.a); paints = stroke.paints
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
            let alpha = ComposeKernel.mul255(a16, coverage), inv = full &- alpha
            let outBR = unsafeBitCast(ComposeKernel.mul255(colourBR, alpha) &+ ComposeKernel.mul255(br, inv), to: SIMD8<UInt32>.self)
            let outGA = unsafeBitCast(ComposeKernel.mul255(colourGA, alpha) &+ ComposeKernel.mul255(ga, inv), to: SIMD8<UInt32>.self)
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
                         overOpacity: min(over?.opacity ?? 0, 255), baseColor: baseColor)
    }

    /// One row's sources for the fused path, read left to right.
    struct FusedRow {
        let y: Int
        var baseRow: UnsafeMutablePointer<UInt32>?, baseReader: TiledTexture.RowReader?
        var layerReader: TiledTexture.RowReader?
        var committed: TiledMask.RowReader?, tail: TiledMask.RowReader?
        var overRow: UnsafeMutablePointer<UInt32>?, overReader: TiledTexture.RowReader?
        /// Where the stroke and the layer above may have pixels in this row (empty: nowhere).
        let strokeXs: Range<Int>, overXs: Range<Int>
    }

    /// Row `y`'s sources under `plan`.
    func fusedRow(_ y: Int, _ plan: FusedPlan) -> FusedRow {
        var baseRow: UnsafeMutablePointer<UInt32>?, baseReader: TiledTexture.RowReader?
        switch below {
        case .color: break
        case .texture(let t): baseRow = t.row(y)
        case .tiles(let t, _): baseReader = t.reader(row: y)
        }
        var strokeXs = 0..<0, overXs = 0..<0
        var committed: TiledMask.RowReader?, tail: TiledMask.RowReader?
        if let s = plan.stroke, y >= s.bounds.minY, y < s.bounds.maxY {
            strokeXs = s.bounds.minX..<max(s.bounds.minX, s.bounds.maxX)
            committed = s.committed.reader(row: y); tail = s.tail.reader(row: y)
        }
        var overRow: UnsafeMutablePointer<UInt32>?, overReader: TiledTexture.RowReader?
        if let o = plan.over, y >= o.bounds.minY, y < o.bounds.maxY {
            overXs = o.bounds.minX..<max(o.bounds.minX, o.bounds.maxX)
            switch o.pixels {
            case .texture(let t): overRow = t.row(y)
            case .tiles(let t): overReader = t.reader(row: y)
            case .group: break
            }
        }
        return FusedRow(y: y, baseRow: baseRow, baseReader: baseReader, layerReader: plan.opacity > 0 ? layer?.reader(row: y) : nil,
                        committed: committed, tail: tail, overRow: overRow, overReader: overReader, strokeXs: strokeXs, overXs: overXs)
    }

    /// Composes row `y` over `xs` into `dst` (indexed by canvas x) in one pass and returns true
    /// when the stack has the fused path's shape; returns false, having written nothing, when not.
    func composeRowFused(_ y: Int, xs: Range<Int>, into dst: UnsafeMutablePointer<UInt32>) -> Bool {
        guard let plan = fusedPlan() else { return false }
        var row = fusedRow(y, plan)
        composeFused(&row, xs: xs, plan, into: dst)
        return true
    }

    /// Composes the rows `ys` over `xs` of the output in one pass, a tile column at a time (each
    /// row's 64 pixels of it, then the next column) and returns true when the stack has the
    /// fused path's shape; returns false, having written nothing, when not. Column by column,
    /// each tile's rows (and each mask tile's one-line rows) are read one after another, which
    /// the caches fetch ahead, where row by row every row starts a new page in every tile.
    func composeFused(rows ys: Range<Int>, xs: Range<Int>) -> Bool {
        guard let plan = fusedPlan() else { return false }
        guard !xs.isEmpty, !ys.isEmpty else { return true }
        var rows = ys.map { fusedRow($0, plan) }
        var x = xs.lowerBound
        while x < xs.upperBound {
            let end = Swift.min(xs.upperBound, (x >> 6 &+ 1) << 6)
            for i in rows.indices { composeFused(&rows[i], xs: x..<end, plan, into: output.row(rows[i].y)) }
            x = end
        }
        return true
    }

    /// `row`'s pixels over `xs` (calls for one row must not go leftward) into `dst` (indexed
    /// by canvas x).
    @inline(__always)
    func composeFused(_ row: inout FusedRow, xs: Range<Int>, _ plan: FusedPlan, into dst: UnsafeMutablePointer<UInt32>) {
        var x = xs.lowerBound
        while x < xs.upperBound {
            let tx = x >> 6, start = tx << 6, offset = x &- start
            // A piece within one tile column that each source covers wholly or not at all.
            var end = Swift.min(xs.upperBound, start &+ 64)
            func cut(_ e: Int) { if e > x, e < end { end = e } }
            cut(row.strokeXs.lowerBound); cut(row.strokeXs.upperBound); cut(row.overXs.lowerBound); cut(row.overXs.upperBound)
            let base = row.baseRow.map { $0 + x } ?? row.baseReader?.pointer(column: tx).map { $0 + offset }
            let l = row.layerReader?.pointer(column: tx).map { $0 + offset }
            var c: UnsafeMutablePointer<UInt8>?, t: UnsafeMutablePointer<UInt8>?
            if row.strokeXs.contains(x) {
                c = row.committed?.pointerIfSet(column: tx).map { $0 + offset }
                t = row.tail?.pointerIfSet(column: tx).map { $0 + offset }
            }
            let piecePaint = c != nil || t != nil ? plan.paint : nil
            var o: UnsafeMutablePointer<UInt32>?
            if row.overXs.contains(x) { o = row.overRow.map { $0 + x } ?? row.overReader?.pointer(column: tx).map { $0 + offset } }
            Self.fusedRun(count: end &- x, into: dst + x, base: base, baseColor: plan.baseColor,
                          layer: l, layerShown: l != nil || piecePaint != nil, opacity: plan.opacity,
                          committed: c, tail: t, paint: piecePaint, over: o, overOpacity: plan.overOpacity, invert: invert)
            x = end
        }
    }

    /// `count` pixels of the fused path: below (`base`, or `baseColor` where nil), the layer
    /// (transparent where nil) with the stroke's coverage painted in (none where `paint` is nil),
    /// blended normal at `opacity` when `layerShown`, then `over` normal at `overOpacity`, then
    /// inverted.
    @inline(__always)
    static func fusedRun(count n: Int, into dst: UnsafeMutablePointer<UInt32>, base: UnsafeMutablePointer<UInt32>?, baseColor: UInt32,
                         layer: UnsafeMutablePointer<UInt32>?, layerShown: Bool, opacity: UInt32,
                         committed: UnsafeMutablePointer<UInt8>?, tail: UnsafeMutablePointer<UInt8>?, paint: StrokePaint?,
                         over: UnsafeMutablePointer<UInt32>?, overOpacity: UInt32, invert: Bool) {
        @inline(__always) func load(_ p: UnsafeMutablePointer<UInt32>, _ i: Int) -> SIMD8<UInt32> {
            UnsafeRawPointer(p + i).loadUnaligned(as: SIMD8<UInt32>.self)
        }
        @inline(__always) func load(_ p: UnsafeMutablePointer<UInt8>?, _ i: Int) -> UInt64 {
            p.map { UnsafeRawPointer($0 + i).loadUnaligned(as: UInt64.self) } ?? 0
        }
        let flip = SIMD8<UInt32>(repeating: 0x00FF_FFFF), opaque = SIMD8<UInt32>(repeating: 0xFF00_0000)
        let fill = SIMD8<UInt32>(repeating: baseColor)
        var i = 0
        while i &+ 8 <= n {
            var d = base.map { load($0, i) } ?? fill
            if layerShown {
                var s = layer.map { load($0, i) } ?? SIMD8<UInt32>()
                if let paint, case let m1 = load(committed, i), case let m2 = load(tail, i), m1 | m2 != 0 {
                    s = paint.blend(s, m1, m2)
                }
                d = normal8(s, onto: d, opacity: opacity)
            }
            if let over { d = normal8(load(over, i), onto: d, opacity: overOpacity) }
            if invert { d = (d | opaque) ^ flip }
            UnsafeMutableRawPointer(dst + i).storeBytes(of: d, as: SIMD8<UInt32>.self)
            i &+= 8
        }
        while i < n {
            var d = base?[i] ?? baseColor
            if layerShown {
                var s = layer?[i] ?? 0
                if let paint { s = paint.blend(s, UInt32(Swift.max(committed?[i] ?? 0, tail?[i] ?? 0))) }
                d = normal1(s, onto: d, opacity: opacity)
            }
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
        let keptBR = unsafeBitCast(mul255(unsafeBitCast(d & low, to: SIMD16<UInt16>.self), inv), to: SIMD8<UInt32>.self)
        let keptGA = unsafeBitCast(mul255(unsafeBitCast((d &>> 8) & low, to: SIMD16<UInt16>.self), inv), to: SIMD8<UInt32>.self)
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
