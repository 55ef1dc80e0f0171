import CVector
import Compute
import Geometry

/// A turned, mirrored or freely zoomed view: each output pixel samples the composed canvas
/// through the transform's inverse (`ViewTransform.sampling`), nearest when unturned at 100 % or
/// more, else bilinear from the canvas or a box-averaged (mipmap) level of it. The canvas rows a
/// group samples are composed once into scratch by `composeRow`, then sampled.
extension ComposeKernel {
    /// Such a view is composed in large groups: a group's preimage is a parallelogram whose
    /// rows are composed only as far as it reaches (`Preimage`), about as many canvas pixels as
    /// it shows, and long rows spread each band's tile lookups and each row's set-up over more
    /// pixels. 640×216 splits a 1920×1080 window into fifteen equal groups, whose preimage
    /// (about 0.6 MB touched) stays in a core's L2 cache between composing and sampling; 128²
    /// squares made a turned frame a third slower (docs/performance.md).
    public static let viewThreadsPerThreadgroup = Size(width: 640, height: 216)

    /// The groups for a region of such a view: `viewThreadsPerThreadgroup`, or 128² squares for
    /// a region under four of those (a stroke's damage), so that the workers share it, and for a
    /// view sampling a box-averaged level, whose rows are composed across the preimage's whole
    /// bounding box (the more of it a square's preimage fills, the less is composed unseen).
    static func viewThreadgroup(for region: Size, sampling: ViewTransform.Sampling) -> Size {
        let large = region.area >= 4 * viewThreadsPerThreadgroup.area && sampling == .bilinear(level: 1)
        return large ? viewThreadsPerThreadgroup : Size(width: 128, height: 128)
    }

    /// Sample coordinates are fixed point with this many fractional bits: stepping by whole
    /// integers is exact, so a pixel's sample is the same whichever group (and thread) holds it.
    static let fractionBits: Int64 = 24

    /// One threadgroup of a view that `executeTransformed` does not show, its scratch borrowed
    /// from `scratch`.
    public func executeView(_ group: Threadgroup, scratch pool: ScratchPool) {
        let g = group.threadPositions
        guard !g.isEmpty else { return }
        let t = transform
        var level = 1, bilinear = false
        if case .bilinear(let f) = t.sampling { level = f; bilinear = true }
        // Level coordinates (canvas / level) of window pixel (wx, wy)'s centre, less ½ when
        // bilinear (then whole numbers are level pixels' centres): u = a·wx + b·wy + c.
        let inv = t.inverseMatrix, f = Double(level), ox = 0.5 - Double(t.x), oy = 0.5 - Double(t.y)
        let half = bilinear ? 0.5 : 0
        let (ua, ub, uc) = (inv.a / f, inv.b / f, (inv.a * ox + inv.b * oy) / f - half)
        let (va, vb, vc) = (inv.c / f, inv.d / f, (inv.c * ox + inv.d * oy) / f - half)
        // The level's pixels: blocks that meet the canvas.
        let levelBounds = Rect(minX: Self.floorDiv(canvas.minX, level), minY: Self.floorDiv(canvas.minY, level),
                               maxX: -Self.floorDiv(-canvas.maxX, level), maxY: -Self.floorDiv(-canvas.maxY, level))
        // The samples at the group's corners bound them all (the map is linear).
        let corners = [(g.minX, g.minY), (g.maxX - 1, g.minY), (g.maxX - 1, g.maxY - 1), (g.minX, g.maxY - 1)].map { p in
            (u: ua * Double(p.0) + ub * Double(p.1) + uc, v: va * Double(p.0) + vb * Double(p.1) + vc)
        }
        let us = corners.map(\.u), vs = corners.map(\.v)
        let reach = Rect.covering(minX: min(us[0], us[1], us[2], us[3]) - 2, minY: min(vs[0], vs[1], vs[2], vs[3]) - 2,
                                  maxX: max(us[0], us[1], us[2], us[3]) + 3, maxY: max(vs[0], vs[1], vs[2], vs[3]) + 3)
        func deskOnly() { for y in g.ys { (output.row(y) + g.minX).update(repeating: Self.desk, count: g.width) } }
        guard !reach.intersection(levelBounds).isEmpty else { return deskOnly() }
        let one = Double(Int64(1) << Self.fractionBits)
        func fixed(_ v: Double) -> Int64 { Int64((v * one).rounded()) }
        let (A, B, C, D, E, F) = (fixed(ua), fixed(ub), fixed(uc), fixed(va), fixed(vb), fixed(vc))
        let fb = Self.fractionBits
        var uMin = Int64.max, uMax = Int64.min, vMin = Int64.max, vMax = Int64.min
        for (x, y) in [(g.minX, g.minY), (g.maxX - 1, g.minY), (g.maxX - 1, g.maxY - 1), (g.minX, g.maxY - 1)] {
            let u = A &* Int64(x) &+ B &* Int64(y) &+ C, v = D &* Int64(x) &+ E &* Int64(y) &+ F
            uMin = min(uMin, u); uMax = max(uMax, u); vMin = min(vMin, v); vMax = max(vMax, v)
        }
        // The scratch: every level pixel a sample reads (bilinear: the one right and below too).
        var lx0 = Int(uMin >> fb), lx1 = Int(uMax >> fb) + 2, ly0 = Int(vMin >> fb), ly1 = Int(vMax >> fb) + 2
        if bilinear {
            // Only samples that meet the level's blocks are taken (`samples`), and their pixels
            // lie within a few steps of those blocks: desk farther out is never read, so it is
            // neither composed nor filled (a turned view's corners show a fifth of desk).
            let margin = Int((4 * Swift.max(abs(ua), abs(va))).rounded(.up)) &+ 4
            lx0 = Swift.max(lx0, levelBounds.minX &- margin); lx1 = Swift.min(lx1, levelBounds.maxX &+ margin)
            ly0 = Swift.max(ly0, levelBounds.minY &- margin); ly1 = Swift.min(ly1, levelBounds.maxY &+ margin)
        }
        guard lx0 < lx1, ly0 < ly1 else { return deskOnly() }
        let w = lx1 - lx0, h = ly1 - ly0
        pool.withBuffer(of: UInt32.self, count: w * h) { scratch in
            let quad = Preimage(corners.map { ($0.u, $0.v) })
            if level == 1, beyond == nil, let plan = fusedPlan() {
                composeViewRows(ly0..<ly1, within: lx0..<lx1, quad, plan, into: scratch, width: w)
            } else {
                for ly in ly0..<ly1 {
                    let span = level == 1 ? quad.span(ofRow: ly, within: lx0..<lx1) : lx0..<lx1
                    fillLevelRow(ly, span: span, level: level, bounds: levelBounds, into: scratch + (ly - ly0) * w - lx0)
                }
            }
            for y in g.ys {
                let dst = output.row(y)
                // Bilinear, a sample whose four pixels all lie off the level's blocks is the desk
                // exactly (the weights sum to one): those are written as such, unsampled.
                let xs = bilinear ? Self.samples(in: g.xs, row: Double(y), u: (ua, ub, uc), v: (va, vb, vc), meeting: levelBounds) : g.xs
                (dst + g.minX).update(repeating: Self.desk, count: xs.lowerBound &- g.minX)
                (dst + xs.upperBound).update(repeating: Self.desk, count: g.maxX &- xs.upperBound)
                var u = A &* Int64(xs.lowerBound) &+ B &* Int64(y) &+ C, v = D &* Int64(xs.lowerBound) &+ E &* Int64(y) &+ F
                if bilinear {
                    // Coordinates from the scratch's corner.
                    bilinearRow(scratch, width: w, height: h, u: u &- Int64(lx0) << fb, v: v &- Int64(ly0) << fb, a: A, d: D,
                                count: xs.count, into: dst + xs.lowerBound)
                } else {
                    for x in g.xs {
                        dst[x] = scratch[(Int(truncatingIfNeeded: v >> fb) &- ly0) &* w &+ (Int(truncatingIfNeeded: u >> fb) &- lx0)]
                        u &+= A; v &+= D
                    }
                }
            }
        }
    }

    /// `count` bilinear samples of `scratch` (`width`×`height` pixels) into `dst`, sample i at
    /// (u + i·a, v + i·d) in fixed point from the scratch's corner: the row in AVX-512 or AVX2
    /// where the processor has them (CVector's BilinearRow.c), else four at a time in Swift's
    /// vectors and the rest one by one, with the same arithmetic.
    private func bilinearRow(_ scratch: UnsafeMutablePointer<UInt32>, width w: Int, height h: Int, u: Int64, v: Int64,
                             a A: Int64, d D: Int64, count: Int, into dst: UnsafeMutablePointer<UInt32>) {
        let fb = Self.fractionBits
        var ur = u, vr = v, x = 0
        if vectorBits > 0, w < 1 << 16, h < 1 << 16, count > 0 {
            x = Int(qs_bilinear_row(scratch, Int32(w), UInt64(bitPattern: ur), UInt64(bitPattern: vr), A, D, Int32(count), dst,
                                    Int32(vectorBits)))
            ur &+= A &* Int64(x); vr &+= D &* Int64(x)
        }
        while x &+ 4 <= count {
            var c00 = SIMD4<UInt32>(), c10 = SIMD4<UInt32>(), c01 = SIMD4<UInt32>(), c11 = SIMD4<UInt32>()
            var fx = SIMD4<UInt32>(), fy = SIMD4<UInt32>()
            for k in 0..<4 {
                let p = scratch + (Int(truncatingIfNeeded: vr >> fb) &* w &+ Int(truncatingIfNeeded: ur >> fb))
                c00[k] = p[0]; c10[k] = p[1]; c01[k] = p[w]; c11[k] = p[w &+ 1]
                fx[k] = UInt32(truncatingIfNeeded: (ur >> (fb &- 8)) & 0xFF); fy[k] = UInt32(truncatingIfNeeded: (vr >> (fb &- 8)) & 0xFF)
                ur &+= A; vr &+= D
            }
            UnsafeMutableRawPointer(dst + x).storeBytes(of: Self.bilinear4(c00, c10, c01, c11, fx, fy), as: SIMD4<UInt32>.self)
            x &+= 4
        }
        while x < count {
            let p = scratch + (Int(truncatingIfNeeded: vr >> fb) &* w &+ Int(truncatingIfNeeded: ur >> fb))
            let fx = UInt32(truncatingIfNeeded: (ur >> (fb &- 8)) & 0xFF), fy = UInt32(truncatingIfNeeded: (vr >> (fb &- 8)) & 0xFF)
            dst[x] = Self.bilinear(p[0], p[1], p[w], p[w &+ 1], fx, fy)
            ur &+= A; vr &+= D
            x &+= 1
        }
    }

    /// The scratch rows `lys` (`width` apart, the first pixel `limit.lowerBound`) of a view at
    /// level 1 through the fused path: each row's span (`Preimage.span(ofRow:within:)`), desk off
    /// the canvas, the canvas in bands of the rows in one row of tiles, which share their tiles'
    /// lookups (row by row, those cost more than the one pass saved).
    private func composeViewRows(_ lys: Range<Int>, within limit: Range<Int>, _ quad: Preimage, _ plan: FusedPlan,
                                 into scratch: UnsafeMutablePointer<UInt32>, width w: Int) {
        withUnsafeTemporaryAllocation(of: Range<Int>.self, capacity: lys.count) { buffer in
            let spans = buffer.baseAddress!, columns = canvas.minX..<max(canvas.minX, canvas.maxX)
            // Composed out to whole runs of eight canvas pixels where the scratch allows: a
            // turned row's span starts anywhere, and the ragged ends, pixel by pixel, cost as
            // much as the rest of the row.
            let runsFrom = Swift.max(columns.lowerBound, limit.lowerBound), runsTo = Swift.min(columns.upperBound, limit.upperBound)
            for j in 0..<lys.count {
                let ly = lys.lowerBound &+ j, row = scratch + (j &* w &- limit.lowerBound)
                let span = quad.span(ofRow: ly, within: limit)
                let shown = ly >= canvas.minY && ly < canvas.maxY
                let lo = shown ? Swift.max(span.lowerBound, columns.lowerBound) : span.upperBound
                let hi = shown ? Swift.min(span.upperBound, columns.upperBound) : span.upperBound
                guard lo < hi else {
                    (row + span.lowerBound).update(repeating: Self.desk, count: span.count)
                    (spans + j).initialize(to: Range(uncheckedBounds: (lo, lo)))
                    continue
                }
                (row + span.lowerBound).update(repeating: Self.desk, count: lo &- span.lowerBound)
                (row + hi).update(repeating: Self.desk, count: span.upperBound &- hi)
                let first = Swift.max(lo & ~7, runsFrom), end = Swift.min((hi &+ 7) & ~7, runsTo)
                (spans + j).initialize(to: Range(uncheckedBounds: (first, Swift.max(first, end))))
            }
            var y0 = lys.lowerBound
            while y0 < lys.upperBound {
                let y1 = min(lys.upperBound, (y0 >> 6 + 1) << 6), first = y0 &- lys.lowerBound
                var lo = Int.max, hi = Int.min
                for j in first..<(y1 &- lys.lowerBound) where !spans[j].isEmpty {
                    lo = min(lo, spans[j].lowerBound); hi = max(hi, spans[j].upperBound)
                }
                if lo < hi {
                    composeFusedBand(y0..<y1, xs: lo..<hi, plan, into: scratch + first &* w - limit.lowerBound, stride: w, spans: spans + first)
                }
                y0 = y1
            }
        }
    }

    /// Level row `ly` over `span` into `dst` (indexed by level x): the canvas's composed pixels
    /// (level 1) or the rounded means of its `level`×`level` blocks; desk off the canvas.
    private func fillLevelRow(_ ly: Int, span: Range<Int>, level: Int, bounds: Rect, into dst: UnsafeMutablePointer<UInt32>) {
        guard !span.isEmpty else { return }
        guard ly >= bounds.minY, ly < bounds.maxY else {
            return (dst + span.lowerBound).update(repeating: Self.desk, count: span.count)
        }
        if level == 1 {
            let inside = span.clamped(to: canvas.minX..<max(canvas.minX, canvas.maxX))
            guard !inside.isEmpty else { return (dst + span.lowerBound).update(repeating: Self.desk, count: span.count) }
            (dst + span.lowerBound).update(repeating: Self.desk, count: inside.lowerBound - span.lowerBound)
            composeShownRow(ly, xs: inside, into: dst)
            (dst + inside.upperBound).update(repeating: Self.desk, count: span.upperBound - inside.upperBound)
            return
        }
        // The canvas's rows under the level row, over the blocks of `span`, then averaged.
        let x0 = span.lowerBound * level, width = span.count * level
        let rows = UnsafeMutablePointer<UInt32>.allocate(capacity: width * level)
        defer { rows.deallocate() }
        composeAveraged(x0: x0, y0: ly * level, width: width, f: level, scratch: rows, into: dst + span.lowerBound)
    }

    /// A group's preimage: the parallelogram its samples lie in, in level coordinates, as the
    /// two chains of edges from its top corner to its bottom one. The left chain's x is convex
    /// in y (one bend, at its middle corner), so across a band of rows it is least at one of
    /// the band's edges or at that corner; the right chain's greatest likewise. A scratch row's
    /// span costs a few comparisons and four multiplications (the four edges clipped one by one
    /// to the band, and floor and ceiling calls, were 3 % of a turned frame).
    struct Preimage {
        /// An edge's line: x at y.
        struct Line {
            var x0 = 0.0, y0 = 0.0, slope = 0.0
            func x(_ y: Double) -> Double { x0 + (y - y0) * slope }
        }
        let top: Double, bottom: Double
        /// Each chain's middle corner, and its edges above and below that corner.
        let left: (x: Double, y: Double), right: (x: Double, y: Double)
        let leftUpper: Line, leftLower: Line, rightUpper: Line, rightLower: Line

        /// `corners` in order round the parallelogram (the top corner's opposite is the bottom one).
        init(_ corners: [(Double, Double)]) {
            let t = corners.indices.min { corners[$0].1 < corners[$1].1 } ?? 0
            let top = corners[t], bottom = corners[(t + 2) % 4]
            let one = corners[(t + 1) % 4], other = corners[(t + 3) % 4]
            // The chain whose first edge turns the other's way round (their cross product) is the left.
            let cross = (one.0 - top.0) * (other.1 - top.1) - (other.0 - top.0) * (one.1 - top.1)
            let (l, r) = cross < 0 ? (one, other) : (other, one)
            func line(_ p: (Double, Double), _ q: (Double, Double)) -> Line {
                // A level edge is evaluated only at its own y, where any slope gives its start.
                Line(x0: p.0, y0: p.1, slope: p.1 == q.1 ? 0 : (q.0 - p.0) / (q.1 - p.1))
            }
            self.top = top.1; self.bottom = bottom.1
            left = l; right = r
            leftUpper = line(top, l); leftLower = line(l, bottom)
            rightUpper = line(top, r); rightLower = line(r, bottom)
        }

        /// The level pixels of row `ly` that samples inside the parallelogram may read, within
        /// `limit`: those whose row (floor of v) is `ly` or the one above read it, at the floor
        /// of u and the pixel right of it. A few pixels of margin either way.
        @inline(__always)
        func span(ofRow ly: Int, within limit: Range<Int>) -> Range<Int> {
            let b0 = Swift.max(Double(ly) - 1.01, top), b1 = Swift.min(Double(ly) + 1.01, bottom)
            guard b0 <= b1 else { return limit.lowerBound..<limit.lowerBound }
            @inline(__always) func leftX(_ y: Double) -> Double { y < left.y ? leftUpper.x(y) : leftLower.x(y) }
            @inline(__always) func rightX(_ y: Double) -> Double { y < right.y ? rightUpper.x(y) : rightLower.x(y) }
            let inside = (l: left.y >= b0 && left.y <= b1, r: right.y >= b0 && right.y <= b1)
            let lo = Swift.min(leftX(b0), leftX(b1), inside.l ? left.x : .infinity)
            let hi = Swift.max(rightX(b0), rightX(b1), inside.r ? right.x : -.infinity)
            // Clamped to the limit before converting (so no value is out of Int's range), and
            // truncated, a pixel more of margin standing in for the floor and the ceiling: on
            // x86-64's baseline those are calls into libm.
            let first = Swift.min(Swift.max(lo, Double(limit.lowerBound)), Double(limit.upperBound))
            let last = Swift.min(Swift.max(hi, Double(limit.lowerBound)), Double(limit.upperBound))
            let start = Swift.max(Int(first) &- 3, limit.lowerBound)
            return Range(uncheckedBounds: (start, Swift.max(start, Swift.min(Int(last) &+ 4, limit.upperBound))))
        }
    }

    /// The four pixels around a sample weighed by its fractions (0…255 of a pixel) right and
    /// down, rounded after the blend across and again after the one down, opaque. Each pixel is
    /// spread over a 64-bit word, a channel to each 16-bit lane (B, R, G, A), so one multiply
    /// weighs all four channels.
    @inline(__always)
    static func bilinear(_ p00: UInt32, _ p10: UInt32, _ p01: UInt32, _ p11: UInt32, _ fx: UInt32, _ fy: UInt32) -> UInt32 {
        let mask: UInt64 = 0x00FF_00FF_00FF_00FF, round: UInt64 = 0x0080_0080_0080_0080
        @inline(__always) func spread(_ p: UInt32) -> UInt64 { (UInt64(p) | UInt64(p) << 24) & mask }
        let wx = UInt64(fx), ix = 256 &- wx, wy = UInt64(fy), iy = 256 &- wy
        let top = ((spread(p00) &* ix &+ spread(p10) &* wx &+ round) >> 8) & mask
        let bottom = ((spread(p01) &* ix &+ spread(p11) &* wx &+ round) >> 8) & mask
        let v = ((top &* iy &+ bottom &* wy &+ round) >> 8) & mask
        return UInt32(truncatingIfNeeded: v & 0x00FF_00FF) | UInt32(truncatingIfNeeded: (v >> 24) & 0xFF00_FF00) | 0xFF00_0000
    }

    /// `bilinear` for four pixels at once, `fx`, `fy` their fractions: masking with 0x00FF00FF
    /// leaves blue and red (and, shifted first, green and alpha) in the 16-bit halves of each
    /// lane, where p·(256 − w) + q·w + 128 stays under 2¹⁶; the same roundings, so the same bytes.
    @inline(__always)
    static func bilinear4(_ p00: SIMD4<UInt32>, _ p10: SIMD4<UInt32>, _ p01: SIMD4<UInt32>, _ p11: SIMD4<UInt32>,
                          _ fx: SIMD4<UInt32>, _ fy: SIMD4<UInt32>) -> SIMD4<UInt32> {
        let low = SIMD4<UInt32>(repeating: 0x00FF_00FF)
        @inline(__always) func lanes(_ v: SIMD4<UInt32>) -> SIMD8<UInt16> { unsafeBitCast(v, to: SIMD8<UInt16>.self) }
        @inline(__always) func weigh(_ a: SIMD8<UInt16>, _ b: SIMD8<UInt16>, _ w: SIMD8<UInt16>) -> SIMD8<UInt16> {
            (a &* (SIMD8<UInt16>(repeating: 256) &- w) &+ b &* w &+ SIMD8<UInt16>(repeating: 128)) &>> 8
        }
        let wx = lanes(fx | fx &<< 16), wy = lanes(fy | fy &<< 16)
        let rb = weigh(weigh(lanes(p00 & low), lanes(p10 & low), wx), weigh(lanes(p01 & low), lanes(p11 & low), wx), wy)
        let ga = weigh(weigh(lanes(p00 &>> 8 & low), lanes(p10 &>> 8 & low), wx), weigh(lanes(p01 &>> 8 & low), lanes(p11 &>> 8 & low), wx), wy)
        return unsafeBitCast(rb, to: SIMD4<UInt32>.self) | unsafeBitCast(ga, to: SIMD4<UInt32>.self) &<< 8 | SIMD4(repeating: 0xFF00_0000)
    }

    /// The pixels of `xs` on window row `y` whose bilinear samples may read a pixel of `bounds`:
    /// the sample at x is (u, v) = (a·x + b·y + c, …) and reads the pixels at ⌊u⌋, ⌊u⌋ + 1 and
    /// ⌊v⌋, ⌊v⌋ + 1. Worked out in floating point and widened by two or three pixels each way,
    /// so that it never leaves out a pixel that reads the canvas (one more pixel sampled costs
    /// nothing; `executeView`'s scratch reaches four steps past the canvas for them).
    static func samples(in xs: Range<Int>, row y: Double, u: (Double, Double, Double), v: (Double, Double, Double),
                        meeting bounds: Rect) -> Range<Int> {
        var lo = Double(xs.lowerBound), hi = Double(xs.upperBound)
        // a·x + k within [first − 1, end): x within an interval, or none, or all (a = 0).
        func clip(_ a: Double, _ k: Double, _ first: Int, _ end: Int) {
            let p = (Double(first) - 1 - k), q = Double(end) - k
            if a == 0 {
                if !(p <= 0 && 0 < q) { hi = lo }
                return
            }
            lo = max(lo, min(p / a, q / a)); hi = min(hi, max(p / a, q / a))
        }
        clip(u.0, u.1 * y + u.2, bounds.minX, bounds.maxX)
        clip(v.0, v.1 * y + v.2, bounds.minY, bounds.maxY)
        guard lo < hi else { return xs.lowerBound..<xs.lowerBound }
        // Truncated, a pixel more of margin standing in for floor and ceiling (libm calls on
        // x86-64's baseline); `lo` and `hi` lie within `xs`, so they convert.
        let first = max(xs.lowerBound, Int(lo) &- 3), end = min(xs.upperBound, Int(hi) &+ 3)
        return first < end ? first..<end : xs.lowerBound..<xs.lowerBound
    }

    /// ⌊a / b⌋ for b > 0.
    static func floorDiv(_ a: Int, _ b: Int) -> Int { a >= 0 ? a / b : -((-a + b - 1) / b) }
}
