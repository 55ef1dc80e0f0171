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
        let b = blurred.texture, hemi = hemisphere.texture
        let last = Float(hemi.width - 1)
        withExtendedLifetime((scratch, blurred, hemisphere)) {
            compute.dispatch(over: mask.bounds) { group in
                let g = group.threadPositions
                // Height: 0 at the edge (where the blur crosses 0.5), 1 from ~10 px inside; 0 outside.
                func height(_ x: Int, _ y: Int) -> Float {
                    guard x >= 0, y >= 0, x < mask.width, y < mask.height, mask[x, y] != 0 else { return 0 }
                    return min(max(2 * b[x, y] - 1, 0), 1)
                }
                for y in g.ys {
                    for x in g.xs where mask[x, y] != 0 {
                        let gx = (height(x + 1, y) - height(x - 1, y)) / 2 * Self.scale
                        let gy = (height(x, y + 1) - height(x, y - 1)) / 2 * Self.scale
                        let length = (gx * gx + gy * gy + 1).squareRoot()
                        let nx = -gx / length, ny = -gy / length
                        let u = Int(((nx + 1) / 2 * last).rounded()), v = Int(((ny + 1) / 2 * last).rounded())
                        output[x, y] = hemi[u, v]
                    }
                }
            }
        }
    }
}
