import Geometry

/// Walks curves and lines placing anti-aliased pen dabs every `spacing` pixels of arc length.
/// `toNextDab` is the remainder carried from one call to the next. The walks add up the area
/// their dabs damage (`damage`), read once when the walker is done.
struct PenWalker {
    let tip: BrushTip
    var toNextDab: Double
    /// The last dab's pressure, with its diameter and spacing (a square root saved per dab
    /// while the pressure holds).
    private var sized = (pressure: Double.nan, diameter: 0.0, spacing: 0.0)
    /// Where the stroke itself draws (the sink's clip), as integers and as reals: the path is
    /// walked only near it.
    private let clip: Rect
    private let clipMin: SIMD2<Double>, clipMax: SIMD2<Double>
    /// The copies of each dab beyond the dab itself (mirror painting; none without it). Each
    /// dab the clip lets through is placed again under every copy wherever that lands on the
    /// plane, however far from the clip: the copies are the stroke's exact images, never cut
    /// where the stroke is not.
    private let mirrors: [Symmetry.Copy]
    /// The real box every dab drawn so far, copies included, reaches into (its centre ± radius
    /// + 1); min > max while there are none. Its covering pixels are the union of the dabs'
    /// own, since rounding outwards is monotonic: one rounding per walk instead of four per dab.
    private var reachMin = SIMD2<Double>(repeating: .infinity), reachMax = SIMD2<Double>(repeating: -.infinity)

    init(tip: BrushTip, toNextDab: Double, clip: Rect, mirrors: [Symmetry.Copy] = []) {
        self.tip = tip
        self.toNextDab = toNextDab
        self.clip = clip
        self.mirrors = mirrors
        // An empty clip as an inverted box, which no dab and no curve fits in.
        clipMin = clip.isEmpty ? SIMD2(repeating: .infinity) : SIMD2(Double(clip.minX), Double(clip.minY))
        clipMax = clip.isEmpty ? SIMD2(repeating: -.infinity) : SIMD2(Double(clip.maxX), Double(clip.maxY))
    }

    /// The pixels the dabs drawn so far may have changed, copies included, on the plane.
    var damage: Rect {
        guard reachMin.x <= reachMax.x else { return .empty }
        return Rect.covering(minX: reachMin.x, minY: reachMin.y, maxX: reachMax.x, maxY: reachMax.y).intersection(.plane)
    }

    /// The largest flattening error allowed when a curve is cut into lines, in pixels.
    private static let flatness = 0.05
    /// Upper bound on the pieces one curve is cut into; far-off curves are mostly clipped anyway.
    private static let maxPieces = 1024

    /// Walks a quadratic Bézier from `a` to `b` with control point `c`.
    mutating func quad(from a: StrokePoint, control c: StrokePoint, to b: StrokePoint, into sink: inout StrokeSink) {
        // A uniform cut into n lines strays at most |a − 2c + b| / (4n²) from the curve.
        let bend = ((a.x - 2 * c.x + b.x) * (a.x - 2 * c.x + b.x) + (a.y - 2 * c.y + b.y) * (a.y - 2 * c.y + b.y)).squareRoot()
        let wanted = (bend / (4 * Self.flatness)).squareRoot().roundedUp
        let n = wanted.isFinite ? Int(min(max(wanted, 1), Double(Self.maxPieces))) : Self.maxPieces
        // The curve lies within the triangle a, c, b. With that inside the clip no piece needs
        // clipping (`Clip.segment` would take each whole): most curves of most strokes.
        let hullMin = SIMD2(min(a.x, c.x, b.x), min(a.y, c.y, b.y)), hullMax = SIMD2(max(a.x, c.x, b.x), max(a.y, c.y, b.y))
        // (A NaN anywhere makes every piece's length NaN, which `line` skips either way.)
        let clipped = any(hullMin .< clipMin) || any(hullMax .> clipMax)
        func point(_ i: Int) -> StrokePoint {
            let t = Double(i) / Double(n), u = 1 - t
            return StrokePoint(x: u * u * a.x + 2 * u * t * c.x + t * t * b.x,
                               y: u * u * a.y + 2 * u * t * c.y + t * t * b.y,
                               pressure: u * u * a.pressure + 2 * u * t * c.pressure + t * t * b.pressure)
        }
        guard !clipped else {
            var previous = a
            for i in 1...n {
                let p = point(i)
                line(from: previous, to: p, into: &sink)
                previous = p
            }
            return
        }
        // All the pieces' ends and lengths first, then the walk along them: the divisions and
        // square roots then overlap instead of each waiting on the dab test before it (whether
        // a piece holds a dab is a coin toss the branch predictor loses half the time).
        withUnsafeTemporaryAllocation(of: (point: StrokePoint, length: Double).self, capacity: n) { pieces in
            var previous = a
            for i in 0..<n {
                let p = point(i + 1)
                pieces[i] = (p, Self.length(previous, p))
                previous = p
            }
            previous = a
            for piece in pieces {
                line(from: previous, to: piece.point, length: piece.length, clipped: false, into: &sink)
                previous = piece.point
            }
        }
    }

    private static func length(_ a: StrokePoint, _ b: StrokePoint) -> Double {
        let l = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
        guard l == .infinity else { return l }
        // Past 1e154 the squares overflow: the same length, worked out scaled down.
        let dx = abs(b.x - a.x), dy = abs(b.y - a.y), m = max(dx, dy)
        return m * ((dx / m) * (dx / m) + (dy / m) * (dy / m)).squareRoot()
    }

    /// Lines longer than this (2²⁴ px, a thousand times the largest canvas: a sample flung far off
    /// it) are clipped by where they cross the clip's edges rather than by a + (b − a)·t, whose
    /// rounding grows with the coordinates: a pixel and more from about 10¹⁶ px out.
    private static let farLength = 0x1p24

    /// Walks a straight line. A zero-length line still paints a dab when one is due (a tap).
    mutating func line(from a: StrokePoint, to b: StrokePoint, into sink: inout StrokeSink) {
        line(from: a, to: b, length: Self.length(a, b), clipped: true, into: &sink)
    }

    /// `clipped: false` promises the line lies within the clip.
    private mutating func line(from a: StrokePoint, to b: StrokePoint, length: Double, clipped: Bool, into sink: inout StrokeSink) {
        guard length.isFinite else { return }
        if length == 0 {
            if toNextDab <= 0 { dab(at: a, into: &sink) }
            return
        }
        var t0 = 0.0, t1 = 1.0
        if clipped {
            // Only the part near the clip rectangle is walked; the rest just advances the
            // remainder, so a line from 1e9 costs no more than its visible part.
            let margin = tip.diameter(pressure: max(a.pressure, b.pressure)) / 2 + 2
            if length > Self.farLength {
                guard let (from, to) = Clip.visiblePart(a, b, of: clip, margin: margin) else {
                    skip(length, spacingAt: b)
                    return
                }
                skip(Self.length(a, from), spacingAt: a)
                walk(from: from, to: to, length: Self.length(from, to), into: &sink)
                skip(Self.length(to, b), spacingAt: b)
                return
            }
            guard let range = Clip.segment(a, b, to: clip, margin: margin) else {
                skip(length, spacingAt: b)
                return
            }
            (t0, t1) = range
            skip(length * t0, spacingAt: a)
        }
        walk(from: StrokePoint.lerp(a, b, t0), to: StrokePoint.lerp(a, b, t1), length: length * (t1 - t0), into: &sink)
        if clipped { skip(length * (1 - t1), spacingAt: b) }
    }

    /// Dabs along the line `from` → `to`, `length` long, every spacing from the remainder on.
    private mutating func walk(from: StrokePoint, to: StrokePoint, length inside: Double, into sink: inout StrokeSink) {
        var travelled = 0.0
        while travelled + toNextDab <= inside {
            travelled += toNextDab
            dab(at: StrokePoint.lerp(from, to, travelled / inside), into: &sink)
        }
        toNextDab -= inside - travelled
    }

    /// A dab exactly at the end of a stroke (or of its live tail), whatever the spacing left:
    /// the round cap then reaches a full radius beyond the last sample, as the first dab's does
    /// beyond the first.
    /// Nothing when the last dab is already there (a tap, or a walk that ended on a dab).
    mutating func endDab(at p: StrokePoint, into sink: inout StrokeSink) {
        // Right after a dab the distance to the next is exactly the spacing.
        guard toNextDab != BrushTip.spacing(diameter: tip.diameter(pressure: p.pressure)) else { return }
        dab(at: p, into: &sink)
    }

    private mutating func dab(at p: StrokePoint, into sink: inout StrokeSink) {
        if p.pressure != sized.pressure {
            let d = tip.diameter(pressure: p.pressure)
            sized = (p.pressure, d, BrushTip.spacing(diameter: d))
        }
        let r = sized.diameter / 2
        toNextDab = sized.spacing
        guard place(p.x, p.y, radius: r, within: clipMin, clipMax, into: &sink) else { return }
        // Each copy is the same dab moved (a round dab has no angle to turn).
        for m in mirrors {
            let q = m.apply(p.x, p.y)
            place(q.x, q.y, radius: r, within: Self.planeMin, Self.planeMax, into: &sink)
        }
    }

    /// `Rect.plane` as reals: where a copy may land.
    private static let planeMin = SIMD2(Double(Rect.plane.minX), Double(Rect.plane.minY))
    private static let planeMax = SIMD2(Double(Rect.plane.maxX), Double(Rect.plane.maxY))

    /// Places the dab when the pixels its box covers meet the box `lo`…`hi`; says whether it did.
    @discardableResult
    private mutating func place(_ x: Double, _ y: Double, radius r: Double, within lo: SIMD2<Double>, _ hi: SIMD2<Double>,
                                into sink: inout StrokeSink) -> Bool {
        // For whole-pixel edges, ⌊low⌋ < max exactly when low < max, and ⌈high⌉ > min when high > min.
        let centre = SIMD2(x, y)
        let low = centre - r - 1, high = centre + r + 1
        guard all(low .< hi), all(high .> lo) else { return false }
        sink.dab(x: x, y: y, radius: r)
        reachMin = pointwiseMin(reachMin, low)
        reachMax = pointwiseMax(reachMax, high)
        return true
    }

    /// Advances `distance` along the path without painting, keeping the dab phase.
    private mutating func skip(_ distance: Double, spacingAt p: StrokePoint) {
        guard distance > 0 else { return }
        if distance < toNextDab { toNextDab -= distance; return }
        let s = BrushTip.spacing(diameter: tip.diameter(pressure: p.pressure))
        toNextDab = s - (distance - toNextDab).truncatingRemainder(dividingBy: s)
    }
}

/// Line clipping (Liang–Barsky).
enum Clip {
    /// The part of segment a→b within `rect` grown by `margin`, or nil, as its two ends: cut
    /// first to the x range, then to the y range, each cut setting the coordinate it cuts to the
    /// edge exactly and working out the other from the segment's end nearer that edge. A line
    /// from 1e300 then comes out as well as the Doubles allow: a straight one exactly, one from
    /// a sample on the canvas to the sample flung far off as exactly as a short one. The ends lie
    /// within the grown rectangle (each coordinate held to it against rounding), so the walk
    /// between them is short whatever the line.
    static func visiblePart(_ a: StrokePoint, _ b: StrokePoint, of rect: Rect, margin: Double) -> (StrokePoint, StrokePoint)? {
        let lo = SIMD2(Double(rect.minX) - margin, Double(rect.minY) - margin)
        let hi = SIMD2(Double(rect.maxX) + margin, Double(rect.maxY) + margin)
        var p = a, q = b
        for axis in 0..<2 {
            let (u, v) = (p[axis], q[axis])
            if (u < lo[axis] && v < lo[axis]) || (u > hi[axis] && v > hi[axis]) { return nil }
            let (p0, q0) = (p, q)
            if u < lo[axis] { p = cut(p0, q0, axis: axis, at: lo[axis]) } else if u > hi[axis] { p = cut(p0, q0, axis: axis, at: hi[axis]) }
            if v < lo[axis] { q = cut(p0, q0, axis: axis, at: lo[axis]) } else if v > hi[axis] { q = cut(p0, q0, axis: axis, at: hi[axis]) }
        }
        func held(_ s: StrokePoint) -> StrokePoint {
            StrokePoint(x: min(max(s.x, lo.x), hi.x), y: min(max(s.y, lo.y), hi.y), pressure: min(max(s.pressure, 0), 1))
        }
        return (held(p), held(q))
    }

    /// The point of segment a→b whose coordinate `axis` is `edge` (which lies between the ends'),
    /// worked out from the end nearer the edge. Halves of the differences, which cannot overflow.
    private static func cut(_ a: StrokePoint, _ b: StrokePoint, axis: Int, at edge: Double) -> StrokePoint {
        let other = 1 - axis
        let near = abs(edge - a[axis]) <= abs(edge - b[axis]) ? a : b
        let run = b[axis] * 0.5 - a[axis] * 0.5
        let slope = (b[other] * 0.5 - a[other] * 0.5) / run, pressureSlope = (b.pressure * 0.5 - a.pressure * 0.5) / run
        var s = near
        s[axis] = edge
        s[other] = near[other] + (edge - near[axis]) * slope
        s.pressure = near.pressure + (edge - near[axis]) * pressureSlope
        return s
    }

    /// The parameter range [t0, t1] of segment a→b inside `rect` grown by `margin`, or nil.
    static func segment(_ a: StrokePoint, _ b: StrokePoint, to rect: Rect, margin: Double) -> (Double, Double)? {
        segment(ax: a.x, ay: a.y, bx: b.x, by: b.y, to: rect, margin: margin)
    }

    static func segment(ax: Double, ay: Double, bx: Double, by: Double, to rect: Rect, margin: Double) -> (Double, Double)? {
        let minX = Double(rect.minX) - margin, maxX = Double(rect.maxX) + margin
        let minY = Double(rect.minY) - margin, maxY = Double(rect.maxY) + margin
        // Both ends more than a pixel inside: the whole segment, as the edges below would find
        // (each ratio beyond 0…1), without their four divisions. Most pieces of most strokes.
        if ax > minX + 1, ax < maxX - 1, bx > minX + 1, bx < maxX - 1,
           ay > minY + 1, ay < maxY - 1, by > minY + 1, by < maxY - 1 { return (0, 1) }
        let dx = bx - ax, dy = by - ay
        var t0 = 0.0, t1 = 1.0
        // The four edges as (p, q) pairs, unrolled: this runs for every flattened piece.
        func edge(_ p: Double, _ q: Double) -> Bool {
            if p == 0 { return q >= 0 }
            let r = q / p
            if p < 0 { if r > t1 { return false }; if r > t0 { t0 = r } }
            else { if r < t0 { return false }; if r < t1 { t1 = r } }
            return true
        }
        guard edge(-dx, ax - minX), edge(dx, maxX - ax), edge(-dy, ay - minY), edge(dy, maxY - ay) else { return nil }
        return (t0, t1)
    }
}
