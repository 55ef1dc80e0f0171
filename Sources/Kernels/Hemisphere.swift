import Compute
import Foundation

/// The lit sphere MercurialPaint rendered with SceneKit and fed to CIShadedMaterial: a Phong
/// sphere (white specular, dark-grey diffuse, black background, orthographic view along −z)
/// under four coloured omni lights, the lights and shininess of a `Shading`. Generated here,
/// deterministically, instead of shipped.
public enum Hemisphere {
    /// The dark-grey diffuse material's reflectance.
    public static let diffuse = 0.25

    /// A `size`×`size` image of the sphere lit by `shading`, 0xAARRGGBB; row 0 is the top of the
    /// sphere.
    public static func image(shading: Shading, size: Int = 256) -> TextureStorage<UInt32> {
        let image = TextureStorage<UInt32>(width: size, height: size, filledWith: 0xFF00_0000)
        let lights = shading.lights.map(Light.init)
        let exponent = shading.exponent
        for j in 0..<size {
            for i in 0..<size {
                guard let n = normal(i, j, size: size) else { continue }
                var colour = SIMD3<Double>(repeating: 0)
                for light in lights { colour += contribution(of: light, normal: n, exponent: exponent) }
                image.texture[i, j] = pixel(colour)
            }
        }
        return image
    }

    /// A light as the shading sums it: where it is and its colour.
    public struct Light: Sendable, Equatable {
        let position: SIMD3<Double>, colour: SIMD3<Double>
        public init(_ light: Shading.Light) { position = light.position; colour = light.colour }
    }

    /// The sphere's unit normal under pixel (i, j) of a `size`×`size` image; nil off the sphere.
    @inline(__always)
    public static func normal(_ i: Int, _ j: Int, size: Int) -> SIMD3<Double>? {
        let u = (Double(i) + 0.5) / Double(size) * 2 - 1
        let v = 1 - (Double(j) + 0.5) / Double(size) * 2
        let rr = u * u + v * v
        guard rr <= 1 else { return nil }
        return SIMD3(u, v, (1 - rr).squareRoot())
    }

    /// What `light` adds where the normal is `n`: its diffuse and specular parts, in its colour.
    @inline(__always)
    public static func contribution(of light: Light, normal n: SIMD3<Double>, exponent: Double) -> SIMD3<Double> {
        let toLight = light.position - n
        let l = toLight / (toLight * toLight).sum().squareRoot()
        let ndl = (n * l).sum()
        guard ndl > 0 else { return SIMD3(repeating: 0) }
        let reflected = 2 * ndl * n - l
        let specular = pow(max(reflected.z, 0), exponent)  // viewer along +z
        return (diffuse * ndl + specular) * light.colour
    }

    /// The summed light as an opaque 0xAARRGGBB pixel, each channel clamped.
    @inline(__always)
    public static func pixel(_ colour: SIMD3<Double>) -> UInt32 {
        let c = colour.clamped(lowerBound: SIMD3(repeating: 0), upperBound: SIMD3(repeating: 1)) * 255
        // + 0.5 and truncation: the same rounding for these non-negative values, without libm.
        return 0xFF00_0000 | UInt32(c.x + 0.5) << 16 | UInt32(c.y + 0.5) << 8 | UInt32(c.z + 0.5)
    }
}
