import Compute
import Geometry
import Kernels
import Testing

@Suite struct BlendTests {
    @Test func mul255IsExactRounding() {
        for x in UInt32(0)...255 {
            for y in UInt32(0)...255 {
                let exact = (Double(x) * Double(y) / 255).rounded()
                #expect(Blend.mul255(x, y) == UInt32(exact))
                if Blend.mul255(x, y) != UInt32(exact) { return }
            }
        }
    }

    @Test func overEndpoints() {
        #expect(Blend.over(0xFF12_3456, r: 200, g: 100, b: 50, alpha: 0) == 0xFF12_3456)
        #expect(Blend.over(0xFF12_3456, r: 200, g: 100, b: 50, alpha: 255) == 0xFFC8_6432)
        // Half-transparent red over white: r stays full, g and b drop to 127.
        #expect(Blend.over(0xFFFF_FFFF, r: 255, g: 0, b: 0, alpha: 128) == 0xFFFF_7F7F)
    }

    @Test func colorParsing() {
        #expect(Color(hex: "#ff8000") == Color(r: 255, g: 128, b: 0))
        #expect(Color(hex: "#FF000080") == Color(r: 255, g: 0, b: 0, a: 128))
        #expect(Color(hex: "ff0000") == nil)
        #expect(Color(hex: "#ff00") == nil)
        #expect(Color(hex: "#gg0000") == nil)
        #expect(Color(r: 1, g: 2, b: 255, a: 16).description == "#0102ff10")
        #expect(Color(hex: "#123456")?.pixel == 0xFF12_3456)
    }
}

@Suite struct ComposeKernelTests {
    /// A 4x3 golden image: a white canvas, committed coverage on the top row, tail coverage on
    /// the middle row, translucent red at alpha 0x80.
    @Test func composeGolden() {
        let canvas = TextureStorage<UInt32>(width: 4, height: 3, filledWith: 0xFFFF_FFFF)
        let committed = TextureStorage<UInt8>(width: 4, height: 3, filledWith: 0)
        let tail = TextureStorage<UInt8>(width: 4, height: 3, filledWith: 0)
        let out = TextureStorage<UInt32>(width: 4, height: 3, filledWith: 0)
        for (x, v) in [UInt8(255), 128, 0, 255].enumerated() { committed.texture[x, 0] = v }
        for (x, v) in [UInt8(0), 255, 64, 255].enumerated() { tail.texture[x, 1] = v }
        committed.texture[3, 1] = 128 // max(128, 255) = 255: coverage never adds up
        let stroke = ComposeKernel.Stroke(color: Color(r: 255, g: 0, b: 0, a: 128), committed: committed.texture,
                                          tail: tail.texture, bounds: Rect(x: 0, y: 0, width: 4, height: 2))
        ComposeKernel(canvas: canvas.texture, output: out.texture, stroke: stroke, view: .plain).run(over: canvas.texture.bounds, on: ComputeContext(threads: 1))
        let golden: [UInt32] = [
            0xFFFF_7F7F, 0xFFFF_BFBF, 0xFFFF_FFFF, 0xFFFF_7F7F,
            0xFFFF_FFFF, 0xFFFF_7F7F, 0xFFFF_DFDF, 0xFFFF_7F7F,
            0xFFFF_FFFF, 0xFFFF_FFFF, 0xFFFF_FFFF, 0xFFFF_FFFF,
        ]
        #expect(out.pixels == golden)
    }

    /// The pulse and invert filters, eight pixels at a time and one at a time, against the
    /// formula: each channel + shift·(255 − A)/255, clamped to 0…255, opaque, then inverted.
    /// Every alpha, and runs of bare and of fully painted pixels (which skip the multiplies), in
    /// extreme colours, with shifts that overflow and underflow.
    @Test(arguments: [SIMD3<Int32>(255, -255, 40), SIMD3(-200, 3, 255), SIMD3(0, 0, 0)], [false, true])
    func viewFiltersFollowTheFormula(shift: SIMD3<Int32>, invert: Bool) {
        let width = 256 * 4 + 3  // not a multiple of eight: the one-at-a-time tail runs too
        let canvas = TextureStorage<UInt32>(width: width, height: 1, filledWith: 0)
        for x in 0..<width {
            let a = x / 256 % 2 == 0 ? UInt32(x % 256) : x / 16 % 2 == 0 ? 0 : 255, c = [0, 255, 128, 1][x / 256 % 4] as UInt32
            canvas.texture[x, 0] = a << 24 | c << 16 | (255 - c) << 8 | (c ^ 0x5A)
        }
        let out = TextureStorage<UInt32>(width: width, height: 1, filledWith: 0)
        ComposeKernel(canvas: canvas.texture, output: out.texture, stroke: nil, view: .init(backgroundShift: shift, invert: invert))
            .run(over: canvas.texture.bounds, on: ComputeContext(threads: 1))
        var wrong: [Int] = []
        for x in 0..<width {
            let p = canvas.texture[x, 0], bare = 255 - p >> 24
            func channel(_ at: UInt32, _ d: Int32) -> UInt32 {
                let v = Int32((p >> at) & 0xff) + Int32(Blend.mul255(UInt32(max(d, 0)), bare)) - Int32(Blend.mul255(UInt32(max(-d, 0)), bare))
                let c = UInt32(min(max(v, 0), 255))
                return (invert ? 255 - c : c) << at
            }
            if out.texture[x, 0] != 0xFF00_0000 | channel(16, shift.x) | channel(8, shift.y) | channel(0, shift.z) { wrong.append(x) }
        }
        #expect(wrong.isEmpty, "first wrong pixels: \(wrong.prefix(5))")
    }

    @Test func composeTouchesOnlyTheRegion() {
        let canvas = TextureStorage<UInt32>(width: 40, height: 30, filledWith: 0xFF00_0000)
        let out = TextureStorage<UInt32>(width: 40, height: 30, filledWith: 0x1234_5678)
        let region = Rect(x: 3, y: 5, width: 17, height: 9)
        ComposeKernel(canvas: canvas.texture, output: out.texture, stroke: nil, view: .plain).run(over: region, on: ComputeContext(threads: 2, inlineThreshold: 0))
        for y in 0..<30 {
            for x in 0..<40 {
                #expect(out.texture[x, y] == (region.contains(x: x, y: y) ? 0xFF00_0000 : 0x1234_5678))
            }
        }
    }
}

@Suite struct CoverageTests {
    @Test func discIsRoundFullInsideAndEmptyOutside() {
        let m = TextureStorage<UInt8>(width: 32, height: 32, filledWith: 0)
        Coverage.stampDisc(m.texture, x: 16, y: 16, radius: 6, clip: m.texture.bounds)
        var sum = 0.0
        for y in 0..<32 {
            for x in 0..<32 {
                let d = ((Double(x) + 0.5 - 16) * (Double(x) + 0.5 - 16) + (Double(y) + 0.5 - 16) * (Double(y) + 0.5 - 16)).squareRoot()
                let v = m.texture[x, y]
                if d <= 5.5 { #expect(v == 255, "inside \(x),\(y)") }
                if d >= 6.5 { #expect(v == 0, "outside \(x),\(y)") }
                #expect(v == m.texture[31 - x, y] && v == m.texture[x, 31 - y], "symmetric at \(x),\(y)")
                sum += Double(v) / 255
            }
        }
        #expect(abs(sum - Double.pi * 36) < 1.5)
    }

    /// Cached stamps are the discs drawn directly, for shapes on the stamps' grid, over more
    /// shapes than the cache holds (so it empties and refills); a negative radius draws nothing.
    @Test func cachedStampsAreTheDirectDiscs() {
        let stamps = DiscStamps()
        let viaCache = TextureStorage<UInt8>(width: 80, height: 80, filledWith: 0)
        let direct = TextureStorage<UInt8>(width: 80, height: 80, filledWith: 0)
        var differing: [Int] = []
        for i in 0..<700 {
            // On the stamps' grid: radius in 1/16 pixel (up to 31.4), centre in 1/4 pixel.
            let radius = Double(4 + i % 500) / 16, x = 40 + Double(i % 4) * 0.25, y = 39 + Double(i / 4 % 4) * 0.25
            viaCache.texture.fill(viaCache.texture.bounds, with: 0)
            direct.texture.fill(direct.texture.bounds, with: 0)
            stamps.stamp(viaCache.texture, x: x, y: y, radius: radius, clip: viaCache.texture.bounds)
            Coverage.stampDisc(direct.texture, x: x, y: y, radius: radius, clip: direct.texture.bounds)
            if viaCache.pixels != direct.pixels { differing.append(i) }
        }
        #expect(differing.isEmpty, "shapes \(differing.prefix(5))")
        viaCache.texture.fill(viaCache.texture.bounds, with: 0)
        stamps.stamp(viaCache.texture, x: 40, y: 40, radius: -3, clip: viaCache.texture.bounds)
        #expect(viaCache.pixels.allSatisfy { $0 == 0 })
    }

    @Test func discClipsAtEdges() {
        let m = TextureStorage<UInt8>(width: 8, height: 8, filledWith: 0)
        Coverage.stampDisc(m.texture, x: -1e9, y: 4, radius: 3, clip: m.texture.bounds)
        Coverage.stampDisc(m.texture, x: 0, y: 0, radius: 3, clip: m.texture.bounds)
        #expect(m.texture[0, 0] == 255)
        #expect(m.texture[7, 7] == 0)
    }
}
