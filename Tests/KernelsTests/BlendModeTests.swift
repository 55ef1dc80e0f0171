import Kernels
import Testing

/// The W3C "Compositing and Blending Level 1" formulas as the spec writes them, in straight
/// (non-premultiplied) Double arithmetic, channels in 0…1 as (red, green, blue). Two details
/// follow Krita as `LayerBlend` documents: the luminosity weights are BT.601's (the spec rounds
/// them to 0.3, 0.59, 0.11) and plus is B = min(1, Cb + Cs) in source-over (Krita's Addition).
enum SpecReference {
    typealias RGB = SIMD3<Double>

    static func lum(_ c: RGB) -> Double { 0.299 * c.x + 0.587 * c.y + 0.114 * c.z }

    static func clipColor(_ c: RGB) -> RGB {
        let l = lum(c), n = c.min(), x = c.max()
        var c = c
        if n < 0 { c = l + (c - l) * l / (l - n) }
        if x > 1 { c = l + (c - l) * (1 - l) / (x - l) }
        return c
    }

    static func setLum(_ c: RGB, _ l: Double) -> RGB { clipColor(c + (l - lum(c))) }

    static func sat(_ c: RGB) -> Double { c.max() - c.min() }

    /// The spec's SetSat: the channels sorted into min, mid and max.
    static func setSat(_ c: RGB, _ s: Double) -> RGB {
        let order = [0, 1, 2].sorted { c[$0] < c[$1] }
        let (lo, mid, hi) = (order[0], order[1], order[2])
        var out = RGB.zero
        if c[hi] > c[lo] {
            out[mid] = (c[mid] - c[lo]) * s / (c[hi] - c[lo])
            out[hi] = s
        }
        return out
    }

    static func hardLight(_ b: Double, _ s: Double) -> Double { s <= 0.5 ? b * 2 * s : b + (2 * s - 1) - b * (2 * s - 1) }

    static func separable(_ mode: BlendMode, _ b: Double, _ s: Double) -> Double {
        switch mode {
        case .normal: return s
        case .multiply: return b * s
        case .screen: return b + s - b * s
        case .overlay: return hardLight(s, b)
        case .darken: return min(b, s)
        case .lighten: return max(b, s)
        case .colorDodge: return b == 0 ? 0 : s == 1 ? 1 : min(1, b / (1 - s))
        case .colorBurn: return b == 1 ? 1 : s == 0 ? 0 : 1 - min(1, (1 - b) / s)
        case .hardLight: return hardLight(b, s)
        case .softLight:
            if s <= 0.5 { return b - (1 - 2 * s) * b * (1 - b) }
            let d = b <= 0.25 ? ((16 * b - 12) * b + 4) * b : b.squareRoot()
            return b + (2 * s - 1) * (d - b)
        case .difference: return abs(b - s)
        case .plus: return min(1, b + s)
        case .hue, .saturation, .color, .luminosity: fatalError("not separable")
        }
    }

    /// B(Cb, Cs).
    static func blend(_ mode: BlendMode, _ cb: RGB, _ cs: RGB) -> RGB {
        switch mode {
        case .hue: return setLum(setSat(cs, sat(cb)), lum(cb))
        case .saturation: return setLum(setSat(cb, sat(cs)), lum(cb))
        case .color: return setLum(cs, lum(cb))
        case .luminosity: return setLum(cb, lum(cs))
        default: return RGB(separable(mode, cb.x, cs.x), separable(mode, cb.y, cs.y), separable(mode, cb.z, cs.z))
        }
    }

    /// The composited pixel, premultiplied, in 0…255 (red, green, blue, alpha), from
    /// premultiplied 8-bit pixels (0xAARRGGBB). The opacity first scales the source's bytes,
    /// each rounded to 8 bits, as `LayerBlend` documents.
    static func composite(_ mode: BlendMode, source: UInt32, backdrop: UInt32, opacity: UInt32) -> SIMD4<Double> {
        func channels(_ p: UInt32) -> SIMD4<Double> {
            SIMD4(Double(p >> 16 & 0xFF), Double(p >> 8 & 0xFF), Double(p & 0xFF), Double(p >> 24))
        }
        let s = (channels(source) * Double(opacity) / 255).rounded(.toNearestOrAwayFromZero), d = channels(backdrop)
        if s.w == 0 { return d }
        if d.w == 0 { return s }
        let alphaS = s.w / 255, alphaB = d.w / 255
        let cs = RGB(s.x, s.y, s.z) / s.w, cb = RGB(d.x, d.y, d.z) / d.w
        let co = alphaS * (1 - alphaB) * cs + alphaB * (1 - alphaS) * cb + alphaS * alphaB * blend(mode, cb, cs)
        return SIMD4(255 * co, 255 * (alphaS + alphaB * (1 - alphaS)))
    }
}

/// Premultiplies a straight colour to 0xAARRGGBB, each channel rounded to nearest.
func premultiplied(_ r: UInt32, _ g: UInt32, _ b: UInt32, _ a: UInt32) -> UInt32 {
    func pre(_ c: UInt32) -> UInt32 { (c * a + 127) / 255 }  // c·a/255 is never k + ½: 255 is odd
    return a << 24 | pre(r) << 16 | pre(g) << 8 | pre(b)
}

/// Runs `LayerBlend.blendRow` on arrays.
func blended(_ source: [UInt32], onto backdrop: [UInt32], opacity: UInt32, mode: BlendMode) -> [UInt32] {
    precondition(source.count == backdrop.count)
    var out = backdrop
    source.withUnsafeBufferPointer { s in
        out.withUnsafeMutableBufferPointer { d in
            LayerBlend.blendRow(s.baseAddress!, onto: d.baseAddress!, count: s.count, opacity: opacity, mode: mode)
        }
    }
    return out
}

@Suite struct BlendModeTests {
    /// Black, white, greys, primaries and secondaries, and a few in-between colours, straight.
    static let colours: [(UInt32, UInt32, UInt32)] = [
        (0, 0, 0), (255, 255, 255), (128, 128, 128), (64, 64, 64), (191, 191, 191),
        (255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 0), (0, 255, 255), (255, 0, 255),
        (255, 128, 0), (100, 150, 200), (30, 60, 90), (200, 30, 120), (1, 2, 3),
    ]
    static let alphas: [UInt32] = [0, 1, 64, 128, 200, 254, 255]
    /// Every colour at every alpha, premultiplied.
    static let grid: [UInt32] = alphas.flatMap { a in colours.map { premultiplied($0.0, $0.1, $0.2, a) } }

    /// Every source of the grid on every backdrop of the grid, each backdrop a row blended in one
    /// call, against the spec in Double: within 1 level per channel.
    @Test(arguments: BlendMode.allCases)
    func matchesTheSpec(mode: BlendMode) {
        let grid = Self.grid
        var failures: [String] = []
        for opacity: UInt32 in [255, 153, 1] {
            for backdrop in grid {
                let out = blended(grid, onto: [UInt32](repeating: backdrop, count: grid.count), opacity: opacity, mode: mode)
                for (source, got) in zip(grid, out) {
                    let want = SpecReference.composite(mode, source: source, backdrop: backdrop, opacity: opacity)
                    let have = SIMD4(Double(got >> 16 & 0xFF), Double(got >> 8 & 0xFF), Double(got & 0xFF), Double(got >> 24))
                    if (have - want).replacing(with: want - have, where: have .< want).max() > 1 {
                        failures.append("opacity \(opacity): \(hex(source)) on \(hex(backdrop)) gave \(hex(got)), want \(want)")
                    }
                }
            }
        }
        #expect(failures.isEmpty, "\(mode.name): \(failures.count) pixels, \(failures.prefix(5))")
    }

    /// Pixels Krita 5.1.5 flattened (Tests/Tools/krita_blend.py: two-layer .ora files exported
    /// with `krita --export`): straight source and backdrop as Krita read them, Krita's straight
    /// result premultiplied. The kernel blends the layers premultiplied: within 3 levels.
    @Test func matchesKrita() {
        typealias Straight = (UInt32, UInt32, UInt32, UInt32)
        let measured: [(BlendMode, UInt32, Straight, Straight, Straight)] = [
            (.color, 255, (0, 255, 255, 255), (255, 255, 0, 255), (158, 255, 255, 255)),  // the spec's weights: 162
            (.luminosity, 255, (255, 255, 0, 255), (0, 255, 255, 255), (158, 255, 255, 255)),
            (.hue, 255, (30, 60, 90, 200), (0, 255, 0, 255), (60, 185, 200, 255)),
            (.saturation, 255, (0, 0, 255, 200), (30, 60, 90, 200), (5, 51, 140, 243)),
            (.plus, 255, (0, 0, 0, 128), (0, 0, 0, 128), (0, 0, 0, 192)),  // the spec's plus: alpha 255
            (.plus, 255, (255, 128, 0, 128), (100, 150, 200, 255), (178, 203, 200, 255)),
            (.plus, 153, (255, 0, 0, 255), (128, 128, 128, 255), (204, 128, 128, 255)),
            (.softLight, 255, (30, 60, 90, 255), (100, 150, 200, 255), (54, 117, 187, 255)),
            (.colorDodge, 255, (255, 255, 255, 255), (0, 0, 0, 255), (0, 0, 0, 255)),
            (.colorDodge, 255, (191, 191, 191, 255), (100, 150, 200, 255), (255, 255, 255, 255)),
            (.colorBurn, 255, (30, 60, 90, 255), (240, 200, 20, 255), (127, 21, 0, 255)),
            (.overlay, 153, (255, 128, 0, 200), (100, 150, 200, 255), (147, 150, 174, 255)),
            (.difference, 255, (200, 30, 120, 255), (100, 150, 200, 128), (150, 75, 100, 255)),
            (.hardLight, 255, (100, 150, 200, 255), (200, 30, 120, 255), (157, 70, 197, 255)),
            (.multiply, 153, (255, 128, 0, 255), (100, 150, 200, 255), (100, 105, 80, 255)),
            (.screen, 255, (30, 60, 90, 128), (0, 0, 0, 255), (15, 30, 45, 255)),
            (.normal, 153, (255, 0, 0, 128), (0, 0, 255, 200), (77, 0, 140, 217)),
            (.darken, 255, (240, 200, 20, 255), (30, 60, 90, 255), (30, 60, 20, 255)),
            (.lighten, 255, (240, 200, 20, 100), (30, 60, 90, 255), (112, 114, 90, 255)),
        ]
        for (mode, opacity, s, d, k) in measured {
            let got = blended([premultiplied(s.0, s.1, s.2, s.3)], onto: [premultiplied(d.0, d.1, d.2, d.3)], opacity: opacity, mode: mode)[0]
            let krita = [k.0, k.1, k.2, k.3].map(Int.init), have = [got >> 16 & 0xFF, got >> 8 & 0xFF, got & 0xFF, got >> 24].map(Int.init)
            #expect(zip(krita, have).allSatisfy { abs($0 - $1) <= 3 }, "\(mode.name) at \(opacity): \(have), Krita \(krita)")
        }
    }

    /// Exact identities on opaque backdrops: an opaque source that the mode leaves out.
    @Test func neutralSourcesLeaveTheBackdrop() {
        let white = premultiplied(255, 255, 255, 255), black = premultiplied(0, 0, 0, 255)
        let backdrops = Self.colours.map { premultiplied($0.0, $0.1, $0.2, 255) }
        let neutral: [(BlendMode, UInt32)] = [
            (.multiply, white), (.screen, black), (.darken, white), (.lighten, black), (.difference, black),
            (.colorDodge, black), (.colorBurn, white), (.plus, black),
        ]
        for (mode, source) in neutral {
            #expect(blended([UInt32](repeating: source, count: backdrops.count), onto: backdrops, opacity: 255, mode: mode) == backdrops,
                    "\(mode.name) with \(hex(source))")
        }
        #expect(blended([UInt32](repeating: black, count: backdrops.count), onto: backdrops, opacity: 255, mode: .multiply)
            == [UInt32](repeating: black, count: backdrops.count))
        #expect(blended([UInt32](repeating: white, count: backdrops.count), onto: backdrops, opacity: 255, mode: .screen)
            == [UInt32](repeating: white, count: backdrops.count))
        // Normal: an opaque source replaces the backdrop, half red on white is pink.
        #expect(blended(backdrops.reversed(), onto: backdrops, opacity: 255, mode: .normal) == backdrops.reversed())
        #expect(blended([premultiplied(255, 0, 0, 128)], onto: [white], opacity: 255, mode: .normal) == [0xFFFF_7F7F])
    }

    /// Opacity 0 and transparent source pixels leave the backdrop exactly; a transparent backdrop
    /// takes the scaled source exactly; an opaque backdrop stays opaque; colour never exceeds alpha.
    @Test(arguments: BlendMode.allCases)
    func invariants(mode: BlendMode) {
        let grid = Self.grid
        var failures: [String] = []
        for backdrop in grid {
            let row = [UInt32](repeating: backdrop, count: grid.count)
            if blended(grid, onto: row, opacity: 0, mode: mode) != row { failures.append("opacity 0 on \(hex(backdrop))") }
            for opacity: UInt32 in [255, 153, 1] {
                let out = blended(grid, onto: row, opacity: opacity, mode: mode)
                for (source, got) in zip(grid, out) {
                    let a = got >> 24, scaled = Self.scaledByHand(source, opacity)
                    let kept = scaled >> 24 != 0 || got == backdrop
                    let taken = backdrop >> 24 != 0 || got == scaled
                    let opaque = backdrop >> 24 != 255 || a == 255
                    let premultiplied = got >> 16 & 0xFF <= a && got >> 8 & 0xFF <= a && got & 0xFF <= a
                    if !(kept && taken && opaque && premultiplied) {
                        failures.append("opacity \(opacity): \(hex(source)) on \(hex(backdrop)) gave \(hex(got))")
                    }
                }
            }
        }
        #expect(failures.isEmpty, "\(mode.name): \(failures.count) pixels, \(failures.prefix(5))")
    }

    /// A long row in one call (eight pixels at a time where the kernel does that, then the rest)
    /// gives the bytes of the same pixels blended one call each.
    @Test(arguments: BlendMode.allCases)
    func rowsSplitAnywhereGiveTheSameBytes(mode: BlendMode) {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next() -> UInt32 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt32(truncatingIfNeeded: state >> 33)
        }
        // Runs of bare, solid and mixed pixels, so whole groups of eight take each path.
        let source: [UInt32] = (0..<203).map { i in
            let a: UInt32 = switch (i / 16) % 3 { case 0: 0; case 1: 255; default: next() & 0xFF }
            return premultiplied(next() & 0xFF, next() & 0xFF, next() & 0xFF, a)
        }
        let backdrop: [UInt32] = (0..<203).map { _ in premultiplied(next() & 0xFF, next() & 0xFF, next() & 0xFF, next() & 0xFF) }
        for opacity: UInt32 in [255, 200] {
            let whole = blended(source, onto: backdrop, opacity: opacity, mode: mode)
            let single = zip(source, backdrop).map { blended([$0], onto: [$1], opacity: opacity, mode: mode)[0] }
            #expect(whole == single)
        }
    }

    @Test func namesAndCompositeOps() {
        #expect(BlendMode.allCases.count == 16)
        #expect(BlendMode.normal.rawValue == "svg:src-over" && BlendMode.normal.name == "normal")
        #expect(BlendMode.colorDodge.rawValue == "svg:color-dodge" && BlendMode.colorDodge.name == "color-dodge")
        #expect(BlendMode(rawValue: "svg:plus") == .plus && BlendMode(name: "plus") == .plus)
        #expect(BlendMode(name: "soft-light") == .softLight && BlendMode(name: "svg:soft-light") == nil)
        #expect(BlendMode(rawValue: "svg:exclusion") == nil)
        #expect(BlendMode.allCases.filter { !$0.isSeparable } == [.color, .luminosity, .hue, .saturation])
        for mode in BlendMode.allCases { #expect(BlendMode(name: mode.name) == mode) }
    }

    /// Each byte times opacity/255, rounded to nearest (never a tie: 255 is odd).
    static func scaledByHand(_ p: UInt32, _ opacity: UInt32) -> UInt32 {
        [24, 16, 8, 0].reduce(0) { out, shift in out | (((p >> UInt32(shift) & 0xFF) * opacity + 127) / 255) << UInt32(shift) }
    }
}

private func hex(_ p: UInt32) -> String { "0x" + String(p, radix: 16) }
