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
/// colour byte is the formula's value rounded to nearest: exactly for normal
/// (cs + mul255(cb, 255 − αs)), from a Float computation for the others (ties, which Float
/// rarely meets exactly, to even), never above αo. A pixel
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

    /// The separable and non-separable modes in Float, `Lanes.scalarCount` pixels at a time.
    @inline(__always)
    static func mixRow<F: BlendFunction>(_ src: UnsafePointer<UInt32>, onto dst: UnsafeMutablePointer<UInt32>, count: Int,
                                         opacity: UInt32, _: F.Type) {
        let width = PixelLanes.scalarCount
        var i = 0
        while i &+ width <= count {
            let s = scaled(UnsafeRawPointer(src + i).loadUnaligned(as: PixelLanes.self), opacity)
            let d = UnsafeRawPointer(dst + i).loadUnaligned(as: PixelLanes.self)
            if let out = mix(s, d, F.self) { UnsafeMutableRawPointer(dst + i).storeBytes(of: out, as: PixelLanes.self) }
            i &+= width
        }
        if i < count { mixTail(src + i, onto: dst + i, count: count &- i, opacity: opacity, F.self) }
    }

    /// The last pixels of a row, fewer than `Lanes.scalarCount`, padded with bare ones. Out of
    /// line: inlined, its copy of `mix` made LLVM shuffle lanes in the main loop's copy too.
    @inline(never)
    static func mixTail<F: BlendFunction>(_ src: UnsafePointer<UInt32>, onto dst: UnsafeMutablePointer<UInt32>, count: Int,
                                          opacity: UInt32, _: F.Type) {
        var s = PixelLanes(), d = PixelLanes()
        for k in 0..<count { s[k] = src[k]; d[k] = dst[k] }
        guard let out = mix(scaled(s, opacity), d, F.self) else { return }
        for k in 0..<count { dst[k] = out[k] }
    }

    /// Pixels of `mixRow`, the source already scaled; nil when every source is bare.
    @inline(__always)
    static func mix<F: BlendFunction>(_ s: PixelLanes, _ d: PixelLanes, _: F.Type) -> PixelLanes? {
        // Runs of bare source pixels are common in a layer. (The same shortcut for a bare
        // backdrop, returning `s`, made LLVM split the vectors into lanes: the pick below does it.)
        let sAlphas = unsafeBitCast(s & PixelLanes(repeating: 0xFF00_0000), to: (UInt64, UInt64, UInt64, UInt64).self)
        if sAlphas.0 | sAlphas.1 | sAlphas.2 | sAlphas.3 == 0 { return nil }
        // All ones where alpha is 0: alpha − 1 is then the only negative.
        @inline(__always) func bare(_ p: PixelLanes) -> PixelLanes {
            unsafeBitCast((unsafeBitCast(p &>> 24, to: SIMD8<Int32>.self) &- 1) &>> 31, to: PixelLanes.self)
        }
        let sBare = bare(s), dBare = bare(d)
        let byte = PixelLanes(repeating: 0xFF), one = Lanes(repeating: 1), magic = Lanes(repeating: 8_388_608)
        // A byte as Float, exactly: its bits under 2²³'s exponent make 2²³ + v, less 2²³. (The
        // standard library's vector conversion is a call.)
        @inline(__always) func float(_ v: PixelLanes) -> Lanes { unsafeBitCast(v | 0x4B00_0000, to: Lanes.self) - magic }
        let sa = float(s &>> 24), da = float(d &>> 24)
        let sr = float(s &>> 16 & byte), sg = float(s &>> 8 & byte), sb = float(s & byte)
        let dr = float(d &>> 16 & byte), dg = float(d &>> 8 & byte), db = float(d & byte)
        // Straight colours by true division (c = a gives exactly 1, 2c = a exactly ½, where the
        // spec's cases turn). Bare lanes divide by 0 and are replaced at the end: guarding the
        // divisor made LLVM split the vectors into lanes.
        let cs = Colours(r: lanesMin(sr / sa, one), g: lanesMin(sg / sa, one), b: lanesMin(sb / sa, one))
        let cb = Colours(r: lanesMin(dr / da, one), g: lanesMin(dg / da, one), b: lanesMin(db / da, one))
        let mixed = F.mix(cb, cs)
        let keepS = 1 - da * (1 / 255), keepB = 1 - sa * (1 / 255), both = sa * da * (1 / 255)
        // αs + αb·(255 − αs)/255 is never k + ½ (255 is odd), so Float rounds it as mul255 would.
        let alpha = (sa + da - both + magic) - magic
        // Each channel at most αo, then rounded to nearest by adding 2²³: the integer lands in the
        // low mantissa bits (a hair below 0 becomes 0); the standard library's conversion calls.
        @inline(__always) func channel(_ s: Lanes, _ d: Lanes, _ m: Lanes) -> PixelLanes {
            unsafeBitCast(lanesMin(s * keepS + d * keepB + both * m, alpha) + magic, to: PixelLanes.self) & 0x7F_FFFF
        }
        let a = unsafeBitCast(alpha + magic, to: PixelLanes.self) & 0x7F_FFFF
        let out = a &<< 24 | channel(sr, dr, mixed.r) &<< 16 | channel(sg, dg, mixed.g) &<< 8 | channel(sb, db, mixed.b)
        // A bare source keeps the backdrop, a bare backdrop takes the source.
        return pick(sBare, d, pick(dBare, s, out))
    }

    /// `a` in the lanes where `m` is all ones, else `b`.
    @inline(__always) static func pick(_ m: PixelLanes, _ a: PixelLanes, _ b: PixelLanes) -> PixelLanes { a & m | b & ~m }

    /// `scaled` on each pixel.
    @inline(__always) static func scaled(_ p: PixelLanes, _ opacity: UInt32) -> PixelLanes {
        guard opacity != 255 else { return p }
        let low = PixelLanes(repeating: 0x00FF_00FF)
        let tbr = (p & low) &* opacity &+ 0x0080_0080, tga = (p &>> 8 & low) &* opacity &+ 0x0080_0080
        let rbr = (tbr &+ (tbr &>> 8 & low)) &>> 8 & low, rga = (tga &+ (tga &>> 8 & low)) &>> 8 & low
        return rbr | rga &<< 8
    }
}
