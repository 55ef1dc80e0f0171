/// One dab, as libmypaint's `MyPaintSurface2.draw_dab_pigment` describes it: every parameter,
/// unclamped (the surface clamps as libmypaint's does).
public struct Dab: Sendable, Equatable {
    /// The centre, in canvas pixels (pixel centres at +0.5).
    public var x: Float, y: Float
    /// Half the dab's long axis, in pixels. Dabs under 0.1 px are not drawn.
    public var radius: Float
    /// The colour, straight (not premultiplied), each 0…1.
    public var r: Float, g: Float, b: Float
    /// The dab's opacity, 0…1.
    public var opaque: Float
    /// Where the fall-off from the centre to the rim turns, 0…1 (a dab of hardness 0 is not drawn).
    public var hardness: Float
    /// The alpha the dab's colour carries: 1 paints, 0 erases, between is smudged transparency
    /// (libmypaint's `color_a`, which it calls alpha_eraser).
    public var alphaEraser: Float
    /// Long axis over short, ≥ 1, and the long axis's angle in degrees.
    public var aspectRatio: Float, angle: Float
    /// How much of the dab paints without changing the pixels' alpha, 0…1.
    public var lockAlpha: Float
    /// How much of the dab gives its hue and saturation to the pixels, keeping their luminosity, 0…1.
    public var colorize: Float
    /// How much of the dab posterizes the pixels, 0…1, and into how many levels (a hundredth of
    /// them: libmypaint's posterize_num, 0.01…1.28).
    public var posterize: Float, posterizeLevels: Float
    /// How much of the dab mixes as pigment (spectrally) rather than as light, 0…1.
    public var paint: Float

    public init(x: Float, y: Float, radius: Float, r: Float, g: Float, b: Float, opaque: Float = 1, hardness: Float = 1,
                alphaEraser: Float = 1, aspectRatio: Float = 1, angle: Float = 0, lockAlpha: Float = 0, colorize: Float = 0,
                posterize: Float = 0, posterizeLevels: Float = 0.05, paint: Float = 0) {
        self.x = x; self.y = y; self.radius = radius
        self.r = r; self.g = g; self.b = b
        self.opaque = opaque; self.hardness = hardness; self.alphaEraser = alphaEraser
        self.aspectRatio = aspectRatio; self.angle = angle
        self.lockAlpha = lockAlpha; self.colorize = colorize
        self.posterize = posterize; self.posterizeLevels = posterizeLevels
        self.paint = paint
    }
}
