import Compute

/// The hemisphere of `Hemisphere.image`, for a shading being edited: each light's part is kept,
/// so moving one light costs a quarter of the picture, not all of it, and the parts can be
/// computed a bounded amount at a time (`prepare`), spread over frames. The same pixels as
/// `Hemisphere.image` (the same parts, summed in the same order).
public final class HemispherePreview {
    public let size: Int
    /// Per light: what its kept part was computed for, and its values at the first `done`
    /// pixels on the sphere.
    private var parts: [Part?]
    /// The pixels on the sphere, a run per row, in the order the parts keep them.
    private let runs: [(y: Int, x: Int, count: Int)]
    private let normals: [SIMD3<Double>]
    public let image: TextureStorage<UInt32>
    /// The shading `image` shows (nil before the first `render`).
    public private(set) var rendered: Shading?

    private final class Part {
        var light: Hemisphere.Light, exponent: Double, done = 0
        var values: [SIMD3<Double>]
        init(_ light: Hemisphere.Light, _ exponent: Double, count: Int) {
            self.light = light; self.exponent = exponent
            values = Array(repeating: SIMD3(repeating: 0), count: count)
        }
    }

    public init(size: Int) {
        self.size = size
        var runs: [(y: Int, x: Int, count: Int)] = [], normals: [SIMD3<Double>] = []
        runs.reserveCapacity(size)
        normals.reserveCapacity(size * size * 4 / 5)  // π/4 of the square, and the rim
        for j in 0..<size {
            let first = normals.count
            var x = -1
            for i in 0..<size {
                guard let n = Hemisphere.normal(i, j, size: size) else { continue }
                if x < 0 { x = i }
                normals.append(n)
            }
            if normals.count > first { runs.append((j, x, normals.count - first)) }
        }
        self.runs = runs
        self.normals = normals
        parts = Array(repeating: nil, count: Shading.lightCount)
        image = TextureStorage(width: size, height: size, filledWith: 0)
        image.texture.fill(image.texture.bounds, with: 0xFF00_0000)  // specialised: a generic fill is slow
    }

    /// A light's part at one pixel: the unit `prepare`'s budget counts in. The whole picture
    /// is `Shading.lightCount` times this.
    public var pixelCount: Int { normals.count }

    /// How many light-pixel parts `shading` still needs: 0 when `render` would only sum them.
    public func remaining(for shading: Shading) -> Int {
        zip(parts, shading.lights).reduce(0) { sum, p in
            guard let part = p.0, part.light == Hemisphere.Light(p.1), part.exponent == shading.exponent else { return sum + normals.count }
            return sum + normals.count - part.done
        }
    }

    /// Computes at most `budget` of the light-pixel parts `shading` still needs, light by light,
    /// keeping what is already computed for it; true when none is left. The image is untouched.
    @discardableResult
    public func prepare(_ shading: Shading, budget: Int = .max) -> Bool {
        let exponent = shading.exponent
        var left = max(budget, 0)
        for (k, l) in shading.lights.enumerated() {
            let light = Hemisphere.Light(l)
            let part = parts[k] ?? Part(light, exponent, count: normals.count)
            parts[k] = part
            if part.light != light || part.exponent != exponent { (part.light, part.exponent, part.done) = (light, exponent, 0) }
            let end = part.done + min(normals.count - part.done, left)
            normals.withUnsafeBufferPointer { n in
                part.values.withUnsafeMutableBufferPointer { v in
                    for i in part.done..<end { v[i] = Hemisphere.contribution(of: light, normal: n[i], exponent: exponent) }
                }
            }
            left -= end - part.done
            part.done = end
            if part.done < normals.count { return false }
        }
        return true
    }

    /// Renders `shading`, recomputing only the lights that changed (nothing if it is the one
    /// shown).
    public func render(_ shading: Shading) {
        guard shading != rendered else { return }
        rendered = shading
        prepare(shading)
        var row = [SIMD3<Double>](repeating: SIMD3(repeating: 0), count: size)
        var first = 0
        row.withUnsafeMutableBufferPointer { sum in
            for run in runs {
                // From zero, light by light: `Hemisphere.image`'s sum, a row at a time.
                for i in 0..<run.count { sum[i] = SIMD3(repeating: 0) }
                for part in parts {
                    guard let part else { continue }
                    part.values.withUnsafeBufferPointer { v in
                        for i in 0..<run.count { sum[i] += v[first + i] }
                    }
                }
                let out = image.texture.row(run.y) + run.x
                for i in 0..<run.count { out[i] = Hemisphere.pixel(sum[i]) }
                first += run.count
            }
        }
    }
}
