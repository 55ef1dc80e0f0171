import Compute

/// The hemisphere of `Hemisphere.image`, for a shading being edited: each light's part is kept,
/// so moving one light costs a quarter of the picture, not all of it. The same pixels as
/// `Hemisphere.image` (the same parts, summed in the same order).
public final class HemispherePreview {
    public let size: Int
    /// Per light: what it was computed for and its part at every pixel on the sphere.
    private var parts: [(light: Hemisphere.Light, exponent: Double, values: [SIMD3<Double>])?]
    /// The pixels on the sphere, row by row, and their normals.
    private let pixels: [(index: Int, normal: SIMD3<Double>)]
    public let image: TextureStorage<UInt32>

    public init(size: Int) {
        self.size = size
        var pixels: [(Int, SIMD3<Double>)] = []
        for j in 0..<size {
            for i in 0..<size { if let n = Hemisphere.normal(i, j, size: size) { pixels.append((j * size + i, n)) } }
        }
        self.pixels = pixels
        parts = Array(repeating: nil, count: Shading.lightCount)
        image = TextureStorage(width: size, height: size, filledWith: 0xFF00_0000)
    }

    /// Renders `shading`, recomputing only the lights that changed.
    public func render(_ shading: Shading) {
        let exponent = shading.exponent
        for (k, light) in shading.lights.map(Hemisphere.Light.init).enumerated() {
            if let p = parts[k], p.light == light, p.exponent == exponent { continue }
            parts[k] = (light, exponent, pixels.map { Hemisphere.contribution(of: light, normal: $0.normal, exponent: exponent) })
        }
        let all = parts.compactMap { $0?.values }
        for (n, p) in pixels.enumerated() {
            var colour = SIMD3<Double>(repeating: 0)
            for values in all { colour += values[n] }
            image.texture[p.index % size, p.index / size] = Hemisphere.pixel(colour)
        }
    }
}
