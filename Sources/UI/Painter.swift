import Compute
import Geometry
import Kernels

/// Draws anti-aliased shapes and text into 0xAARRGGBB pixels within a clip, blending over what
/// is there. Over an opaque frame that is ordinary "over"; over a transparent sprite it builds
/// premultiplied pixels, which `blit` then lays over a frame. Coverage is the exact area a shape
/// covers of each pixel (boxes) or a one-pixel ramp across its edge (circles).
public struct Painter {
    public let target: Texture<UInt32>
    /// Only pixels inside this are touched.
    public let clip: Rect

    public init(_ target: Texture<UInt32>, clip: Rect) {
        self.target = target
        self.clip = clip.intersection(target.bounds)
    }

    /// Blends `color` (straight alpha) over pixel (x, y) with `coverage` 0…1. The caller clips.
    @inline(__always)
    func blend(_ x: Int, _ y: Int, _ color: Color, _ coverage: Double) {
        // + 0.5 and truncation: rounding a non-negative value without a call into libm.
        let k = UInt32(Double(color.a) * min(max(coverage, 0), 1) + 0.5)
        guard k > 0 else { return }
        let d = target[x, y], inv = 255 &- k
        @inline(__always) func ch(_ c: UInt8, _ shift: UInt32) -> UInt32 {
            ((UInt32(c) &* k &+ (d >> shift & 0xFF) &* inv &+ 127) / 255) << shift
        }
        let a = (k &* 255 &+ (d >> 24) &* inv &+ 127) / 255
        target[x, y] = a << 24 | ch(color.r, 16) | ch(color.g, 8) | ch(color.b, 0)
    }

    /// Fills `box` with `color`; its fractional edges are covered in proportion.
    public func fill(_ box: Box, _ color: Color) {
        let r = box.covering.intersection(clip)
        guard !r.isEmpty else { return }
        // The columns wholly inside the box share a row's coverage (cx is exactly 1, so cx · cy
        // is cy): a panel's inside is blended a run at a time, the same bytes as pixel by pixel.
        func column(_ x: Double) -> Int { Int(min(max(x, Double(r.minX)), Double(r.maxX))) }
        let innerMin = column(box.x.rounded(.up)), innerMax = max(innerMin, column(box.maxX.rounded(.down)))
        for y in r.ys {
            let cy = min(Double(y + 1), box.maxY) - max(Double(y), box.y)
            for x in r.minX..<innerMin { blend(x, y, color, (min(Double(x + 1), box.maxX) - max(Double(x), box.x)) * cy) }
            for x in innerMax..<r.maxX { blend(x, y, color, (min(Double(x + 1), box.maxX) - max(Double(x), box.x)) * cy) }
            blendRun(target.row(y) + innerMin, count: innerMax - innerMin, color, coverage: cy)
        }
    }

    /// `blend` at `count` pixels from `start`, each with the same coverage.
    private func blendRun(_ start: UnsafeMutablePointer<UInt32>, count: Int, _ color: Color, coverage: Double) {
        let k = UInt32(Double(color.a) * min(max(coverage, 0), 1) + 0.5)
        guard k > 0 else { return }
        let inv = 255 &- k, a = k &* 255 &+ 127
        let (r, g, b) = (UInt32(color.r) &* k &+ 127, UInt32(color.g) &* k &+ 127, UInt32(color.b) &* k &+ 127)
        for i in 0..<count {
            let d = start[i]
            let na = (a &+ (d >> 24) &* inv) / 255, nr = (r &+ (d >> 16 & 0xFF) &* inv) / 255
            let ng = (g &+ (d >> 8 & 0xFF) &* inv) / 255, nb = (b &+ (d & 0xFF) &* inv) / 255
            start[i] = na << 24 | nr << 16 | ng << 8 | nb
        }
    }

    /// A ring between radii `inner` and `outer` around (cx, cy) (a disc when `inner` is 0),
    /// coloured per pixel by `color(dx, dy)` (offsets from the centre).
    public func ring(cx: Double, cy: Double, inner: Double, outer: Double, color: (Double, Double) -> Color) {
        let r = Box(x: cx - outer - 1, y: cy - outer - 1, width: 2 * outer + 2, height: 2 * outer + 2).covering.intersection(clip)
        for y in r.ys {
            let dy = Double(y) + 0.5 - cy
            // Only the pixels within a pixel of the ring: two spans a row, not the whole square.
            let reach = ((outer + 1) * (outer + 1) - dy * dy).squareRoot()
            guard reach.isFinite else { continue }
            let hole = inner > 1 && abs(dy) < inner - 1 ? ((inner - 1) * (inner - 1) - dy * dy).squareRoot() : 0
            let spans = hole > 0 ? [(cx - reach, cx - hole), (cx + hole, cx + reach)] : [(cx - reach, cx + reach)]
            for (from, to) in spans {
                let lo = max(r.minX, Int(from.rounded(.down))), hi = min(r.maxX, Int(to.rounded(.up)) + 1)
                guard lo < hi else { continue }
                for x in lo..<hi {
                    let dx = Double(x) + 0.5 - cx
                    let d = (dx * dx + dy * dy).squareRoot()
                    let coverage = min(max(outer - d + 0.5, 0), 1) * (inner > 0 ? min(max(d - inner + 0.5, 0), 1) : 1)
                    if coverage > 0 { blend(x, y, color(dx, dy), coverage) }
                }
            }
        }
    }

    /// A ring of one colour.
    public func ring(cx: Double, cy: Double, inner: Double, outer: Double, _ color: Color) {
        ring(cx: cx, cy: cy, inner: inner, outer: outer) { _, _ in color }
    }

    /// Every pixel of `box` coloured by `color(u, v)`, u and v running 0…1 across it (a
    /// gradient, a hue bar, a saturation/value square).
    public func gradient(_ box: Box, color: (Double, Double) -> Color) {
        let r = box.covering.intersection(clip)
        for y in r.ys {
            let v = min(max((Double(y) + 0.5 - box.y) / box.height, 0), 1)
            for x in r.xs {
                let u = min(max((Double(x) + 0.5 - box.x) / box.width, 0), 1)
                let cx = min(Double(x + 1), box.maxX) - max(Double(x), box.x)
                let cy = min(Double(y + 1), box.maxY) - max(Double(y), box.y)
                blend(x, y, color(u, v), cx * cy)
            }
        }
    }

    /// A gradient along x alone (a hue or brightness bar): the same pixels as `gradient` with a
    /// colour that ignores v, each column's colour computed once, not once a row.
    public func gradient(_ box: Box, alongX color: (Double) -> Color) {
        let r = box.covering.intersection(clip)
        let colors = r.xs.map { color(min(max((Double($0) + 0.5 - box.x) / box.width, 0), 1)) }
        for y in r.ys {
            let cy = min(Double(y + 1), box.maxY) - max(Double(y), box.y)
            for x in r.xs {
                let cx = min(Double(x + 1), box.maxX) - max(Double(x), box.x)
                blend(x, y, colors[x - r.minX], cx * cy)
            }
        }
    }

    /// `text` in the bitmap font, its top-left at (x, y), each font pixel `pixel` wide.
    public func text(_ text: String, x: Double, y: Double, pixel: Double, _ color: Color) {
        var left = x
        for c in text {
            let rows = Font.glyph(c)
            for (row, bits) in rows.enumerated() where bits != 0 {
                for col in 0..<Font.width where bits & (1 << (Font.width - 1 - col)) != 0 {
                    fill(Box(x: left + Double(col) * pixel, y: y + Double(row) * pixel, width: pixel, height: pixel), color)
                }
            }
            left += Double(Font.advance) * pixel
        }
    }

    /// Lays premultiplied `sprite` over the target, its top-left at (x, y).
    public func blit(_ sprite: Texture<UInt32>, x: Int, y: Int) {
        let r = Rect(x: x, y: y, width: sprite.width, height: sprite.height).intersection(clip)
        for ty in r.ys {
            let src = sprite.row(ty &- y), dst = target.row(ty)
            for tx in r.xs {
                // Two channels at a time (red and blue, alpha and green), each d·(255 − a)/255
                // rounded exactly as (x + 127) / 255 rounds it, with no branch: the loop vectorises.
                let s = src[tx &- x], d = dst[tx], inv = 255 &- (s >> 24)
                var rb = (d & 0x00FF_00FF) &* inv &+ 0x0080_0080
                rb = ((rb &+ ((rb >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
                var ag = ((d >> 8) & 0x00FF_00FF) &* inv &+ 0x0080_0080
                ag = (ag &+ ((ag >> 8) & 0x00FF_00FF)) & 0xFF00_FF00
                dst[tx] = s &+ (ag | rb)
            }
        }
    }
}
