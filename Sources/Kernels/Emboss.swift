import Compute
import Foundation

/// The liquid-metal finish of a mercurial stroke, after MercurialPaint's Core Image chain
/// (CIHeightFieldFromMask radius 10 → CIShadedMaterial scale 10 with a hemisphere image):
/// a height field that is 0 at the mask's edge and rises smoothly over `radius` px inside, whose
/// gradient (scaled by the radius) gives a normal that looks up the lit hemisphere. The seed's
/// fixed 10 px made a 200 px stroke a flat slab with rounded rims; the radius follows the
/// stroke's width (`radius(forBrushSize:)`), so the metal is rounded across it at every size.
public struct Emboss: Sendable {
    /// MercurialPaint's radius: the least the height field rises over.
    public static let heightRadius: Float = 10
    /// The most (the blur's cost grows with it).
    public static let largestRadius: Float = 64

    /// The height field's radius for a stroke of brush size `size`: a quarter of its width.
    public static func radius(forBrushSize size: Int) -> Float { min(max(Float(size) / 4, heightRadius), largestRadius) }

    /// Margin a mask patch needs around its pixels so the height field's blur sees its edges.
    public static func margin(radius: Float) -> Int { GaussianBlur(sigma: radius / 3).radius + 1 }

    /// The lights and shininess its hemisphere was made for.
    public let shading: Shading
    public let hemisphere: TextureStorage<UInt32>

    /// Makes the hemisphere image for `shading` (a few milliseconds at 256x256: make one per
    /// shading, not per stroke).
    public init(shading: Shading, hemisphereSize: Int = 256) {
        self.shading = shading
        hemisphere = Hemisphere.image(shading: shading, size: hemisphereSize)
    }

    /// The hemisphere pixel for gradients (gx, gy): `half − g·half/length`, rounded, as column
    /// and row. Both lie in 0…2·half, so adding 2²³ leaves the rounded value in the low
    /// mantissa bits: exact, inline, and without the range checks of `Int(_:)`.
    @inline(__always)
    static func lookup(gx: SIMD4<Float>, gy: SIMD4<Float>, half: Float) -> (SIMD4<UInt32>, SIMD4<UInt32>) {
        let k = half / (gx * gx + gy * gy + 1).squareRoot()
        let magic = SIMD4<Float>(repeating: 0x1p23), low = SIMD4<UInt32>(repeating: 0x7F_FFFF)
        func rounded(_ v: SIMD4<Float>) -> SIMD4<UInt32> { unsafeBitCast(v + magic, to: SIMD4<UInt32>.self) & low }
        return (rounded(half - gx * k), rounded(half - gy * k))
    }

    /// The tint's factor for each channel, in 256ths: the metal in the stroke's colour, from
    /// 40 % (black: gunmetal) to 100 % (white: the lit metal as it is).
    static func tintFactors(_ c: Color) -> SIMD4<UInt32> {
        func f(_ v: UInt8) -> UInt32 { 102 + (154 * UInt32(v) + 127) / 255 }
        return SIMD4(f(c.b), f(c.g), f(c.r), 256)
    }

    /// `p` with each colour channel times its factor in 256ths (256 leaves it as it is).
    @inline(__always) static func tinted(_ p: UInt32, _ t: SIMD4<UInt32>) -> UInt32 {
        let b = ((p & 0xFF) &* t[0]) >> 8, g = (((p >> 8) & 0xFF) &* t[1]) >> 8, r = (((p >> 16) & 0xFF) &* t[2]) >> 8
        return (p & 0xFF00_0000) | r << 16 | g << 8 | b
    }

    /// Shades every pixel of `mask` (a patch, 255 inside) into `output` (same size): opaque
    /// metal inside the mask, tinted by `tint`, its height field rising over `radius` px; outside
    /// it is left alone.
    public func shade(_ mask: Texture<UInt8>, into output: Texture<UInt32>, radius: Float = heightRadius, tint: Color = .white,
                      on compute: ComputeContext) {
        let blur = GaussianBlur(sigma: radius / 3)
        let t = Self.tintFactors(tint)
        let heights = TextureStorage<Float>(width: mask.width, height: mask.height, filledWith: 0)
        let h = heights.texture, hemi = hemisphere.texture
        // Height: 0 at the edge (where the blurred mask crosses 0.5), 1 from ~10 px inside, 0
        // outside; made from each blurred row while it is in cache.
        blur.run(mask, over: mask.bounds, on: compute) { y, blurred, xs in
            let m = mask.row(y), row = h.row(y)
            for x in xs { row[x] = m[x] == 0 ? 0 : min(max(2 * blurred[x] - 1, 0), 1) }
        }
        // Normal from the height gradient (scaled), looked up in the hemisphere: the normal
        // (−gx, −gy, 1)/length maps to ((n.x + 1)/2, (n.y + 1)/2) of the image, four pixels at a
        // time (one at a time at the row ends, with the same operations, so the same result).
        let half = Float(hemi.width - 1) / 2, scale = radius / 2, width = mask.width
        withExtendedLifetime((heights, hemisphere)) {
            compute.dispatchRows(over: mask.bounds) { group in
                for y in group.threadPositions.ys {
                    let m = mask.row(y), row = h.row(y), out = output.row(y)
                    let above = h.row(max(y - 1, 0)), below = h.row(min(y + 1, mask.height - 1))
                    func shadeOne(_ x: Int) {
                        guard m[x] != 0 else { return }
                        let (u, v) = Self.lookup(gx: SIMD4(repeating: row[min(x + 1, width - 1)] - row[max(x - 1, 0)]) * scale,
                                                 gy: SIMD4(repeating: below[x] - above[x]) * scale, half: half)
                        out[x] = Self.tinted(hemi[Int(u[0]), Int(v[0])], t)
                    }
                    var x = 0
                    while x < min(1, width) { shadeOne(x); x += 1 }
                    while x + 5 <= width {
                        if UnsafeRawPointer(m + x).loadUnaligned(as: UInt32.self) != 0 {
                            func load(_ p: UnsafeMutablePointer<Float>) -> SIMD4<Float> { UnsafeRawPointer(p).loadUnaligned(as: SIMD4<Float>.self) }
                            let (u, v) = Self.lookup(gx: (load(row + x + 1) - load(row + x - 1)) * scale,
                                                     gy: (load(below + x) - load(above + x)) * scale, half: half)
                            for i in 0..<4 where m[x + i] != 0 { out[x + i] = Self.tinted(hemi[Int(u[i]), Int(v[i])], t) }
                        }
                        x += 4
                    }
                    while x < width { shadeOne(x); x += 1 }
                }
            }
        }
    }
}
