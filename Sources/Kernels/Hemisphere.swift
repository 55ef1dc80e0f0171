import Compute
import Foundation

/// The lit sphere MercurialPaint rendered with SceneKit and fed to CIShadedMaterial: a Phong
/// sphere (white specular, dark-grey diffuse, black background, orthographic view along −z)
/// under four coloured omni lights. Generated here, deterministically, instead of shipped.
public enum Hemisphere {
    /// (hue, position) of the four lights, saturation and brightness 1; scene y points up.
    public static let lights: [(hue: Double, position: SIMD3<Double>)] = [
        (0.10, SIMD3(0, 25, 0)), (0.48, SIMD3(25, -35, 0)), (0.85, SIMD3(-35, -20, -10)), (0.18, SIMD3(-35, 10, 35)),
    ]
    public static let diffuse = 0.25
    /// SceneKit's shininess 0.02 on its 0…1 scale, as a Phong exponent (×128).
    public static let exponent = 0.02 * 128

    /// A `size`×`size` image, 0xAARRGGBB; row 0 is the top of the sphere.
    public static func image(size: Int = 256) -> TextureStorage<UInt32> {
        let image = TextureStorage<UInt32>(width: size, height: size, filledWith: 0xFF00_0000)
        let colours = lights.map { l -> SIMD3<Double> in let c = HSV.rgb(h: l.hue, s: 1, v: 1); return SIMD3(c.r, c.g, c.b) }
        for j in 0..<size {
            for i in 0..<size {
                let u = (Double(i) + 0.5) / Double(size) * 2 - 1
                let v = 1 - (Double(j) + 0.5) / Double(size) * 2
                let rr = u * u + v * v
                guard rr <= 1 else { continue }
                let n = SIMD3(u, v, (1 - rr).squareRoot())
                var colour = SIMD3<Double>(repeating: 0)
                for (light, lightColour) in zip(lights, colours) {
                    let toLight = light.position - n
                    let l = toLight / (toLight * toLight).sum().squareRoot()
                    let ndl = (n * l).sum()
                    guard ndl > 0 else { continue }
                    let reflected = 2 * ndl * n - l
                    let specular = pow(max(reflected.z, 0), exponent)  // viewer along +z
                    colour += (diffuse * ndl + specular) * lightColour
                }
                let c = colour.clamped(lowerBound: SIMD3(repeating: 0), upperBound: SIMD3(repeating: 1)) * 255
                image.texture[i, j] = 0xFF00_0000 | UInt32(c.x.rounded()) << 16 | UInt32(c.y.rounded()) << 8 | UInt32(c.z.rounded())
            }
        }
        return image
    }
}
