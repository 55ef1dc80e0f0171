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
        let lights = shading.lights.map { (position: $0.position, colour: $0.colour) }
        let exponent = shading.exponent
        for j in 0..<size {
            for i in 0..<size {
                let u = (Double(i) + 0.5) / Double(size) * 2 - 1
                let v = 1 - (Double(j) + 0.5) / Double(size) * 2
                let rr = u * u + v * v
                guard rr <= 1 else { continue }
                let n = SIMD3(u, v, (1 - rr).squareRoot())
                var colour = SIMD3<Double>(repeating: 0)
                for light in lights {
                    let toLight = light.position - n
                    let l = toLight / (toLight * toLight).sum().squareRoot()
                    let ndl = (n * l).sum()
                    guard ndl > 0 else { continue }
                    let reflected = 2 * ndl * n - l
                    let specular = pow(max(reflected.z, 0), exponent)  // viewer along +z
                    colour += (diffuse * ndl + specular) * light.colour
                }
                let c = colour.clamped(lowerBound: SIMD3(repeating: 0), upperBound: SIMD3(repeating: 1)) * 255
                image.texture[i, j] = 0xFF00_0000 | UInt32(c.x.rounded()) << 16 | UInt32(c.y.rounded()) << 8 | UInt32(c.z.rounded())
            }
        }
        return image
    }
}
