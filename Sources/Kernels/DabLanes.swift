/// Four-lane versions of the arithmetic the dab kernel does one pixel at a time.
enum DabLanes {
    typealias F4 = SIMD4<Float>
    typealias U4 = SIMD4<UInt32>
    typealias D4 = SIMD4<Double>

    /// UInt32 lanes below 2³¹ as floats (C's conversion, rounded to nearest).
    @inline(__always) static func float(_ v: U4) -> F4 { F4(unsafeBitCast(v, to: SIMD4<Int32>.self)) }

    /// x rounded toward zero, for 0 ≤ x < 2²², as a float.
    @inline(__always) static func truncated(_ x: F4) -> F4 {
        let magic = F4(repeating: 12_582_912)
        let r = (x + magic) - magic
        return r.replacing(with: r - 1, where: r .> x)
    }

    /// A whole float 0 ≤ t < 2²³ as an integer: its bits once 2²³ is added.
    @inline(__always) static func u32(_ t: F4) -> U4 { unsafeBitCast(t + 8_388_608, to: U4.self) &- 0x4B00_0000 }

    /// C's `(uint16_t)((x) + 0.5)` with the sum in double, for 0 ≤ x < 2²¹: ⌊x + 0.5⌋.
    @inline(__always) static func roundedHalfUp(_ x: F4) -> U4 {
        let d = D4(x) + 0.5
        let magic = D4(repeating: 6_755_399_441_055_744)
        var r = (d + magic) - magic
        r = r.replacing(with: r - 1, where: r .> d)
        return u32(F4(r))
    }

    /// libmypaint's pigment mix for four pixels at once: the dab's curve (given as its fastlog2,
    /// band by band) to the power `fa`, times each pixel's curve (from its straight colour) to the
    /// power `fb`, back to RGB. The bands are summed in order, as libmypaint does.
    @inline(__always) static func mix(_ logA: Spectral.Curve, _ fa: F4, r: F4, g: F4, b: F4, _ fb: F4)
        -> (r: F4, g: F4, b: F4) {
        let eps = 0.001
        let offset = Spectral.offset
        let rr = F4(D4(r * offset) + eps), gg = F4(D4(g * offset) + eps), bb = F4(D4(b * offset) + eps)
        var sr = F4(), sg = F4(), sb = F4()
        for i in 0..<10 {
            let band = Spectral.red[i] * rr + Spectral.green[i] * gg + Spectral.blue[i] * bb
            let m = fastpow2(fa * logA[i]) * fastpow2(fb * fastlog2(band))
            if i == 0 {
                sr = Spectral.toRed[0] * m
                sg = Spectral.toGreen[0] * m
                sb = Spectral.toBlue[0] * m
            } else {
                sr += Spectral.toRed[i] * m
                sg += Spectral.toGreen[i] * m
                sb += Spectral.toBlue[i] * m
            }
        }
        @inline(__always) func channel(_ v: F4) -> F4 {
            let x = (D4(v) - eps) / Double(offset)
            return F4(x.replacing(with: 1, where: x .> 1).replacing(with: 0, where: x .< 0))
        }
        return (channel(sr), channel(sg), channel(sb))
    }

    @inline(__always) static func fastlog2(_ x: F4) -> F4 {
        let bits = unsafeBitCast(x, to: U4.self)
        let mx = unsafeBitCast((bits & 0x007F_FFFF) | 0x3F00_0000, to: F4.self)
        var y = F4(unsafeBitCast(bits, to: SIMD4<Int32>.self))
        y *= 1.1920928955078125e-7
        return y - 124.22551499 - 1.498030302 * mx - 1.72587999 / (0.3520887068 + mx)
    }

    @inline(__always) static func fastpow2(_ p: F4) -> F4 {
        let offset = F4(repeating: 0).replacing(with: 1, where: p .< 0)
        let clipp = p.replacing(with: -126, where: p .< -126)
        let magic = F4(repeating: 12_582_912)
        let r = (clipp + magic) - magic
        let w = r.replacing(with: r - 1, where: (r .> clipp) .& (clipp .>= 0)).replacing(with: r + 1, where: (r .< clipp) .& (clipp .< 0))
        let z = clipp - w + offset
        let v = 8_388_608 * (clipp + 121.2740575 + 27.7280233 / (4.84252568 - z) - 1.49012907 * z)
        let d = D4(v) + 4_503_599_627_370_496
        return unsafeBitCast(SIMD4<UInt32>(truncatingIfNeeded: unsafeBitCast(d, to: SIMD4<UInt64>.self)), to: F4.self)
    }
}
