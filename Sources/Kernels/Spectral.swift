import CVector

/// Pigment ("spectral") colour mixing, as libmypaint 1.6 mixes paint when a brush's `paint_mode`
/// is above 0: a colour is lifted to a 10-band reflectance curve (the sum of three primaries'
/// curves weighted by r, g and b), two curves are mixed by a weighted geometric mean (what
/// subtractive paint does: blue and yellow make green, not grey), and the result is brought back
/// to RGB through a 3x10 matrix.
///
/// Written from libmypaint's description and reproducing its arithmetic step for step, in `Float`
/// with the same promotions to `Double` its C makes, so that a dab mixed here lands on the same
/// 15-bit values as libmypaint's: the tables are libmypaint's (helpers.c, ISC licence), and
/// `pow` is Paul Mineiro's fastapprox `fastpow` (BSD), bit for bit.
public enum Spectral {
    /// A reflectance curve: 10 bands (lanes 10…15 unused, zero).
    public typealias Curve = SIMD16<Float>

    /// libmypaint's WGM_EPSILON: colours are kept off 0 so the geometric mean never takes log 0.
    static let epsilon = 0.001
    /// 1 − ε, as C's `float offset = 1.0 - WGM_EPSILON`.
    static let offset = Float(1.0 - epsilon)

    static let red: Curve = curve([0.009281362787953, 0.009732627042016, 0.011254252737167, 0.015105578649573,
                                   0.024797924177217, 0.083622585502406, 0.977865045723212, 1.000000000000000,
                                   0.999961046144372, 0.999999992756822])
    static let green: Curve = curve([0.002854127435775, 0.003917589679914, 0.012132151699187, 0.748259205918013,
                                     1.000000000000000, 0.865695937531795, 0.037477469241101, 0.022816789725717,
                                     0.021747419446456, 0.021384940572308])
    static let blue: Curve = curve([0.537052150373386, 0.546646402401469, 0.575501819073983, 0.258778829633924,
                                    0.041709923751716, 0.012662638828324, 0.007485593127390, 0.006766900622462,
                                    0.006699764779016, 0.006676219883241])
    /// Rows of the matrix from a curve back to r, g, b.
    static let toRed: Curve = curve([0.026595621243689, 0.049779426257903, 0.022449850859496, -0.218453689278271,
                                     -0.256894883201278, 0.445881722194840, 0.772365886289756, 0.194498761382537,
                                     0.014038157587820, 0.007687264480513])
    static let toGreen: Curve = curve([-0.032601672674412, -0.061021043498478, -0.052490001018404, 0.206659098273522,
                                       0.572496335158169, 0.317837248815438, -0.021216624031211, -0.019387668756117,
                                       -0.001521339050858, -0.000835181622534])
    static let toBlue: Curve = curve([0.339475473216284, 0.635401374177222, 0.771520797089589, 0.113222640692379,
                                      -0.055251113343776, -0.048222578468680, -0.012966666339586, -0.001523814504223,
                                      -0.000094718948810, -0.000051604594741])

    /// The six tables for C (DabRows.c), made once for the process and never freed.
    nonisolated(unsafe) static let table: UnsafePointer<qs_spectral> = {
        @inline(__always) func ten(_ c: Curve) -> (Float, Float, Float, Float, Float, Float, Float, Float, Float, Float) {
            (c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8], c[9])
        }
        let table = UnsafeMutablePointer<qs_spectral>.allocate(capacity: 1)
        table.initialize(to: qs_spectral(red: ten(red), green: ten(green), blue: ten(blue), to_red: ten(toRed), to_green: ten(toGreen),
                                         to_blue: ten(toBlue)))
        return UnsafePointer(table)
    }()

    private static func curve(_ values: [Double]) -> Curve {
        var c = Curve()
        for (i, v) in values.enumerated() { c[i] = Float(v) }
        return c
    }

    /// The last 15-bit colour a dab asked for, its curve (`curve(r:g:b:)` of it divided back by
    /// 1<<15, as the C passes it) and that curve's fastlog2.
    public struct Memo: Sendable {
        var color: SIMD3<UInt32>?
        var curve = Curve(), logCurve = Curve()

        public init() {}

        mutating func curves(r: UInt32, g: UInt32, b: UInt32) -> (curve: Curve, log: Curve) {
            let c = SIMD3(r, g, b)
            if color != c {
                curve = Spectral.curve(r: Float(r) / 32768, g: Float(g) / 32768, b: Float(b) / 32768)
                logCurve = Spectral.fastlog2(curve)
                color = c
            }
            return (curve, logCurve)
        }
    }

    /// The reflectance curve of straight r, g, b (each 0…1): libmypaint's rgb_to_spectral.
    @inline(__always) public static func curve(r: Float, g: Float, b: Float) -> Curve {
        // `r * offset + WGM_EPSILON`: the product in float, the sum in double, stored as float.
        let r = Float(Double(r * offset) + epsilon), g = Float(Double(g * offset) + epsilon)
        let b = Float(Double(b * offset) + epsilon)
        return red * r + green * g + blue * b
    }

    /// The straight r, g, b (each clamped to 0…1) of a curve: libmypaint's spectral_to_rgb.
    @inline(__always) public static func rgb(_ s: Curve) -> (r: Float, g: Float, b: Float) {
        // The products at once; summed band by band from 0 in order, as the C loop does.
        let pr = toRed * s, pg = toGreen * s, pb = toBlue * s
        var r = pr[0], g = pg[0], b = pb[0]
        for i in 1..<10 {
            r += pr[i]
            g += pg[i]
            b += pb[i]
        }
        // `CLAMP((tmp - WGM_EPSILON) / offset, 0.0f, 1.0f)`: subtracted and divided in double.
        @inline(__always) func channel(_ v: Float) -> Float {
            let x = (Double(v) - epsilon) / Double(offset)
            return Float(x > 1 ? 1 : (x < 0 ? 0 : x))
        }
        return (channel(r), channel(g), channel(b))
    }

    /// The weighted geometric mean a^fa · b^fb, band by band, with fastpow (all bands at once).
    @inline(__always) public static func mix(_ a: Curve, _ fa: Float, _ b: Curve, _ fb: Float) -> Curve {
        fastpow(a, Curve(repeating: fa)) * fastpow(b, Curve(repeating: fb))
    }

    /// fastapprox's fastpow(x, p) = 2^(p·log2 x), both approximated, lane by lane: the same bits
    /// as the scalar `fastpow` for x ≥ 0 (as reflectances are).
    @inline(__always) public static func fastpow(_ x: Curve, _ p: Curve) -> Curve { fastpow2(p * fastlog2(x)) }

    /// fastpow(x, p) for one value.
    @inline(__always) public static func fastpow(_ x: Float, _ p: Float) -> Float { fastpow(Curve(repeating: x), Curve(repeating: p))[0] }

    @inline(__always) static func fastlog2(_ x: Curve) -> Curve {
        let bits = unsafeBitCast(x, to: SIMD16<UInt32>.self)
        let mx = unsafeBitCast((bits & 0x007F_FFFF) | 0x3F00_0000, to: Curve.self)
        // C converts the bits as an unsigned integer; for x ≥ 0 they are below 2³¹, so as a signed
        // one (what SSE2 converts) they are the same number.
        var y = Curve(unsafeBitCast(bits, to: SIMD16<Int32>.self))
        y *= 1.1920928955078125e-7
        return y - 124.22551499 - 1.498030302 * mx - 1.72587999 / (0.3520887068 + mx)
    }

    @inline(__always) static func fastpow2(_ p: Curve) -> Curve {
        let offset = Curve(repeating: 0).replacing(with: 1, where: p .< 0)
        let clipp = p.replacing(with: -126, where: p .< -126)
        let z = clipp - truncated(clipp) + offset
        let v = 8_388_608 * (clipp + 121.2740575 + 27.7280233 / (4.84252568 - z) - 1.49012907 * z)
        // C's cast of v to uint32_t. v is a whole number here (at least 2²³, where floats are),
        // so its low 32 bits as a double added to 2⁵² are it: no float-to-int instruction needed.
        let d = SIMD16<Double>(v) + 4_503_599_627_370_496
        return unsafeBitCast(SIMD16<UInt32>(truncatingIfNeeded: unsafeBitCast(d, to: SIMD16<UInt64>.self)), to: Curve.self)
    }

    /// x rounded toward zero (C's conversion to int and back), for |x| < 2²²: rounded to nearest
    /// by the magic number 1.5·2²³, then stepped back toward zero where that went away from it.
    @inline(__always) static func truncated(_ x: Curve) -> Curve {
        let magic = Curve(repeating: 12_582_912)
        let r = (x + magic) - magic
        return r.replacing(with: r - 1, where: (r .> x) .& (x .>= 0)).replacing(with: r + 1, where: (r .< x) .& (x .< 0))
    }
}
