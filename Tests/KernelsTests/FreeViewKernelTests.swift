import Compute
import Foundation
import Geometry
import Kernels
import PNGFile
import Testing

/// The compose kernel at views that turn, mirror and zoom by any factor.
@Suite struct FreeViewKernelTests {
    private let desk = ComposeKernel.desk

    /// A canvas whose pixel (x, y) is opaque 0xFF00XXYY: every pixel says where it is.
    private func canvas(_ w: Int, _ h: Int) -> TextureStorage<UInt32> { .positionCoded(w, h) }

    /// Random opaque colours.
    private func noise(_ w: Int, _ h: Int, seed: UInt32 = 7) -> TextureStorage<UInt32> {
        var state = seed
        let c = TextureStorage<UInt32>(width: w, height: h, filledWith: 0)
        for y in 0..<h { for x in 0..<w { state = state &* 1_664_525 &+ 1_013_904_223; c.texture[x, y] = 0xFF00_0000 | state >> 8 } }
        return c
    }

    private func compose(_ c: TextureStorage<UInt32>, into size: Size, _ t: ViewTransform, regions: [Rect]? = nil, threads: Int = 1,
                         onto out: TextureStorage<UInt32>? = nil, vectorBits: Int? = nil) -> TextureStorage<UInt32> {
        let out = out ?? TextureStorage<UInt32>(width: size.width, height: size.height, filledWith: 0x1234_5678)
        let compute = ComputeContext(threads: threads, inlineThreshold: 0)
        var k = ComposeKernel(below: .texture(c.texture), layer: TiledTexture(), canvas: c.texture.bounds, output: out.texture)
        k.transform = t
        if let bits = vectorBits { k.vectorBits = bits }
        for r in regions ?? [Rect(size: size)] { k.run(over: r, on: compute) }
        return out
    }

    @Test func aMirroredViewAt100PercentIsTheCanvasFlippedExactly() {
        let c = canvas(5, 3)
        // Window x = 6 − canvas x: window pixel 1 shows canvas pixel 4, … 5 shows 0.
        let t = ViewTransform(zoom: 1, mirror: true, x: 6, y: 1)
        #expect(t.sampling == .nearest)
        let got = compose(c, into: Size(width: 7, height: 5), t).pixels
        for wy in 0..<5 {
            for wx in 0..<7 {
                let cx = 5 - wx, cy = wy - 1
                let want = cx >= 0 && cx < 5 && cy >= 0 && cy < 3 ? c.texture[cx, cy] : desk
                #expect(got[wy * 7 + wx] == want, "window \(wx),\(wy)")
            }
        }
    }

    /// A turned view cuts the frame out of each canvas row: canvas inside it as composed, beyond
    /// it what `beyond` composes (the layers over the desk in the window), each channel halved
    /// toward the desk's, rounded down.
    @Test func aTurnedViewDimsTheCanvasBeyondTheFrameRowByRow() {
        let c = canvas(4, 3)
        let out = TextureStorage<UInt32>(width: 3, height: 4, filledWith: 0)
        var k = ComposeKernel(below: .texture(c.texture), layer: TiledTexture(), canvas: c.texture.bounds, output: out.texture)
        k.transform = ViewTransform(zoom: 1, angle: 90, x: 3, y: 0)
        k.beyond = ComposeKernel.Beyond(kernel: k, frame: Rect(x: 0, y: 0, width: 2, height: 3))
        k.run(over: Rect(size: Size(width: 3, height: 4)), on: ComputeContext(threads: 1))
        func halfway(_ p: UInt32) -> UInt32 {
            (0..<3).reduce(0xFF00_0000) { v, i in
                let s = UInt32(8 * i)
                return v | ((((p >> s) & 0xFF) + ((desk >> s) & 0xFF)) / 2) << s
            }
        }
        for wy in 0..<4 {
            for wx in 0..<3 {
                let (cx, cy) = (wy, 2 - wx), p = c.texture[cx, cy]
                #expect(out.texture[wx, wy] == (cx < 2 ? p : halfway(p)), "window \(wx),\(wy): canvas \(cx),\(cy)")
            }
        }
    }

    @Test func aQuarterTurnAt100PercentIsExactThoughBilinear() {
        let c = canvas(4, 3)
        // Turned 90° clockwise, the canvas's corner at window (3, 0): window (wx, wy) shows
        // canvas (wy, 2 − wx); every sample falls on a pixel's centre.
        let t = ViewTransform(zoom: 1, angle: 90, x: 3, y: 0)
        #expect(t.sampling == .bilinear(level: 1))
        let got = compose(c, into: Size(width: 3, height: 4), t).pixels
        for wy in 0..<4 { for wx in 0..<3 { #expect(got[wy * 3 + wx] == c.texture[wy, 2 - wx], "window \(wx),\(wy)") } }
    }

    /// Views at level 1 whose window shows the canvas's edges at many slopes: where a row's
    /// samples leave the canvas the kernel writes the desk unsampled, and this checks that no
    /// sample that reads the canvas is among them.
    @Test(arguments: [ViewTransform(zoom: 1.7, angle: 30, mirror: false, x: 20, y: -5),
                      ViewTransform(zoom: 1, angle: 7, x: 30, y: 20), ViewTransform(zoom: 1.3, angle: 135, x: 70, y: 10),
                      ViewTransform(zoom: 2.2, angle: 250, mirror: true, x: 60, y: 90), ViewTransform(zoom: 1, angle: 89, x: 75, y: 2)])
    func aTurnedViewIsBilinearBetweenTheFourPixelsAroundEachSample(t: ViewTransform) {
        let c = noise(40, 30)
        let size = Size(width: 90, height: 80)
        let got = compose(c, into: size, t).pixels
        func pixel(_ x: Int, _ y: Int) -> UInt32 { x >= 0 && x < 40 && y >= 0 && y < 30 ? c.texture[x, y] : desk }
        var worst = 0
        for wy in 0..<size.height {
            for wx in 0..<size.width {
                let p = t.canvasPoint(x: Double(wx) + 0.5, y: Double(wy) + 0.5)
                let u = p.x - 0.5, v = p.y - 0.5, x0 = Int(u.rounded(.down)), y0 = Int(v.rounded(.down))
                let fx = u - Double(x0), fy = v - Double(y0)
                for shift: UInt32 in [0, 8, 16] {
                    func ch(_ x: Int, _ y: Int) -> Double { Double(pixel(x, y) >> shift & 0xff) }
                    let want = (ch(x0, y0) * (1 - fx) + ch(x0 + 1, y0) * fx) * (1 - fy) + (ch(x0, y0 + 1) * (1 - fx) + ch(x0 + 1, y0 + 1) * fx) * fy
                    worst = max(worst, Int(abs(Double(got[wy * size.width + wx] >> shift & 0xff) - want).rounded(.up)))
                }
                #expect(got[wy * size.width + wx] >> 24 == 0xff)
            }
        }
        // Weights kept to 8 bits and two roundings: within two levels of the exact interpolation.
        #expect(worst <= 2)
    }

    static let views: [ViewTransform] = [
        ViewTransform(zoom: 1, angle: 30, x: 40, y: -10),
        ViewTransform(zoom: 2.5, angle: 200, mirror: true, x: 150, y: 120),
        ViewTransform(zoom: 0.3, angle: 15, x: 10, y: 3),
        ViewTransform(zoom: 0.125, angle: 300, mirror: true, x: 60, y: 80),
        ViewTransform(zoom: 0.7, x: -4, y: 9),
        ViewTransform(zoom: 1.5, mirror: true, x: 170, y: 2),
        ViewTransform(zoom: 0.5, mirror: true, x: 100, y: 0),
    ]

    @Test(arguments: views)
    func sameBytesAtEveryThreadCountAndInAnyPieces(t: ViewTransform) {
        let c = noise(160, 120)
        let size = Size(width: 203, height: 157)
        let whole = compose(c, into: size, t).pixels
        #expect(!whole.contains(0x1234_5678), "every pixel composed")
        #expect(compose(c, into: size, t, threads: 3).pixels == whole)
        let pieces = [Rect(x: 0, y: 0, width: 77, height: 157), Rect(x: 77, y: 0, width: 126, height: 31),
                      Rect(x: 77, y: 31, width: 126, height: 126)]
        #expect(compose(c, into: size, t, regions: pieces).pixels == whole)
    }

    /// A turned view's bilinear rows in AVX-512, in AVX2 (where the processor has them) and in
    /// Swift's vectors give the same bytes, over a window of several groups (each group's rows
    /// end raggedly, so every row length's tail is sampled) and on three threads.
    @Test(arguments: views.filter { if case .bilinear = $0.sampling { true } else { false } })
    func everyWidthOfVectorGivesTheSameBytes(t: ViewTransform) {
        let c = noise(700, 500, seed: 11)
        let groups = ComposeKernel.viewThreadsPerThreadgroup
        let size = Size(width: 2 * groups.width + 20, height: 2 * groups.height + 18)
        let swift = compose(c, into: size, t, threads: 3, vectorBits: 0).pixels
        #expect(!swift.contains(0x1234_5678), "every pixel composed")
        #expect(Set(swift).count > 1000, "the canvas shows, not only the desk")
        for bits in [256, 512] {
            let got = compose(c, into: size, t, threads: 3, vectorBits: bits).pixels
            let first = got.indices.first { got[$0] != swift[$0] }
            #expect(first == nil, "\(bits)-bit rows differ first at window \((first ?? 0) % size.width),\((first ?? 0) / size.width)")
        }
    }

    @Test(arguments: views)
    func theWindowRectCoveringAChangeIsAllThatChanges(t: ViewTransform) {
        let c = noise(160, 120)
        let size = Size(width: 203, height: 157)
        let before = compose(c, into: size, t)
        // One pixel and a small block changed: composing only the window rectangle that covers
        // them gives what a whole recompose gives.
        for changed in [Rect(x: 37, y: 51, width: 1, height: 1), Rect(x: 100, y: 20, width: 9, height: 5)] {
            for y in changed.ys { for x in changed.xs { c.texture[x, y] = 0xFFFF_FFFF ^ c.texture[x, y] } }
            let region = t.windowRect(covering: changed).intersection(Rect(size: size))
            let partly = compose(c, into: size, t, regions: [region], onto: before)
            #expect(partly.pixels == compose(c, into: size, t).pixels, "\(t) after \(changed)")
        }
    }

    @Test func belowHalfTheZoomAFlatCanvasStaysFlat() {
        // The mipmap's block means and the bilinear weights of a flat colour are that colour.
        let c = TextureStorage<UInt32>(width: 300, height: 300, filledWith: 0xFF33_6699)
        let t = ViewTransform(zoom: 0.3, angle: 40, x: 60, y: 10)
        let got = compose(c, into: Size(width: 100, height: 100), t)
        for (x, y) in [(60, 30), (50, 50), (40, 80)] {
            let p = t.canvasPoint(x: Double(x) + 0.5, y: Double(y) + 0.5)
            #expect(p.x > 20 && p.x < 280 && p.y > 20 && p.y < 280)
            #expect(got.texture[x, y] == 0xFF33_6699)
        }
    }

    /// A picture with edges the eye checks: a frame, a diagonal and a square of colour.
    private func picture() -> TextureStorage<UInt32> {
        let c = TextureStorage<UInt32>(width: 24, height: 16, filledWith: 0xFFFF_FFFF)
        for x in 0..<24 { c.texture[x, 0] = 0xFF00_0000; c.texture[x, 15] = 0xFF00_0000 }
        for y in 0..<16 { c.texture[0, y] = 0xFF00_0000; c.texture[23, y] = 0xFF00_0000 }
        for i in 2..<14 { c.texture[i, i] = 0xFFE5_3935 }
        for y in 3..<8 { for x in 15..<21 { c.texture[x, y] = 0xFF1E_88E5 } }
        return c
    }

    /// The picture's centre at the window's: turned 30° clockwise at 150 %; mirrored at 200 %
    /// (whole pixels); mirrored then turned 60° anticlockwise at 150 %.
    @Test(arguments: [("turned-30", ViewTransform(zoom: 1.5, angle: 30, x: 22, y: 5)),
                      ("mirrored", ViewTransform(zoom: 2, mirror: true, x: 56, y: 8)),
                      ("mirrored-turned-300", ViewTransform(zoom: 1.5, angle: 300, mirror: true, x: 31, y: 2))])
    func goldens(name: String, t: ViewTransform) throws {
        let got = compose(picture(), into: Size(width: 64, height: 48), t)
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/golden/view/\(name).png").path
        let png = PNGImage(width: got.width, height: got.height, pixels: got.pixels)
        if ProcessInfo.processInfo.environment["QS_UPDATE_GOLDENS"] != nil {
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try png.write(to: path)
        }
        let golden = try PNGImage.read(from: path)
        #expect(golden.width == 64 && golden.height == 48)
        #expect(golden.pixels == png.pixels, "\(name) differs from its golden")
    }
}
