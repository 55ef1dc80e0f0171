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
        let stroke = ComposeKernel.Stroke(color: Color(r: 255, g: 0, b: 0, a: 128), committed: TiledMask(committed.texture),
                                          tail: TiledMask(tail.texture), bounds: Rect(x: 0, y: 0, width: 4, height: 2))
        // The stroke paints into an empty layer over a white background.
        var k = ComposeKernel(below: .color(0xFFFF_FFFF), layer: TiledTexture(), canvas: canvas.texture.bounds, output: out.texture)
        k.stroke = stroke
        k.run(over: canvas.texture.bounds, on: ComputeContext(threads: 1))
        let golden: [UInt32] = [
            0xFFFF_7F7F, 0xFFFF_BFBF, 0xFFFF_FFFF, 0xFFFF_7F7F,
            0xFFFF_FFFF, 0xFFFF_7F7F, 0xFFFF_DFDF, 0xFFFF_7F7F,
            0xFFFF_FFFF, 0xFFFF_FFFF, 0xFFFF_FFFF, 0xFFFF_FFFF,
        ]
        #expect(out.pixels == golden)
    }

    /// The invert filter: each shown colour (1 − r, 1 − g, 1 − b), opaque.
    @Test func invertFlipsEveryShownColour() {
        let width = 67
        let below = TextureStorage<UInt32>(width: width, height: 1, filledWith: 0)
        for x in 0..<width { below.texture[x, 0] = 0xFF00_0000 | UInt32(x * 3) << 16 | UInt32(255 - x) << 8 | UInt32(x ^ 0x5A) }
        let out = TextureStorage<UInt32>(width: width, height: 1, filledWith: 0)
        var k = ComposeKernel(below: .texture(below.texture), layer: nil, canvas: below.texture.bounds, output: out.texture)
        k.invert = true
        k.run(over: below.texture.bounds, on: ComputeContext(threads: 1))
        for x in 0..<width { #expect(out.texture[x, 0] == below.texture[x, 0] ^ 0x00FF_FFFF, "x=\(x)") }
    }

    @Test func composeTouchesOnlyTheRegion() {
        let canvas = TextureStorage<UInt32>(width: 40, height: 30, filledWith: 0xFF00_0000)
        let out = TextureStorage<UInt32>(width: 40, height: 30, filledWith: 0x1234_5678)
        let region = Rect(x: 3, y: 5, width: 17, height: 9)
        ComposeKernel(below: .texture(canvas.texture), layer: nil, canvas: canvas.texture.bounds, output: out.texture)
            .run(over: region, on: ComputeContext(threads: 2, inlineThreshold: 0))
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
    /// shapes than the cache holds (so it empties and refills, twice), whole (16 bytes a row at a
    /// time) and cut by a clip or the mask's edge (a byte at a time); a negative radius draws
    /// nothing.
    @Test func cachedStampsAreTheDirectDiscs() {
        let stamps = DiscStamps()
        let viaCache = TextureStorage<UInt8>(width: 80, height: 80, filledWith: 0)
        let direct = TextureStorage<UInt8>(width: 80, height: 80, filledWith: 0)
        let clips = [viaCache.texture.bounds, Rect(x: 30, y: 33, width: 25, height: 17), Rect(x: 0, y: 0, width: 43, height: 80)]
        var differing: [Int] = []
        // 8,000 shapes (about 13 MB of stamps, over three times the budget), then the first 4,000
        // again: made before a refill, they must be made again, not read from stale memory.
        for i in 0..<12000 {
            // On the stamps' grid: radius in 1/16 pixel (up to 31.4), centre in 1/4 pixel.
            let radius = Double(4 + i % 500) / 16, x = 40 + Double(i / 500 % 4) * 0.25, y = 39 + Double(i / 2000 % 4) * 0.25
            let clip = clips[i / 16 % clips.count]
            viaCache.texture.fill(viaCache.texture.bounds, with: 0)
            direct.texture.fill(direct.texture.bounds, with: 0)
            // Something already there, which the max must keep where it is higher.
            viaCache.texture.fill(Rect(x: 38, y: 0, width: 3, height: 80), with: 200)
            direct.texture.fill(Rect(x: 38, y: 0, width: 3, height: 80), with: 200)
            stamps.stamp(viaCache.texture, x: x, y: y, radius: radius, clip: clip)
            Coverage.stampDisc(direct.texture, x: x, y: y, radius: radius, clip: clip)
            if viaCache.pixels != direct.pixels { differing.append(i) }
        }
        #expect(differing.count == 0, "shapes \(differing.prefix(5))")
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
