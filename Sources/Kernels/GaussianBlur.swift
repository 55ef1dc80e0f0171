import Compute
import Foundation

/// A separable Gaussian blur of an 8-bit coverage image (255 = 1.0) into floats, over a region
/// only: it reads `radius` pixels around it (outside the image counts as 0).
///
/// Rows and columns are summed in a fixed order with the same weights everywhere, so the result
/// is bit-identical for any thread count. The inner loops run along x, where they vectorise.
public struct GaussianBlur: Sendable {
    public let sigma: Float
    public let radius: Int
    /// Weights for offsets −radius…radius, summing to 1.
    public let weights: [Float]

    /// σ with a 3σ radius.
    public init(sigma: Float) {
        self.sigma = sigma
        radius = Int((3 * sigma).rounded(.up))
        let raw = (-radius...radius).map { k in Float(exp(-Double(k * k) / (2 * Double(sigma) * Double(sigma)))) }
        let total = raw.reduce(0, +)
        weights = raw.map { $0 / total }
    }

    /// Blurs `source` over `region` into `output`; `scratch` (image-sized) holds the
    /// horizontal pass. Returns the region written (clipped to the image).
    @discardableResult
    public func run(_ source: Texture<UInt8>, over region: Rect, scratch: Texture<Float>, into output: Texture<Float>,
                    on compute: ComputeContext) -> Rect {
        let bounds = source.bounds
        let out = region.intersection(bounds)
        guard !out.isEmpty else { return .empty }
        let rows = Rect(minX: out.minX, minY: out.minY - radius, maxX: out.maxX, maxY: out.maxY + radius).intersection(bounds)
        let weights = self.weights, radius = self.radius
        // Horizontal: scratch[x, y] = Σ w[k]·source[x + k, y] / 255.
        compute.dispatchRows(over: rows) { group in
            let g = group.threadPositions
            for y in g.ys {
                let src = source.row(y), dst = scratch.row(y)
                for x in g.xs { dst[x] = 0 }
                for (i, w) in weights.enumerated() {
                    let k = i - radius
                    let lo = max(g.minX, -k), hi = min(g.maxX, source.width - k)
                    guard lo < hi else { continue }
                    let scaled = w / 255
                    for x in lo..<hi { dst[x] += scaled * Float(src[x &+ k]) }
                }
            }
        }
        // Vertical: output[x, y] = Σ w[k]·scratch[x, y + k].
        compute.dispatchRows(over: out) { group in
            let g = group.threadPositions
            for y in g.ys {
                let dst = output.row(y)
                for x in g.xs { dst[x] = 0 }
                for (i, w) in weights.enumerated() {
                    let yy = y + i - radius
                    guard yy >= 0, yy < source.height else { continue }
                    let src = scratch.row(yy)
                    for x in g.xs { dst[x] += w * src[x] }
                }
            }
        }
        return out
    }
}

/// Binary threshold: 255 where the value is above 0.5, else 0 (MercurialPaint's luma > 0.5; a
/// coverage image is its own luma).
public enum Threshold {
    public static func run(_ source: Texture<Float>, over region: Rect, into mask: Texture<UInt8>, on compute: ComputeContext) {
        compute.dispatchRows(over: region.intersection(source.bounds).intersection(mask.bounds)) { group in
            let g = group.threadPositions
            for y in g.ys {
                let src = source.row(y), dst = mask.row(y)
                for x in g.xs { dst[x] = src[x] > 0.5 ? 255 : 0 }
            }
        }
    }
}
