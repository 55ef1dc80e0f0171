/// A dab's colorize pass: the pixel takes the dab's hue and saturation and keeps its own
/// luminosity and alpha (the W3C "color" blend mode, with BT.709 luma weights in 15-bit
/// integers): libmypaint 1.6's draw_dab_pixels_BlendMode_Color, conversion for conversion.
enum DabColorize {
    static let lumaRed = Float(0.2126 * 32768)
    static let lumaGreen = Float(0.7152 * 32768)
    static let lumaBlue = Float(0.0722 * 32768)

    /// The luma of three 15-bit values, as a float (`LUMA(r, g, b)`).
    @inline(__always) static func luma(_ r: Float, _ g: Float, _ b: Float) -> Float { r * lumaRed + g * lumaGreen + b * lumaBlue }

    /// C's float → integer conversion (truncation toward zero) in the range met.
    @inline(__always) static func int(_ v: Float) -> Int32 { v > -2e9 && v < 2e9 ? Int32(v) : 0 }

    /// The colour (straight, 15 bits) of `top` at the luminosity of (r, g, b) (straight), clipped
    /// into gamut: SetLum and ClipColor.
    @inline(__always) static func withLuminosity(of r: UInt16, _ g: UInt16, _ b: UInt16,
                                                 top: (r: UInt32, g: UInt32, b: UInt32)) -> (UInt16, UInt16, UInt16) {
        let botLum = UInt16(truncatingIfNeeded: int(luma(Float(r), Float(g), Float(b)) / 32768))
        let topLum = UInt16(truncatingIfNeeded: int(luma(Float(top.r), Float(top.g), Float(top.b)) / 32768))
        let diff = Int16(truncatingIfNeeded: Int32(botLum) - Int32(topLum))
        var r = Int32(top.r) + Int32(diff), g = Int32(top.g) + Int32(diff), b = Int32(top.b) + Int32(diff)
        let lum = int(luma(Float(r), Float(g), Float(b)) / 32768)
        let cmin = min(r, g, b), cmax = max(r, g, b)
        if cmin < 0, lum != cmin {
            r = lum + ((r - lum) &* lum) / (lum - cmin)
            g = lum + ((g - lum) &* lum) / (lum - cmin)
            b = lum + ((b - lum) &* lum) / (lum - cmin)
        }
        if cmax > 32768, cmax != lum {
            r = lum + ((r - lum) &* (32768 - lum)) / (cmax - lum)
            g = lum + ((g - lum) &* (32768 - lum)) / (cmax - lum)
            b = lum + ((b - lum) &* (32768 - lum)) / (cmax - lum)
        }
        return (UInt16(truncatingIfNeeded: r), UInt16(truncatingIfNeeded: g), UInt16(truncatingIfNeeded: b))
    }

    /// The pass on one pixel: `mask` its opacity there, `opacity` the pass's.
    @inline(__always) static func apply(_ mask: UInt32, _ p: UnsafeMutablePointer<UInt16>, _ color: (r: UInt32, g: UInt32, b: UInt32),
                                        _ opacity: UInt32) {
        let a = UInt32(p[3])
        var r: UInt16 = 0, g: UInt16 = 0, b: UInt16 = 0
        if a != 0 {
            r = UInt16(truncatingIfNeeded: (32768 &* UInt32(p[0])) / a)
            g = UInt16(truncatingIfNeeded: (32768 &* UInt32(p[1])) / a)
            b = UInt16(truncatingIfNeeded: (32768 &* UInt32(p[2])) / a)
        }
        (r, g, b) = withLuminosity(of: r, g, b, top: color)
        let pr = (UInt32(r) &* a) >> 15, pg = (UInt32(g) &* a) >> 15, pb = (UInt32(b) &* a) >> 15
        let opaA = (mask &* opacity) >> 15, opaB = 32768 &- opaA
        p[0] = UInt16(truncatingIfNeeded: (opaA &* (pr & 0xffff) &+ opaB &* UInt32(p[0])) >> 15)
        p[1] = UInt16(truncatingIfNeeded: (opaA &* (pg & 0xffff) &+ opaB &* UInt32(p[1])) >> 15)
        p[2] = UInt16(truncatingIfNeeded: (opaA &* (pb & 0xffff) &+ opaB &* UInt32(p[2])) >> 15)
    }
}
