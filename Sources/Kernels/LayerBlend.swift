/// Composites a layer onto what is below it: premultiplied 8-bit RGBA (0xAARRGGBB, r, g, b ≤ a)
/// on both sides, in any `BlendMode`.
///
/// Every mode is source-over with blending, the W3C "Compositing and Blending Level 1" form in
/// premultiplied terms: co = cs·(1 − αb) + cb·(1 − αs) + αs·αb·B(Cb, Cs) and
/// αo = αs + αb·(1 − αs), where cs, cb are premultiplied and Cs, Cb straight. Two choices follow
/// Krita rather than the spec, where the two differ by more than Krita's own rounding:
/// - `plus` is Krita's "Addition", B = min(1, Cb + Cs) in that same form, not the spec's
///   Porter-Duff plus (co = cs + cb, αo = αs + αb): half-transparent black on half-transparent
///   black is alpha 192 in Krita, 255 by the spec;
/// - luminosity (hue, saturation, color, luminosity) uses BT.601's 0.299, 0.587, 0.114, not the
///   spec's 0.3, 0.59, 0.11 (up to 4 levels on saturated colours).
///
/// Rounding: the layer's opacity first scales the source pixel's four bytes, each to
/// x·opacity/255 rounded to nearest (`Blend.mul255`), as if the layer had been stored at that
/// opacity. Then αo = αs + mul255(αb, 255 − αs), so an opaque backdrop stays opaque, and each
/// colour byte is the formula's value rounded to nearest (ties up): exactly for normal
/// (cs + mul255(cb, 255 − αs)), from a Float computation for the others, never above αo. A pixel
/// whose scaled source alpha is 0 leaves the backdrop as it is; one whose backdrop alpha is 0
/// becomes the scaled source. Each pixel is computed alone, in a fixed order: the same bytes on
/// every run and thread count.
public enum LayerBlend {
    /// Composites `count` premultiplied source pixels, scaled by `opacity` (0…255), onto the
    /// premultiplied backdrop `dst` in place. Pixels that are not premultiplied (a colour byte
    /// above alpha) give unspecified bytes.
    public static func blendRow(_ src: UnsafePointer<UInt32>, onto dst: UnsafeMutablePointer<UInt32>, count: Int,
                                opacity: UInt32, mode: BlendMode) {
        let opacity = min(opacity, 255)
        guard count > 0, opacity > 0 else { return }
        switch mode {
        case .normal: normalRow(src, onto: dst, count: count, opacity: opacity)
        case .plus: mixRow(src, onto: dst, count: count, opacity: opacity, AdditionBlend.self)
        case .multiply: mixRow(src, onto: dst, count: count, opacity: opacity, MultiplyBlend.self)
        case .screen: mixRow(src, onto: dst, count: count, opacity: opacity, ScreenBlend.self)
        case .overlay: mixRow(src, onto: dst, count: count, opacity: opacity, OverlayBlend.self)
        case .darken: mixRow(src, onto: dst, count: count, opacity: opacity, DarkenBlend.self)
        case .lighten: mixRow(src, onto: dst, count: count, opacity: opacity, LightenBlend.self)
        case .colorDodge: mixRow(src, onto: dst, count: count, opacity: opacity, ColorDodgeBlend.self)
        case .colorBurn: mixRow(src, onto: dst, count: count, opacity: opacity, ColorBurnBlend.self)
        case .hardLight: mixRow(src, onto: dst, count: count, opacity: opacity, HardLightBlend.self)
        case .softLight: mixRow(src, onto: dst, count: count, opacity: opacity, SoftLightBlend.self)
        case .difference: mixRow(src, onto: dst, count: count, opacity: opacity, DifferenceBlend.self)
        case .hue: mixRow(src, onto: dst, count: count, opacity: opacity, HueBlend.self)
        case .saturation: mixRow(src, onto: dst, count: count, opacity: opacity, SaturationBlend.self)
        case .color: mixRow(src, onto: dst, count: count, opacity: opacity, ColorBlend.self)
        case .luminosity: mixRow(src, onto: dst, count: count, opacity: opacity, LuminosityBlend.self)
        }
    }

    /// All four bytes of `p` times opacity/255, rounded to nearest.
    @inline(__always) static func scaled(_ p: UInt32, _ opacity: UInt32) -> UInt32 {
        let br = p & 0x00FF_00FF, ga = (p >> 8) & 0x00FF_00FF
        // Both channels of a half at once: each product stays inside its 16 bits.
        let tbr = br &* opacity &+ 0x0080_0080, tga = ga &* opacity &+ 0x0080_0080
        let rbr = ((tbr &+ ((tbr >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
        let rga = ((tga &+ ((tga >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
        return rbr | rga << 8
    }

    /// The separable and non-separable modes, one pixel at a time in Float.
    @inline(__always)
    static func mixRow<F: BlendFunction>(_ src: UnsafePointer<UInt32>, onto dst: UnsafeMutablePointer<UInt32>, count: Int,
                                         opacity: UInt32, _: F.Type) {
        for i in 0..<count {
            let s = opacity == 255 ? src[i] : scaled(src[i], opacity)
            let sa = s >> 24
            if sa == 0 { continue }
            let d = dst[i], da = d >> 24
            if da == 0 { dst[i] = s; continue }
            dst[i] = mixPixel(s, d, F.self)
        }
    }

    /// One pixel of `mixRow`, both alphas above 0.
    @inline(__always)
    static func mixPixel<F: BlendFunction>(_ s: UInt32, _ d: UInt32, _: F.Type) -> UInt32 {
        let shifts = SIMD4<UInt32>(0, 8, 16, 24)
        let sv = SIMD4<Float>((SIMD4(repeating: s) &>> shifts) & 0xFF)
        let dv = SIMD4<Float>((SIMD4(repeating: d) &>> shifts) & 0xFF)
        let sa = sv.w, da = dv.w
        // Straight colours; the alpha lane becomes 1. At most 1 even for a colour byte above alpha.
        let cs = pointwiseMin(sv / sa, SIMD4(repeating: 1)), cb = pointwiseMin(dv / da, SIMD4(repeating: 1))
        let alphaS = sa / 255, alphaB = da / 255
        let mixed = F.mix(cb, cs)
        let o = sv * (1 - alphaB) + dv * (1 - alphaS) + (alphaS * alphaB * 255) * mixed
        let q = SIMD4<UInt32>(pointwiseMax(o + 0.5, .zero).rounded(.towardZero))
        let a = (s >> 24) &+ Blend.mul255(d >> 24, 255 &- (s >> 24))
        let c = pointwiseMin(q, SIMD4(repeating: a))
        return a << 24 | c.z << 16 | c.y << 8 | c.x
    }
}
