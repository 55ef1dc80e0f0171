/// How the mercurial brush's metal is lit: the four coloured omni lights and the shininess of
/// the Phong hemisphere (`Hemisphere`) that `Emboss` looks its normals up in. A value carried by
/// the brush; `mercurialPaint` is MercurialPaint's SceneKit scene.
///
/// Always valid: the initialisers refuse what a replay could not hold (a count of lights other
/// than four, a value out of range or not finite).
public struct Shading: Sendable, Equatable {
    /// One omni light: its colour is HSV(hue, 1, brightness), its position in scene units (the
    /// sphere has radius 1 at the origin, y points up, the viewer looks along −z).
    public struct Light: Sendable, Equatable {
        public let hue: Double
        public let brightness: Double
        public let x: Double
        public let y: Double
        public let z: Double

        /// The range of `hue` and `brightness`.
        public static let fractions = 0.0...1.0
        /// The range of `x`, `y` and `z`.
        public static let coordinates = -1000.0...1000.0

        /// Nil unless `hue` and `brightness` are in 0…1 and `x`, `y`, `z` in −1000…1000.
        public init?(hue: Double, brightness: Double, x: Double, y: Double, z: Double) {
            guard Self.fractions.contains(hue), Self.fractions.contains(brightness),
                  [x, y, z].allSatisfy(Self.coordinates.contains) else { return nil }
            self.init(checked: hue, brightness, x, y, z)
        }

        private init(checked hue: Double, _ brightness: Double, _ x: Double, _ y: Double, _ z: Double) {
            self.hue = hue; self.brightness = brightness; self.x = x; self.y = y; self.z = z
        }

        /// The position as a vector.
        public var position: SIMD3<Double> { SIMD3(x, y, z) }

        /// The colour, each channel 0…1.
        public var colour: SIMD3<Double> {
            let c = HSV.rgb(h: hue, s: 1, v: brightness)
            return SIMD3(c.r, c.g, c.b)
        }

        /// A light at full brightness: only for the constants below, which are in range.
        fileprivate static func constant(hue: Double, _ x: Double, _ y: Double, _ z: Double) -> Light {
            Light(checked: hue, 1, x, y, z)
        }
    }

    /// SceneKit's shininess, 0…1; the Phong exponent is 128 times it.
    public let shininess: Double
    /// Exactly `lightCount` lights.
    public let lights: [Light]

    public static let lightCount = 4
    /// The range of `shininess`.
    public static let shininessRange = 0.0...1.0

    /// Nil unless there are exactly four lights and `shininess` is in 0…1.
    public init?(shininess: Double, lights: [Light]) {
        guard lights.count == Self.lightCount, Self.shininessRange.contains(shininess) else { return nil }
        self.init(checked: shininess, lights)
    }

    private init(checked shininess: Double, _ lights: [Light]) {
        self.shininess = shininess
        self.lights = lights
    }

    /// The Phong exponent of the specular highlight.
    public var exponent: Double { shininess * 128 }

    /// MercurialPaint's scene: four saturated lights, shininess 0.02.
    public static let mercurialPaint = Shading(checked: 0.02, [
        .constant(hue: 0.10, 0, 25, 0), .constant(hue: 0.48, 25, -35, 0),
        .constant(hue: 0.85, -35, -20, -10), .constant(hue: 0.18, -35, 10, 35),
    ])
}
