/// What a MyPaint dab does to each pixel under it: libmypaint 1.6's blend modes, in its 15-bit
/// premultiplied integers (1.0 = 1<<15; a pixel is four `UInt16`s r, g, b, a, with r, g, b ≤ a).
///
/// A dab lays up to four passes, in libmypaint's order: normal paint (source-over; or with
/// `alphaEraser` below 1, the smudge/eraser mix that also moves alpha) and lock-alpha paint,
/// each split between plain and pigment (`paint`, spectral) mixing; then colorize (the dab's hue
/// and saturation at the pixel's luminosity) and posterize. Every pass is weighed by the mask's
/// opacity at the pixel. The arithmetic is libmypaint's, conversion for conversion, so a pixel
/// painted here holds the value libmypaint's fixed tiled surface would hold.
public struct DabPaint: Sendable {
    let color: (r: UInt32, g: UInt32, b: UInt32)
    let colorA: Float
    let colorA15: UInt32
    let normal: Float, lockAlpha: Float, colorize: Float, posterize: Float, paint: Float
    let posterizeLevels: UInt32
    /// Each pass's opacity, 0…1<<15, 0 when the pass is off.
    let normalOpacity: UInt32, lockOpacity: UInt32, paintNormalOpacity: UInt32, paintLockOpacity: UInt32
    let colorizeOpacity: UInt32, posterizeOpacity: UInt32
    /// The dab's colour as a reflectance curve (pigment passes only), and its fastlog2.
    let curve: Spectral.Curve
    let logCurve: Spectral.Curve

    /// The passes a dab of these parameters lays, each clamped as libmypaint's draw_dab does:
    /// colour and `alphaEraser` (libmypaint's color_a) to 0…1, and so on; `posterizeLevels` is
    /// libmypaint's posterize_num, a hundredth of the levels (0.01…1.28).
    public init(r: Float, g: Float, b: Float, opaque: Float, alphaEraser: Float, lockAlpha: Float, colorize: Float,
                posterize: Float, posterizeLevels: Float, paint: Float) {
        var curves = Spectral.Memo()
        self.init(r: r, g: g, b: b, opaque: opaque, alphaEraser: alphaEraser, lockAlpha: lockAlpha, colorize: colorize,
                  posterize: posterize, posterizeLevels: posterizeLevels, paint: paint, curves: &curves)
    }

    /// The same, the colour's curves taken from `curves` when it holds this colour's (a brush's
    /// dabs mostly share their colour), else worked out and kept there.
    public init(r: Float, g: Float, b: Float, opaque: Float, alphaEraser: Float, lockAlpha: Float, colorize: Float,
                posterize: Float, posterizeLevels: Float, paint: Float, curves: inout Spectral.Memo) {
        @inline(__always) func clamp01(_ v: Float) -> Float { v > 1 ? 1 : (v < 0 ? 0 : v) }
        let opaque = clamp01(opaque)
        let lock = clamp01(lockAlpha), colorize = clamp01(colorize), posterize = clamp01(posterize)
        let paint = clamp01(paint)
        // CLAMP(ROUND(posterize_num * 100.0), 1, 128), ROUND being (int)(x + 0.5).
        let levels = Self.int(Double(posterizeLevels) * 100 + 0.5)
        self.posterizeLevels = UInt32(max(1, min(128, levels)))
        let cr = clamp01(r), cg = clamp01(g), cb = clamp01(b)
        color = (Self.u16(cr * 32768), Self.u16(cg * 32768), Self.u16(cb * 32768))
        colorA = clamp01(alphaEraser)
        colorA15 = Self.u16(colorA * 32768)
        var normal: Float = 1
        normal *= 1 - lock
        normal *= 1 - colorize
        normal *= 1 - posterize
        self.normal = normal
        self.lockAlpha = lock
        self.colorize = colorize
        self.posterize = posterize
        self.paint = paint
        normalOpacity = paint < 1 && normal != 0 ? Self.u16(normal * opaque * (1 - paint) * 32768) : 0
        lockOpacity = paint < 1 && lock != 0 && colorA != 0
            ? Self.u16(lock * opaque * (1 - colorize) * (1 - posterize) * (1 - paint) * 32768) : 0
        paintNormalOpacity = paint > 0 && normal != 0 ? Self.u16(normal * opaque * paint * 32768) : 0
        paintLockOpacity = paint > 0 && lock != 0 && colorA != 0
            ? Self.u16(lock * opaque * (1 - colorize) * (1 - posterize) * paint * 32768) : 0
        colorizeOpacity = colorize != 0 ? Self.u16(colorize * opaque * 32768) : 0
        posterizeOpacity = posterize != 0 ? Self.u16(posterize * opaque * 32768) : 0
        // The C passes the 15-bit colour, divided back by 1<<15.
        (curve, logCurve) = paint > 0 ? curves.curves(r: color.r, g: color.g, b: color.b) : (Spectral.Curve(), Spectral.Curve())
        passNormal = paint < 1 && normal != 0
        passLock = paint < 1 && lock != 0 && colorA != 0
        passPaintNormal = paint > 0 && normal != 0
        passPaintLock = paint > 0 && lock != 0 && colorA != 0
        let others = passLock || passPaintLock || colorizeOpacity != 0 || posterizeOpacity != 0
        if colorA == 1 && !others && passNormal != passPaintNormal {
            kind = passNormal ? .normal : .pigment
        } else if !others && passNormal && !passPaintNormal {
            kind = .normalAndEraser
        } else {
            kind = .general
        }
    }

    let passNormal: Bool, passLock: Bool, passPaintNormal: Bool, passPaintLock: Bool

    /// The passes' common shapes, which the kernel runs without asking per pixel which passes are on.
    public enum Kind: Sendable {
        /// Plain source-over of an opaque colour (no pigment, smudge, lock alpha, colorize or posterize).
        case normal
        /// Plain source-over of the colour at its alpha below 1 (smudging toward transparency,
        /// erasing), nothing else.
        case normalAndEraser
        /// The same as pigment (`paint` 1).
        case pigment
        /// Anything else: every pass asked for per pixel.
        case general
    }

    public let kind: Kind

    /// Source-over alone (`kind` .normal), on one pixel.
    @inline(__always) public func applyNormal(mask: UInt32, to p: UnsafeMutablePointer<UInt16>) {
        Self.normal(mask, p, color, normalOpacity)
    }

    /// Source-over at the colour's alpha alone (`kind` .normalAndEraser), on one pixel.
    @inline(__always) public func applyNormalAndEraser(mask: UInt32, to p: UnsafeMutablePointer<UInt16>) {
        normalAndEraser(mask, p, normalOpacity)
    }

    /// Pigment source-over alone (`kind` .pigment), on one pixel.
    @inline(__always) public func applyPigment(mask: UInt32, to p: UnsafeMutablePointer<UInt16>) {
        normalPaint(mask, p, paintNormalOpacity)
    }

    /// C's conversion of a float to uint16_t (truncation), for the values met (0…1<<15).
    @inline(__always) static func u16(_ v: Float) -> UInt32 { v > 0 ? UInt32(min(v, 65535)) : 0 }
    /// C's conversion of a double to int (truncation), in the range met.
    @inline(__always) static func int(_ v: Double) -> Int { v > -2e9 && v < 2e9 ? Int(v) : 0 }

    /// Lays only plain and pigment source-over (no lock alpha, colorize or posterize): what
    /// CVector's DabRows.c lays.
    public var passesInC: Bool { !passLock && !passPaintLock && colorizeOpacity == 0 && posterizeOpacity == 0 }

    /// Does anything at all (a dab whose passes are all off leaves every pixel as it was).
    public var paints: Bool {
        passNormal || passLock || passPaintNormal || passPaintLock || colorizeOpacity != 0 || posterizeOpacity != 0
    }

    /// Lays every pass on one pixel, `mask` its opacity there (1…1<<15).
    @inline(__always) public func apply(mask: UInt32, to p: UnsafeMutablePointer<UInt16>) {
        if passNormal {
            if colorA == 1 { Self.normal(mask, p, color, normalOpacity) } else { normalAndEraser(mask, p, normalOpacity) }
        }
        if passLock { Self.lockAlpha(mask, p, color, lockOpacity) }
        if passPaintNormal {
            if colorA == 1 { normalPaint(mask, p, paintNormalOpacity) } else { normalAndEraserPaint(mask, p, paintNormalOpacity) }
        }
        if passPaintLock { lockAlphaPaint(mask, p, paintLockOpacity) }
        if colorizeOpacity != 0 { DabColorize.apply(mask, p, color, colorizeOpacity) }
        if posterizeOpacity != 0 { posterizePass(mask, p) }
    }

    // MARK: the passes (libmypaint's brushmodes.c, pixel by pixel)

    @inline(__always) static func normal(_ mask: UInt32, _ p: UnsafeMutablePointer<UInt16>, _ c: (r: UInt32, g: UInt32, b: UInt32),
                                         _ opacity: UInt32) {
        let opaA = (mask &* opacity) >> 15, opaB = 32768 &- opaA
        p[3] = UInt16(truncatingIfNeeded: opaA &+ (opaB &* UInt32(p[3])) >> 15)
        p[0] = UInt16(truncatingIfNeeded: (opaA &* c.r &+ opaB &* UInt32(p[0])) >> 15)
        p[1] = UInt16(truncatingIfNeeded: (opaA &* c.g &+ opaB &* UInt32(p[1])) >> 15)
        p[2] = UInt16(truncatingIfNeeded: (opaA &* c.b &+ opaB &* UInt32(p[2])) >> 15)
    }

    /// Smudging and erasing: the dab's colour at alpha `colorA` (0 erases).
    @inline(__always) func normalAndEraser(_ mask: UInt32, _ p: UnsafeMutablePointer<UInt16>, _ opacity: UInt32) {
        var opaA = (mask &* opacity) >> 15
        let opaB = 32768 &- opaA
        opaA = (opaA &* colorA15) >> 15
        p[3] = UInt16(truncatingIfNeeded: opaA &+ (opaB &* UInt32(p[3])) >> 15)
        p[0] = UInt16(truncatingIfNeeded: (opaA &* color.r &+ opaB &* UInt32(p[0])) >> 15)
        p[1] = UInt16(truncatingIfNeeded: (opaA &* color.g &+ opaB &* UInt32(p[1])) >> 15)
        p[2] = UInt16(truncatingIfNeeded: (opaA &* color.b &+ opaB &* UInt32(p[2])) >> 15)
    }

    @inline(__always) static func lockAlpha(_ mask: UInt32, _ p: UnsafeMutablePointer<UInt16>, _ c: (r: UInt32, g: UInt32, b: UInt32),
                                            _ opacity: UInt32) {
        var opaA = (mask &* opacity) >> 15
        let opaB = 32768 &- opaA
        opaA = (opaA &* UInt32(p[3])) >> 15
        p[0] = UInt16(truncatingIfNeeded: (opaA &* c.r &+ opaB &* UInt32(p[0])) >> 15)
        p[1] = UInt16(truncatingIfNeeded: (opaA &* c.g &+ opaB &* UInt32(p[1])) >> 15)
        p[2] = UInt16(truncatingIfNeeded: (opaA &* c.b &+ opaB &* UInt32(p[2])) >> 15)
    }

    /// The pixel's straight colour as a curve.
    @inline(__always) static func curve(of p: UnsafeMutablePointer<UInt16>) -> Spectral.Curve {
        let a = Float(p[3])
        return Spectral.curve(r: Float(p[0]) / a, g: Float(p[1]) / a, b: Float(p[2]) / a)
    }

    @inline(__always) func normalPaint(_ mask: UInt32, _ p: UnsafeMutablePointer<UInt16>, _ opacity: UInt32) {
        // Pigment mixing does not take very low opacities: libmypaint enforces 150.
        let opaA = (mask &* max(opacity, 150)) >> 15, opaB = 32768 &- opaA
        guard p[3] > 0 else { return Self.normal(mask, p, color, max(opacity, 150)) }
        pigmentMix(opaA, opaB, p)
    }

    /// The colour mixed into the pixel by pigment (opaA of it over opaB of the pixel, which has
    /// some alpha), alpha as source-over: what libmypaint's pigment and lock-alpha modes share.
    @inline(__always) func pigmentMix(_ opaA: UInt32, _ opaB: UInt32, _ p: UnsafeMutablePointer<UInt16>) {
        let faA = Float(opaA) / Float(opaA &+ (opaB &* UInt32(p[3])) >> 15)
        let faB = Float(1 - Double(faA))
        let mixed = Spectral.rgb(Spectral.mix(curve, faA, Self.curve(of: p), faB))
        let a = opaA &+ (opaB &* UInt32(p[3])) >> 15
        p[3] = UInt16(truncatingIfNeeded: a)
        let af = Float(a)
        p[0] = Self.u16Rounded(mixed.r * af)
        p[1] = Self.u16Rounded(mixed.g * af)
        p[2] = Self.u16Rounded(mixed.b * af)
    }

    /// `(x) + 0.5` in double, converted to uint16_t.
    @inline(__always) static func u16Rounded(_ x: Float) -> UInt16 {
        let v = Double(x) + 0.5
        return v > 0 ? UInt16(truncatingIfNeeded: UInt32(min(v, 65535))) : 0
    }

    /// libmypaint's spectral_blend_factor: how far to mix by pigment rather than additively,
    /// by the pixel's alpha (little paint mixes additively).
    @inline(__always) static func spectralFactor(_ x: Float) -> Float {
        let b = x * 8 - 3
        let f = Float(0.5 + Double(b / (1 + abs(b) * 1.65)))
        return f > 1 ? 1 : (f < 0 ? 0 : f)
    }

    @inline(__always) func normalAndEraserPaint(_ mask: UInt32, _ p: UnsafeMutablePointer<UInt16>, _ opacity: UInt32) {
        let opaA = (mask &* opacity) >> 15, opaB = 32768 &- opaA
        let opaA2 = (opaA &* colorA15) >> 15
        let a = UInt32(p[3])
        let opaOut = opaA2 &+ (opaB &* a) >> 15
        var r: UInt32 = 0, g: UInt32 = 0, b: UInt32 = 0
        let spectral = Self.spectralFactor(Float(a) / 32768)
        let additive = Float(1 - Double(spectral))
        if additive != 0 {
            r = (opaA2 &* color.r &+ opaB &* UInt32(p[0])) >> 15
            g = (opaA2 &* color.g &+ opaB &* UInt32(p[1])) >> 15
            b = (opaA2 &* color.b &+ opaB &* UInt32(p[2])) >> 15
        }
        if spectral != 0 && a != 0 {
            var faA = Float(opaA) / Float(opaA &+ (opaB &* a) >> 15)
            faA *= Float(colorA15) / 32768
            let faB = Float(1 - Double(faA))
            let mixed = Spectral.rgb(Spectral.mix(curve, faA, Self.curve(of: p), faB))
            let out = Float(opaOut)
            r = Self.u32(additive * Float(r) + spectral * mixed.r * out)
            g = Self.u32(additive * Float(g) + spectral * mixed.g * out)
            b = Self.u32(additive * Float(b) + spectral * mixed.b * out)
        }
        p[3] = UInt16(truncatingIfNeeded: opaOut)
        p[0] = UInt16(truncatingIfNeeded: r)
        p[1] = UInt16(truncatingIfNeeded: g)
        p[2] = UInt16(truncatingIfNeeded: b)
    }

    @inline(__always) static func u32(_ v: Float) -> UInt32 { v > 0 ? UInt32(min(v, 4_294_967_040)) : 0 }

    @inline(__always) func lockAlphaPaint(_ mask: UInt32, _ p: UnsafeMutablePointer<UInt16>, _ opacity: UInt32) {
        var opaA = (mask &* max(opacity, 150)) >> 15
        let opaB = 32768 &- opaA
        opaA = (opaA &* UInt32(p[3])) >> 15
        guard p[3] > 0 else {
            p[0] = UInt16(truncatingIfNeeded: (opaA &* color.r &+ opaB &* UInt32(p[0])) >> 15)
            p[1] = UInt16(truncatingIfNeeded: (opaA &* color.g &+ opaB &* UInt32(p[1])) >> 15)
            p[2] = UInt16(truncatingIfNeeded: (opaA &* color.b &+ opaB &* UInt32(p[2])) >> 15)
            return
        }
        pigmentMix(opaA, opaB, p)
    }

    /// GIMP's posterize on the pixel's colour (alpha kept), blended in by the opacity.
    @inline(__always) func posterizePass(_ mask: UInt32, _ p: UnsafeMutablePointer<UInt16>) {
        let n = Float(posterizeLevels)
        @inline(__always) func level(_ v: UInt16) -> UInt32 {
            let x = Float(v) / 32768
            let rounded = Self.int(Double(x * n) + 0.5)
            return UInt32(truncatingIfNeeded: 32768 &* rounded / Int(posterizeLevels))
        }
        let opaA = (mask &* posterizeOpacity) >> 15, opaB = 32768 &- opaA
        let pr = level(p[0]), pg = level(p[1]), pb = level(p[2])
        p[0] = UInt16(truncatingIfNeeded: (opaA &* pr &+ opaB &* UInt32(p[0])) >> 15)
        p[1] = UInt16(truncatingIfNeeded: (opaA &* pg &+ opaB &* UInt32(p[1])) >> 15)
        p[2] = UInt16(truncatingIfNeeded: (opaA &* pb &+ opaB &* UInt32(p[2])) >> 15)
    }
}
