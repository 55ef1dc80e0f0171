/// The W3C spec's non-separable blend functions, which mix whole colours: hue, saturation,
/// color and luminosity, built from its Lum, ClipColor, SetLum, Sat and SetSat.
///
/// Lanes are (blue, green, red, alpha) as in `BlendFunction`; the alpha lane is kept out of every
/// minimum, maximum and luminosity.
enum NonSeparable {
    /// Lum(C) = 0.299·R + 0.587·G + 0.114·B: the BT.601 luma weights that Krita's HSY modes use.
    /// The spec rounds them to 0.3, 0.59, 0.11, which moves saturated colours by up to 4 levels
    /// (cyan in color mode on yellow: red 162 with the spec's, 158 with these and in Krita).
    @inline(__always) static func lum(_ c: SIMD4<Float>) -> Float {
        c.x * 0.114 + c.y * 0.587 + c.z * 0.299
    }

    @inline(__always) static func minimum(_ c: SIMD4<Float>) -> Float { min(c.x, min(c.y, c.z)) }
    @inline(__always) static func maximum(_ c: SIMD4<Float>) -> Float { max(c.x, max(c.y, c.z)) }

    /// Brings a colour whose channels left 0…1 back inside, keeping its luminosity and hue.
    ///
    /// Where the spec's luminosity is 0 (or 1) its colour is black (or white), but in Float a
    /// grey's luminosity can land a hair outside while its channels do too, and l − n (or x − l)
    /// is then 0: such a colour is taken straight to its luminosity instead of dividing by 0.
    @inline(__always) static func clipColor(_ c: SIMD4<Float>) -> SIMD4<Float> {
        let l = lum(c), n = minimum(c), x = maximum(c)
        var c = c
        if n < 0 { c = l + (c - l) * (l > 0 ? l / (l - n) : 0) }
        if x > 1 { c = l + (c - l) * (l < 1 ? (1 - l) / (x - l) : 0) }
        return pointwiseMax(pointwiseMin(c, SIMD4(repeating: 1)), .zero)
    }

    /// `c` with its luminosity made `l`.
    @inline(__always) static func setLum(_ c: SIMD4<Float>, _ l: Float) -> SIMD4<Float> {
        clipColor(c + (l - lum(c)))
    }

    /// Sat(C) = max − min.
    @inline(__always) static func sat(_ c: SIMD4<Float>) -> Float { maximum(c) - minimum(c) }

    /// `c` with its saturation made `s`: the largest channel becomes s, the smallest 0, the middle
    /// one keeps its place between them (a grey becomes black). The spec sorts the channels to do
    /// this; scaling every channel by (C − min)·s / (max − min) gives the same three values.
    @inline(__always) static func setSat(_ c: SIMD4<Float>, _ s: Float) -> SIMD4<Float> {
        let n = minimum(c), x = maximum(c)
        guard x > n else { return .zero }
        return (c - n) * (s / (x - n))
    }
}

enum HueBlend: BlendFunction {
    /// SetLum(SetSat(Cs, Sat(Cb)), Lum(Cb)).
    @inline(__always) static func mix(_ cb: SIMD4<Float>, _ cs: SIMD4<Float>) -> SIMD4<Float> {
        NonSeparable.setLum(NonSeparable.setSat(cs, NonSeparable.sat(cb)), NonSeparable.lum(cb))
    }
}

enum SaturationBlend: BlendFunction {
    /// SetLum(SetSat(Cb, Sat(Cs)), Lum(Cb)).
    @inline(__always) static func mix(_ cb: SIMD4<Float>, _ cs: SIMD4<Float>) -> SIMD4<Float> {
        NonSeparable.setLum(NonSeparable.setSat(cb, NonSeparable.sat(cs)), NonSeparable.lum(cb))
    }
}

enum ColorBlend: BlendFunction {
    /// SetLum(Cs, Lum(Cb)).
    @inline(__always) static func mix(_ cb: SIMD4<Float>, _ cs: SIMD4<Float>) -> SIMD4<Float> {
        NonSeparable.setLum(cs, NonSeparable.lum(cb))
    }
}

enum LuminosityBlend: BlendFunction {
    /// SetLum(Cb, Lum(Cs)).
    @inline(__always) static func mix(_ cb: SIMD4<Float>, _ cs: SIMD4<Float>) -> SIMD4<Float> {
        NonSeparable.setLum(cb, NonSeparable.lum(cs))
    }
}
