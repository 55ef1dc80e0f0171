import Compute
import Foundation
import Geometry
import Kernels
import Testing

@Suite struct MercurialKernelTests {
    @Test(arguments: [
        (Int32(0), Int32(0), Int32(0), Float(0.359105)), (1, 0, 0, 0.386813), (0, 100, 200, 0.095059),
        (1234, 100, 200, 0.551514), (9998, 640, 360, 0.125465),
    ])
    func randMatchesTheReference(x: Int32, y: Int32, z: Int32, expected: Float) {
        #expect(abs(MercurialRandom.rand(x, y, z) - expected) < 1e-6)
    }

    @Test func tenSamplesMakeThreeBatchesAndLoseNone() {
        let samples = (0..<10).map { (x: Int32($0 * 10), y: Int32($0)) }
        let batches = SampleBatch.batches(of: samples)
        #expect(batches.count == 3)
        #expect(batches.map(\.filledSlots) == [4, 4, 2])
        #expect(batches[2].x == SIMD4(80, 90, -1, -1))
        let back = batches.flatMap { b in (0..<b.filledSlots).map { (b.x[$0], b.y[$0]) } }
        #expect(back.map(\.0) == samples.map(\.x) && back.map(\.1) == samples.map(\.y))
    }

    /// On the endless canvas a sample may be at −1: it is a sample, and so is the one after it.
    @Test func aSampleAtMinusOneIsSprayedAndEndsNothing() {
        let batches = SampleBatch.batches(of: [(x: 5, y: 5), (x: -1, y: -1), (x: -40, y: 30)])
        #expect(batches.map(\.filledSlots) == [3])
        let scaffold = TextureStorage<UInt8>(width: 100, height: 100, filledWith: 0)
        let written = ScaffoldKernel(seed: 1).run(batches[0], radius: 8, into: scaffold.texture, origin: (-60, -20),
                                                  clip: Rect(x: -60, y: -20, width: 100, height: 100), on: ComputeContext(threads: 1))
        #expect(written.contains(x: -40, y: 30) && written.contains(x: -1, y: -1), "\(written)")
        // Around canvas (−40, 30): the scaffold's pixels (20, 50) ± 9.
        var nearLast = 0
        for y in 41...59 { for x in 11...29 where scaffold.texture[x, y] == 255 { nearLast += 1 } }
        #expect(nearLast > 20, "the sample after the one at −1 is sprayed: \(nearLast) px")
    }

    @Test func minusOneSlotsWriteNothing() {
        let scaffold = TextureStorage<UInt8>(width: 100, height: 100, filledWith: 0)
        let kernel = ScaffoldKernel(seed: 1)
        let compute = ComputeContext(threads: 2, inlineThreshold: 0)
        #expect(kernel.run(.empty, radius: 30, into: scaffold.texture, clip: scaffold.texture.bounds, on: compute).isEmpty)
        #expect(scaffold.pixels.allSatisfy { $0 == 0 })
        // The first −1 ends the batch: the sample after it is never sprayed.
        let batch = SampleBatch(x: SIMD4(20, -1, 80, 80), y: SIMD4(20, -1, 80, 80))
        _ = kernel.run(batch, radius: 10, into: scaffold.texture, clip: scaffold.texture.bounds, on: compute)
        var nearFirst = 0, nearSkipped = 0
        for y in 0..<100 { for x in 0..<100 where scaffold.texture[x, y] == 255 {
            if abs(x - 20) <= 11 && abs(y - 20) <= 11 { nearFirst += 1 } else { nearSkipped += 1 }
        } }
        #expect(nearFirst > 30 && nearSkipped == 0)
    }

    @Test func particlesClipAtTheCanvasEdges() {
        // A canvas inside a bigger buffer: nothing may land outside it.
        let buffer = TextureStorage<UInt8>(width: 140, height: 140, filledWith: 0)
        let canvas = Rect(x: 20, y: 20, width: 100, height: 100)
        let kernel = ScaffoldKernel(seed: 3)
        for x in stride(from: 20, to: 120, by: 7) {
            let batch = SampleBatch(x: SIMD4(Int32(x), Int32(x), 20, 119), y: SIMD4(20, 119, Int32(x), Int32(x)))
            _ = kernel.run(batch, radius: 40, into: buffer.texture, clip: canvas, on: ComputeContext(threads: 2, inlineThreshold: 0))
        }
        var inside = 0
        for y in 0..<140 { for x in 0..<140 where buffer.texture[x, y] != 0 {
            #expect(canvas.contains(x: x, y: y), "particle outside the canvas at \(x),\(y)")
            inside += 1
        } }
        #expect(inside > 1000)
    }

    @Test func sprayIsTheSameForAnyThreadCount() {
        func spray(_ threads: Int) -> [UInt8] {
            let s = TextureStorage<UInt8>(width: 300, height: 200, filledWith: 0)
            let batch = SampleBatch(x: SIMD4(50, 150, 250, 100), y: SIMD4(100, 50, 150, 100))
            _ = ScaffoldKernel(seed: 99).run(batch, radius: 80, into: s.texture, clip: s.texture.bounds,
                                             on: ComputeContext(threads: threads, inlineThreshold: 0))
            return s.pixels
        }
        #expect(spray(1) == spray(2) && spray(1) == spray(5))
    }

    @Test func blurOfAnImpulseSumsToOneAndIsTheGaussian() {
        let src = TextureStorage<UInt8>(width: 41, height: 41, filledWith: 0)
        src.texture[20, 20] = 255
        let out = TextureStorage<Float>(width: 41, height: 41, filledWith: 0)
        let blur = GaussianBlur(sigma: 3)
        blur.run(src.texture, over: src.texture.bounds, into: out.texture, on: ComputeContext(threads: 2, inlineThreshold: 0))
        #expect(abs(out.pixels.reduce(0, +) - 1) < 1e-4)
        let norm = (-9...9).map { exp(-Double($0 * $0) / 18) }.reduce(0, +)
        for (dx, dy) in [(0, 0), (1, 0), (3, 4), (-9, 2), (5, -5)] {
            let expected = exp(-Double(dx * dx + dy * dy) / 18) / (norm * norm)
            #expect(abs(Double(out.texture[20 + dx, 20 + dy]) - expected) < 1e-5, "at \(dx),\(dy)")
        }
        #expect(out.texture[20 + 10, 20] == 0, "nothing beyond 3σ")
    }

    /// Random bytes at an awkward size (rows not a multiple of any chunk width), blurred whole
    /// and over a region touching two edges: every pixel matches a plain double-precision
    /// convolution, the region's pixels are bit-identical to the whole blur's, and the fused
    /// threshold is the threshold of the floats, for any thread count.
    @Test func blurMatchesAPlainConvolutionEverywhereAndOverAnyRegion() {
        let (w, h) = (77, 53)
        var state: UInt32 = 12345
        let src = TextureStorage<UInt8>(width: w, height: h, filledWith: 0)
        for y in 0..<h { for x in 0..<w { state = state &* 1_664_525 &+ 1_013_904_223; src.texture[x, y] = UInt8(state >> 24) } }
        let blur = GaussianBlur(sigma: 3), r = blur.radius
        func blurred(over region: Rect, threads: Int) -> [Float] {
            let out = TextureStorage<Float>(width: w, height: h, filledWith: -1)
            blur.run(src.texture, over: region, into: out.texture, on: ComputeContext(threads: threads, inlineThreshold: 0))
            return out.pixels
        }
        let whole = blurred(over: src.texture.bounds, threads: 1)
        var worst = 0.0
        for y in 0..<h { for x in 0..<w {
            var sum = 0.0
            for j in -r...r { for i in -r...r where (0..<w).contains(x + i) && (0..<h).contains(y + j) {
                sum += Double(blur.weights[i + r]) * Double(blur.weights[j + r]) * Double(src.texture[x + i, y + j]) / 255
            } }
            worst = max(worst, abs(sum - Double(whole[y * w + x])))
        } }
        #expect(worst < 1e-5)
        let region = Rect(x: 40, y: 0, width: 37, height: 20)
        for threads in [1, 2, 3] {
            let part = blurred(over: region, threads: threads)
            var same = true, untouched = true
            for y in 0..<h { for x in 0..<w {
                if region.contains(x: x, y: y) { same = same && part[y * w + x] == whole[y * w + x] } else { untouched = untouched && part[y * w + x] == -1 }
            } }
            #expect(same && untouched, "threads \(threads)")
            let mask = TextureStorage<UInt8>(width: w, height: h, filledWith: 7)
            blur.runThresholded(src.texture, over: src.texture.bounds, into: mask.texture, on: ComputeContext(threads: threads, inlineThreshold: 0))
            let thresholded = mask.pixels == whole.map(Threshold.level)
            #expect(thresholded, "threads \(threads)")
        }
    }

    @Test func thresholdIsExactAtOneHalf() {
        let src = TextureStorage<Float>(width: 3, height: 1, filledWith: 0)
        src.texture[0, 0] = 0.5
        src.texture[1, 0] = Float(0.5).nextUp
        src.texture[2, 0] = Float(0.5).nextDown
        let mask = TextureStorage<UInt8>(width: 3, height: 1, filledWith: 7)
        Threshold.run(src.texture, over: src.texture.bounds, into: mask.texture, on: ComputeContext(threads: 1))
        #expect(mask.pixels == [0, 255, 0])
    }

    @Test func embossShadesTheInsideAndLeavesTheOutside() {
        let size = 120
        let mask = TextureStorage<UInt8>(width: size, height: size, filledWith: 0)
        for y in 0..<size { for x in 0..<size where (x - 60) * (x - 60) + (y - 60) * (y - 60) < 40 * 40 { mask.texture[x, y] = 255 } }
        let out = TextureStorage<UInt32>(width: size, height: size, filledWith: 0x1234_5678)
        Emboss(shading: .mercurialPaint, hemisphereSize: 64).shade(mask.texture, into: out.texture, on: ComputeContext(threads: 2, inlineThreshold: 0))
        var shades = Set<UInt32>()
        for y in 0..<size { for x in 0..<size {
            if mask.texture[x, y] == 0 {
                #expect(out.texture[x, y] == 0x1234_5678, "outside changed at \(x),\(y)")
            } else {
                #expect(out.texture[x, y] >> 24 == 0xFF)
                shades.insert(out.texture[x, y])
            }
        } }
        // The rim is lit differently from the flat middle: many shades, and the edges differ.
        #expect(shades.count > 20)
        #expect(out.texture[60, 60] != out.texture[22, 60] && out.texture[22, 60] != out.texture[98, 60])
    }

    @Test func hemisphereIsALitSphereOnBlack() {
        let h = Hemisphere.image(shading: .mercurialPaint, size: 64)
        #expect(h.texture[0, 0] == 0xFF00_0000 && h.texture[63, 63] == 0xFF00_0000)
        #expect(h.texture[32, 32] != 0xFF00_0000)
    }

    @Test func hemisphereFollowsTheShading() throws {
        func shading(shininess: Double = 0.02, _ light: (Int) -> Shading.Light?) throws -> Shading {
            try #require(Shading(shininess: shininess, lights: (0..<4).compactMap(light)))
        }
        // Unlit: every light at brightness 0 leaves the sphere black.
        let dark = Hemisphere.image(shading: try shading { _ in Shading.Light(hue: 0.3, brightness: 0, x: 0, y: 0, z: 10) }, size: 32)
        #expect(Set(dark.pixels) == [0xFF00_0000])
        // Four pure red lights straight ahead: red only, brightest at the middle of the sphere.
        let red = Hemisphere.image(shading: try shading { _ in Shading.Light(hue: 0, brightness: 1, x: 0, y: 0, z: 1000) }, size: 32)
        #expect(red.pixels.allSatisfy { $0 & 0x0000_FFFF == 0 } && red.texture[16, 16] == 0xFFFF_0000)
        // Half the brightness halves what a light adds where nothing clips (near the rim: no highlight).
        let dim = Hemisphere.image(shading: try shading { i in Shading.Light(hue: 0, brightness: i == 0 ? 0.5 : 0, x: 0, y: 0, z: 1000) }, size: 32)
        let full = Hemisphere.image(shading: try shading { i in Shading.Light(hue: 0, brightness: i == 0 ? 1 : 0, x: 0, y: 0, z: 1000) }, size: 32)
        let (d, f) = (dim.texture[16, 2] >> 16 & 0xFF, full.texture[16, 2] >> 16 & 0xFF)
        #expect(f < 255 && d > 0 && (Int(f) - 2 * Int(d)).magnitude <= 1, "\(d) and \(f)")
        // A higher shininess narrows the highlight: off the middle it darkens, the middle stays.
        let shiny = Hemisphere.image(shading: try shading(shininess: 0.5) { i in Shading.Light(hue: 0, brightness: i == 0 ? 1 : 0, x: 0, y: 0, z: 1000) }, size: 32)
        #expect(shiny.texture[16, 16] == full.texture[16, 16] && shiny.texture[16, 10] >> 16 & 0xFF < full.texture[16, 10] >> 16 & 0xFF)
        // An emboss lights its metal with the hemisphere of the shading it was made for: the
        // default's (MercurialPaint's) or another's, which differs.
        #expect(Emboss(shading: .mercurialPaint, hemisphereSize: 32).hemisphere.pixels == Hemisphere.image(shading: .mercurialPaint, size: 32).pixels)
        let other = try shading(shininess: 0.5) { _ in Shading.Light(hue: 0, brightness: 1, x: 0, y: 0, z: 1) }
        let otherEmboss = Emboss(shading: other, hemisphereSize: 32)
        #expect(otherEmboss.hemisphere.pixels == Hemisphere.image(shading: other, size: 32).pixels)
        #expect(otherEmboss.hemisphere.pixels != Hemisphere.image(shading: .mercurialPaint, size: 32).pixels)
    }

    @Test func pulseColoursFollowTheFormula() {
        #expect([0, 25, 50, 100, 150, 200, 251].map(Pulse.loc(frames:)) == [0.5, 0.75, 1, 0.5, 0, 0.5, 0.99])
        let pulse = Pulse()  // hue 0, centre 0.5, range 0.7
        #expect(pulse.color(loc: 0) == Color(r: 255, g: 179, b: 179))  // p 0.15: saturation 0.3, value 1
        #expect(pulse.color(loc: 0.5) == Color(r: 255, g: 0, b: 0))    // p 0.5: the pure hue
        #expect(pulse.color(loc: 1) == Color(r: 77, g: 0, b: 0))       // p 0.85: value 0.3
        #expect(Pulse(hue: 1.0 / 3, centre: 0.5, range: 0).color(loc: 0.3) == Color(r: 0, g: 255, b: 0))
    }
}
