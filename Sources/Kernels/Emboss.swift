import Compute
import Foundation

/// The liquid-metal finish of a mercurial stroke, after MercurialPaint's Core Image chain
/// (CIHeightFieldFromMask radius 10 → CIShadedMaterial scale 10 with a hemisphere image):
/// a height field that is 0 at the mask's edge and rises smoothly over about 10 px inside, whose
/// gradient (scaled by 10) gives a normal that looks up the lit hemisphere.
public struct Emboss: Sendable {
    public static let heightRadius: Float = 10
    public static let scale: Float = 10
    /// Margin a mask patch needs around its pixels so the height field's blur sees its edges.
    public static var margin: Int { GaussianBlur(sigma: heightRadius / 3).radius + 1 }

    public let hemisphere: TextureStorage<UInt32>
    private let blur = GaussianBlur(sigma: heightRadius / 3)

    public init(hemisphereSize: Int = 256) { hemisphere = Hemisphere.image(size: hemisphereSize) }

    /// Shades every pixel of `mask` (a patch, 255 inside) into `output` (same size): opaque
    /// metal inside the mask; outside it is left alone.
    public func shade(_ mask: Texture<UInt8>, into output: Texture<UInt32>, on compute: ComputeContext) {
        let heights = TextureStorage<Float>(width: mask.width, height: mask.height, filledWith: 0)
        let h = heights.texture, hemi = hemisphere.texture
        // Height: 0 at the edge (where the blurred mask crosses 0.5), 1 from ~10 px inside, 0
        // outside; made from each blurred row while it is in cache.
        blur.run(mask, over: mask.bounds, on: compute) { y, blurred, xs in
            let m = mask.row(y), row = h.row(y)
            for x in xs { row[x] = m[x] == 0 ? 0 : min(max(2 * blurred[x] - 1, 0), 1) }
        }
        // Normal from the height gradient (scaled), looked up in the hemisphere: the normal
        // (−gx, −gy, 1)/length maps to ((n.x + 1)/2, (n.y + 1)/2) of the image.
        let half = Float(hemi.width - 1) / 2, scale = Self.scale / 2
        withExtendedLifetime((heights, hemisphere)) {
            compute.dispatchRows(over: mask.bounds) { group in
                let g = group.threadPositions
                for y in g.ys {
                    let m = mask.row(y), row = h.row(y)
                    let above = h.row(max(y - 1, 0)), below = h.row(min(y + 1, mask.height - 1))
                    let out = output.row(y)
                    for x in g.xs where m[x] != 0 {
                        let gx = (row[min(x + 1, mask.width - 1)] - row[max(x - 1, 0)]) * scale
                        let gy = (below[x] - above[x]) * scale
                        let k = half / (gx * gx + gy * gy + 1).squareRoot()
                        // Both coordinates lie in 0…2·half, so + 0.5 and truncation round them
                        // (inline, where `rounded()` is a libm call on baseline x86-64).
                        out[x] = hemi[Int(half - gx * k + 0.5), Int(half - gy * k + 0.5)]
                    }
                }
            }
        }
    }
}
