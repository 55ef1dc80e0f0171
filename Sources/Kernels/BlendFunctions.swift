/// Eight pixels' values in Float, a lane each (two SSE registers; eight ran the non-separable
/// modes 30 % faster than four, the separable ones 10 %).
typealias Lanes = SIMD8<Float>
/// Pixels (0xAARRGGBB) or bit patterns, as many as `Lanes`.
typealias PixelLanes = SIMD8<UInt32>

/// The straight (not premultiplied) colours of eight pixels, a vector per channel, each in 0…1:
/// every lane is a pixel, so what the spec writes per pixel runs on all of them at once.
struct Colours {
    var r, g, b: Lanes
}

/// A blend function B(Cb, Cs) of the W3C compositing spec: the mixed colour where a source
/// colour `cs` lies on a backdrop colour `cb`.
protocol BlendFunction {
    static func mix(_ cb: Colours, _ cs: Colours) -> Colours
}

/// A blend function that mixes each channel on its own.
protocol SeparableBlendFunction: BlendFunction {
    static func channel(_ cb: Lanes, _ cs: Lanes) -> Lanes
}

extension SeparableBlendFunction {
    @inline(__always) static func mix(_ cb: Colours, _ cs: Colours) -> Colours {
        Colours(r: channel(cb.r, cs.r), g: channel(cb.g, cs.g), b: channel(cb.b, cs.b))
    }
}

// Masks and selects without `SIMDMask`: Swift's vector comparisons make masks of single bits
// that LLVM rebuilds lane by lane (and then splits the divisions too); a mask here is all ones
// or all zeros per lane, from the sign of a difference, and selecting is bitwise.

/// All ones in the lanes where a < b, zeros elsewhere: the sign of a − b (never −0 for finite
/// a, b that differ; lanes that hold a NaN or an infinity are bare pixels, whose results are
/// thrown away).
@inline(__always) func below(_ a: Lanes, _ b: Lanes) -> PixelLanes {
    unsafeBitCast(unsafeBitCast(a - b, to: SIMD8<Int32>.self) &>> 31, to: PixelLanes.self)
}

/// `a` in the lanes where `m` is all ones, else `b`.
@inline(__always) func select(_ m: PixelLanes, _ a: Lanes, _ b: Lanes) -> Lanes {
    unsafeBitCast(unsafeBitCast(a, to: PixelLanes.self) & m | unsafeBitCast(b, to: PixelLanes.self) & ~m, to: Lanes.self)
}

@inline(__always) func lanesMin(_ a: Lanes, _ b: Lanes) -> Lanes { select(below(b, a), b, a) }
@inline(__always) func lanesMax(_ a: Lanes, _ b: Lanes) -> Lanes { select(below(a, b), b, a) }

enum MultiplyBlend: SeparableBlendFunction {
    @inline(__always) static func channel(_ cb: Lanes, _ cs: Lanes) -> Lanes { cb * cs }
}

enum ScreenBlend: SeparableBlendFunction {
    @inline(__always) static func channel(_ cb: Lanes, _ cs: Lanes) -> Lanes { cb + cs - cb * cs }
}

enum OverlayBlend: SeparableBlendFunction {
    @inline(__always) static func channel(_ cb: Lanes, _ cs: Lanes) -> Lanes { HardLightBlend.channel(cs, cb) }
}

enum DarkenBlend: SeparableBlendFunction {
    @inline(__always) static func channel(_ cb: Lanes, _ cs: Lanes) -> Lanes { lanesMin(cb, cs) }
}

enum LightenBlend: SeparableBlendFunction {
    @inline(__always) static func channel(_ cb: Lanes, _ cs: Lanes) -> Lanes { lanesMax(cb, cs) }
}

enum ColorDodgeBlend: SeparableBlendFunction {
    /// 0 where Cb = 0, else 1 where Cs = 1, else min(1, Cb / (1 − Cs)).
    @inline(__always) static func channel(_ cb: Lanes, _ cs: Lanes) -> Lanes {
        let one = Lanes(repeating: 1)
        // The lanes the division cannot serve get a divisor of 1 (no infinities), then their value.
        let partial = below(cs, one)
        let quotient = lanesMin(one, cb / select(partial, one - cs, one))
        return select(below(.zero, cb), select(partial, quotient, one), .zero)
    }
}

enum ColorBurnBlend: SeparableBlendFunction {
    /// 1 where Cb = 1, else 0 where Cs = 0, else 1 − min(1, (1 − Cb) / Cs).
    @inline(__always) static func channel(_ cb: Lanes, _ cs: Lanes) -> Lanes {
        let one = Lanes(repeating: 1)
        let some = below(.zero, cs)
        let burnt = one - lanesMin(one, (one - cb) / select(some, cs, one))
        return select(below(cb, one), select(some, burnt, .zero), one)
    }
}

enum HardLightBlend: SeparableBlendFunction {
    /// Multiply(Cb, 2·Cs) where Cs ≤ 0.5, else Screen(Cb, 2·Cs − 1).
    @inline(__always) static func channel(_ cb: Lanes, _ cs: Lanes) -> Lanes {
        let twice = cs + cs
        return select(below(Lanes(repeating: 0.5), cs), ScreenBlend.channel(cb, twice - 1), cb * twice)
    }
}

enum SoftLightBlend: SeparableBlendFunction {
    /// Cb − (1 − 2·Cs)·Cb·(1 − Cb) where Cs ≤ 0.5, else Cb + (2·Cs − 1)·(D(Cb) − Cb), with
    /// D(Cb) = ((16·Cb − 12)·Cb + 4)·Cb where Cb ≤ 0.25, else √Cb.
    @inline(__always) static func channel(_ cb: Lanes, _ cs: Lanes) -> Lanes {
        let twice = cs + cs
        let darker = cb - (1 - twice) * cb * (1 - cb)
        let d = select(below(Lanes(repeating: 0.25), cb), squareRoot(cb), ((16 * cb - 12) * cb + 4) * cb)
        return select(below(Lanes(repeating: 0.5), cs), cb + (twice - 1) * (d - cb), darker)
    }
}

/// √x for x in (0.25, 1] (other lanes give unspecified values), to Float precision: halving the
/// exponent bits guesses within 4 %, and three Newton steps, y ← (y + x/y)/2, square the error
/// each time (4 %, 1e-3, 1e-6, below Float's 6e-8). The vector `squareRoot()` is a libm call
/// per lane.
@inline(__always) func squareRoot(_ x: Lanes) -> Lanes {
    var y = unsafeBitCast(unsafeBitCast(x, to: PixelLanes.self) &>> 1 &+ 0x1FBD_1DF5, to: Lanes.self)
    y = 0.5 * (y + x / y)
    y = 0.5 * (y + x / y)
    return 0.5 * (y + x / y)
}

enum DifferenceBlend: SeparableBlendFunction {
    @inline(__always) static func channel(_ cb: Lanes, _ cs: Lanes) -> Lanes {
        lanesMax(cb, cs) - lanesMin(cb, cs)
    }
}

enum AdditionBlend: SeparableBlendFunction {
    /// min(1, Cb + Cs): Krita's "Addition", which is what it reads `svg:plus` as.
    @inline(__always) static func channel(_ cb: Lanes, _ cs: Lanes) -> Lanes {
        lanesMin(cb + cs, Lanes(repeating: 1))
    }
}
