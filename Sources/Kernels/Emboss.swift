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
        let scratch = TextureStorage<Float>(width: mask.width, height: mask.height, filledWith: 0)
        let blurred = TextureStorage<Float>(width: mask.width, height: mask.height, filledWith: 0)
        blur.run(mask, over: mask.bounds, scratch: scratch.texture, into: blurred.texture, on: compute)
        let h = blurred.texture, hemi = hemisphere.texture
        let last = Float(hemi.width - 1)
        withExtendedLifetime((scratch, blurred, hemisphere)) {
            // Height: 0 at the edge (where the blur crosses 0.5), 1 from ~10 px inside; 0 outside.
            compute.dispatchRows(over: mask.bounds) { group in
                for y in group.threadPositions.ys {
                    let m = mask.row(y), row = h.row(y)
                    for x in group.threadPositions.xs {
                        row[x] = m[x] == 0 ? 0 : min(max(2 * row[x] - 1, 0), 1)
                    }
                }
            }
            // Normal from the height gradient (scaled), looked up in the hemisphere.
            compute.dispatchRows(over: mask.bounds) { group in
                let g = group.threadPositions
                for y in g.ys {
                    let m = mask.row(y), row = h.row(y)
                    let above = h.row(max(y - 1, 0)), below = h.row(min(y + 1, mask.height - 1))
                    let out = output.row(y)
                    for x in g.xs where m[x] != 0 {
                        let gx = (row[min(x + 1, mask.width - 1)] - row[max(x - 1, 0)]) / 2 * Self.scale
                        let gy = (below[x] - above[x]) / 2 * Self.scale
                        let length = (gx * gx + gy * gy + 1).squareRoot()
                        let u = Int(((1 - gx / length) / 2 * last).rounded()), v = Int(((1 - gy / length) / 2 * last).rounded())
                        out[x] = hemi[u, v]
                    }
                }
            }
        }
    }
}
