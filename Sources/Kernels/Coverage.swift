import Compute
import Geometry

/// Stamps stroke geometry into an 8-bit coverage mask. Coverage combines with `max`, so a
/// stroke's overlapping dabs never add up: a translucent stroke crossing itself keeps one colour.
public enum Coverage {
    /// An anti-aliased disc: coverage = clamp(radius + 0.5 − distance to the pixel centre, 0, 1).
    /// Only the rim pixels pay for a square root; the inside of each row is a plain fill.
    public static func stampDisc(_ mask: Texture<UInt8>, x cx: Double, y cy: Double, radius r: Double, clip: Rect) {
        let outer = r + 0.5, inner = r - 0.5
        let rows = Rect.covering(minX: cx - outer, minY: cy - outer, maxX: cx + outer, maxY: cy + outer)
            .intersection(clip).intersection(mask.bounds)
        for y in rows.ys {
            let dy = Double(y) + 0.5 - cy
            let outerHalf = (outer * outer - dy * dy)
            guard outerHalf > 0 else { continue }
            let wo = outerHalf.squareRoot()
            let x0 = max(rows.minX, Int((cx - wo - 0.5).rounded(.down)))
            let x1 = min(rows.maxX, Int((cx + wo - 0.5).rounded(.up)) + 1)
            guard x0 < x1 else { continue }
            let innerHalf = inner > 0 ? inner * inner - dy * dy : -1
            // Pixels whose centre lies within `wi` of cx are fully covered.
            var fullLo = x1, fullHi = x1
            if innerHalf > 0 {
                let wi = innerHalf.squareRoot()
                fullLo = max(x0, Int((cx - wi - 0.5).rounded(.up)))
                fullHi = min(x1, Int((cx + wi - 0.5).rounded(.down)) + 1)
                if fullLo >= fullHi { fullLo = x1; fullHi = x1 }
            }
            let row = mask.row(y)
            var x = x0
            while x < x1 {
                if x == fullLo {
                    (row + fullLo).update(repeating: 255, count: fullHi - fullLo)
                    x = fullHi
                    continue
                }
                let dx = Double(x) + 0.5 - cx
                let c = outer - (dx * dx + dy * dy).squareRoot()
                if c > 0 {
                    let v = c >= 1 ? 255 : UInt8(c * 255 + 0.5)
                    if v > row[x] { row[x] = v }
                }
                x += 1
            }
        }
    }

    /// Full coverage over pixels `x0..<x1` of row `y` (clipped to the mask).
    public static func fillSpan(_ mask: Texture<UInt8>, y: Int, x0: Int, x1: Int) {
        guard y >= 0, y < mask.height else { return }
        let a = max(0, x0), b = min(mask.width, x1)
        if a < b { (mask.row(y) + a).update(repeating: 255, count: b - a) }
    }
}
