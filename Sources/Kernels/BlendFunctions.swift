/// A blend function B(Cb, Cs) of the W3C compositing spec: the mixed colour where a source
/// colour `cs` lies on a backdrop colour `cb`, both straight (not premultiplied), in 0…1.
///
/// Colours are SIMD4 lanes (blue, green, red, alpha), the byte order of a 0xAARRGGBB pixel; the
/// alpha lane holds 1 in both and whatever comes out of it is ignored.
protocol BlendFunction {
    static func mix(_ cb: SIMD4<Float>, _ cs: SIMD4<Float>) -> SIMD4<Float>
}

enum MultiplyBlend: BlendFunction {
    @inline(__always) static func mix(_ cb: SIMD4<Float>, _ cs: SIMD4<Float>) -> SIMD4<Float> { cb * cs }
}

enum ScreenBlend: BlendFunction {
    @inline(__always) static func mix(_ cb: SIMD4<Float>, _ cs: SIMD4<Float>) -> SIMD4<Float> { cb + cs - cb * cs }
}

enum OverlayBlend: BlendFunction {
    @inline(__always) static func mix(_ cb: SIMD4<Float>, _ cs: SIMD4<Float>) -> SIMD4<Float> { HardLightBlend.mix(cs, cb) }
}

enum DarkenBlend: BlendFunction {
    @inline(__always) static func mix(_ cb: SIMD4<Float>, _ cs: SIMD4<Float>) -> SIMD4<Float> { pointwiseMin(cb, cs) }
}

enum LightenBlend: BlendFunction {
    @inline(__always) static func mix(_ cb: SIMD4<Float>, _ cs: SIMD4<Float>) -> SIMD4<Float> { pointwiseMax(cb, cs) }
}

enum ColorDodgeBlend: BlendFunction {
    /// 0 where Cb = 0, else 1 where Cs = 1, else min(1, Cb / (1 − Cs)).
    @inline(__always) static func mix(_ cb: SIMD4<Float>, _ cs: SIMD4<Float>) -> SIMD4<Float> {
        let one = SIMD4<Float>(repeating: 1)
        // The lanes the division cannot serve get a divisor of 1 (no infinities), then their value.
        let whole = cs .>= one
        let quotient = pointwiseMin(one, cb / (one - cs).replacing(with: 1, where: whole))
        return quotient.replacing(with: 1, where: whole).replacing(with: 0, where: cb .<= .zero)
    }
}

enum ColorBurnBlend: BlendFunction {
    /// 1 where Cb = 1, else 0 where Cs = 0, else 1 − min(1, (1 − Cb) / Cs).
    @inline(__always) static func mix(_ cb: SIMD4<Float>, _ cs: SIMD4<Float>) -> SIMD4<Float> {
        let one = SIMD4<Float>(repeating: 1)
        let none = cs .<= .zero
        let burnt = one - pointwiseMin(one, (one - cb) / cs.replacing(with: 1, where: none))
        return burnt.replacing(with: 0, where: none).replacing(with: 1, where: cb .>= one)
    }
}

enum HardLightBlend: BlendFunction {
    /// Multiply(Cb, 2·Cs) where Cs ≤ 0.5, else Screen(Cb, 2·Cs − 1).
    @inline(__always) static func mix(_ cb: SIMD4<Float>, _ cs: SIMD4<Float>) -> SIMD4<Float> {
        let twice = cs + cs
        let screened = ScreenBlend.mix(cb, twice - 1)
        return screened.replacing(with: cb * twice, where: cs .<= 0.5)
    }
}

enum SoftLightBlend: BlendFunction {
    /// Cb − (1 − 2·Cs)·Cb·(1 − Cb) where Cs ≤ 0.5, else Cb + (2·Cs − 1)·(D(Cb) − Cb), with
    /// D(Cb) = ((16·Cb − 12)·Cb + 4)·Cb where Cb ≤ 0.25, else √Cb.
    @inline(__always) static func mix(_ cb: SIMD4<Float>, _ cs: SIMD4<Float>) -> SIMD4<Float> {
        let twice = cs + cs
        let darker = cb - (1 - twice) * cb * (1 - cb)
        let d = cb.squareRoot().replacing(with: ((16 * cb - 12) * cb + 4) * cb, where: cb .<= 0.25)
        let lighter = cb + (twice - 1) * (d - cb)
        return lighter.replacing(with: darker, where: cs .<= 0.5)
    }
}

enum DifferenceBlend: BlendFunction {
    @inline(__always) static func mix(_ cb: SIMD4<Float>, _ cs: SIMD4<Float>) -> SIMD4<Float> {
        pointwiseMax(cb, cs) - pointwiseMin(cb, cs)
    }
}

enum AdditionBlend: BlendFunction {
    /// min(1, Cb + Cs): Krita's "Addition", which is what it reads `svg:plus` as.
    @inline(__always) static func mix(_ cb: SIMD4<Float>, _ cs: SIMD4<Float>) -> SIMD4<Float> {
        pointwiseMin(cb + cs, SIMD4(repeating: 1))
    }
}
