import Geometry

/// The aptpod demo's hard pen: Bresenham lines whose every pixel is stamped with a midpoint
/// filled circle. Geometry only; spans go to the sink.
enum PixelPen {
    /// The pixel holding a coordinate, clamped so that absurd inputs cannot overflow `Int`.
    static func cell(_ v: Double) -> Int { Int(min(max(v, -reach), reach).rounded(.down)) }

    /// How far from the origin a cell may lie: Bresenham's steps between two stay far from
    /// overflowing `Int`.
    static let reach = 1e12

    /// The cells of segment a→b's ends, an end beyond `reach` replaced by where the segment
    /// crosses the square ±`reach`, so that a line to a sample flung that far keeps its direction
    /// (clamping each coordinate would bend it: to (1e300, 5e299) it would leave at 45°, not
    /// 26.6°); nil when the segment misses that square. Within reach, the ends' own cells.
    static func cells(_ a: StrokePoint, _ b: StrokePoint) -> (from: (x: Int, y: Int), to: (x: Int, y: Int))? {
        let r = Int(reach)
        guard let (p, q) = Clip.visiblePart(a, b, of: Rect(minX: -r, minY: -r, maxX: r, maxY: r), margin: 0) else { return nil }
        return ((cell(p.x), cell(p.y)), (cell(q.x), cell(q.y)))
    }

    /// Circle radius for a diameter: a midpoint circle is always 2r+1 pixels wide, centred on
    /// a pixel, so diameter d paints 2⌊d/2⌋+1 pixels across.
    static func radius(_ tip: BrushTip, pressure: Double) -> Int { Int(tip.diameter(pressure: pressure) / 2) }

    /// Half-widths of each row of a midpoint filled circle of radius r, for dy = 0…r.
    static func halfWidths(radius r: Int) -> [Int] {
        var w = [Int](repeating: 0, count: r + 1)
        var x = r, y = 0, err = 1 - r
        while x >= y {
            w[y] = max(w[y], x)
            w[x] = max(w[x], y)
            y += 1
            if err < 0 { err += 2 * y + 1 } else { x -= 1; err += 2 * (y - x) + 1 }
        }
        return w
    }

    /// Stamps one filled circle centred on pixel (x, y).
    static func stamp(x: Int, y: Int, tip: BrushTip, pressure: Double, into sink: inout StrokeSink) -> Rect {
        stamp(x: x, y: y, halfWidths: halfWidths(radius: radius(tip, pressure: pressure)), into: &sink)
    }

    static func stamp(x: Int, y: Int, halfWidths w: [Int], into sink: inout StrokeSink) -> Rect {
        let r = w.count - 1
        let clip = sink.clip
        let box = Rect(minX: x - r, minY: y - r, maxX: x + r + 1, maxY: y + r + 1).intersection(clip)
        guard !box.isEmpty else { return .empty }
        for row in box.ys {
            let half = w[abs(row - y)]
            let x0 = max(x - half, clip.minX), x1 = min(x + half + 1, clip.maxX)
            if x0 < x1 { sink.span(y: row, x0: x0, x1: x1) }
        }
        return box
    }

    /// A Bresenham line from `a` (already stamped) to `b`, stamping every pixel after `a`.
    /// Only the part near the clip rectangle is walked.
    static func line(from a: (x: Int, y: Int), to b: (x: Int, y: Int), pressures: (Double, Double),
                                    tip: BrushTip, into sink: inout StrokeSink) -> Rect {
        if a == b { return .empty }
        let r = Double(max(radius(tip, pressure: pressures.0), radius(tip, pressure: pressures.1)))
        guard let (t0, t1) = Clip.segment(ax: Double(a.x), ay: Double(a.y), bx: Double(b.x), by: Double(b.y),
                                          to: sink.clip, margin: r + 1) else { return .empty }
        func at(_ t: Double) -> (x: Int, y: Int) {
            if t <= 0 { return a }
            if t >= 1 { return b }
            return (Int((Double(a.x) + Double(b.x - a.x) * t).rounded()), Int((Double(a.y) + Double(b.y - a.y) * t).rounded()))
        }
        let start = at(t0), end = at(t1)
        let steps = max(abs(b.x - a.x), abs(b.y - a.y))
        var damage = Rect.empty
        var cache: (radius: Int, widths: [Int]) = (-1, [])
        // Classic integer Bresenham over the visible part; the first pixel is skipped only when
        // it is the stroke's previous point (already stamped).
        let dx = abs(end.x - start.x), sx = start.x < end.x ? 1 : -1
        let dy = -abs(end.y - start.y), sy = start.y < end.y ? 1 : -1
        var err = dx + dy
        var x = start.x, y = start.y
        var first = start == a
        while true {
            if !first {
                let done = Double(max(abs(x - a.x), abs(y - a.y))) / Double(steps)
                let rr = radius(tip, pressure: pressures.0 + (pressures.1 - pressures.0) * done)
                if rr != cache.radius { cache = (rr, halfWidths(radius: rr)) }
                damage = damage.union(stamp(x: x, y: y, halfWidths: cache.widths, into: &sink))
            }
            first = false
            if x == end.x && y == end.y { break }
            let e2 = 2 * err
            if e2 >= dy { err += dy; x += sx }
            if e2 <= dx { err += dx; y += sy }
        }
        return damage
    }
}
