import Compute
import Geometry
import Kernels
import Testing

/// The compose kernel's view transform on small images whose every output pixel is known.
@Suite struct ViewTransformKernelTests {
    private let desk = ComposeKernel.desk

    /// A canvas whose pixel (x, y) is opaque 0xFF00XXYY: every pixel says where it is.
    private func canvas(_ w: Int, _ h: Int) -> TextureStorage<UInt32> { .positionCoded(w, h) }

    private func compose(_ c: TextureStorage<UInt32>, into size: Size, _ t: ViewTransform, region: Rect? = nil, threads: Int = 1,
                         stroke: ComposeKernel.Stroke? = nil) -> [UInt32] {
        let out = TextureStorage<UInt32>(width: size.width, height: size.height, filledWith: 0x1234_5678)
        let compute = ComputeContext(threads: threads, inlineThreshold: 0)
        // The canvas is what lies below an empty current layer, which the live stroke paints into.
        var k = ComposeKernel(below: .texture(c.texture), layer: TiledTexture(), canvas: c.texture.bounds,
                              output: out.texture)
        k.stroke = stroke
        k.transform = t
        k.run(over: region ?? Rect(size: size), on: compute)
        return out.pixels
    }

    @Test func zoomInRepeatsEachCanvasPixelAndTheDeskSurroundsTheCanvas() {
        let c = canvas(3, 2)
        // Zoom 2, the canvas's corner at (1, 1) of a 8x6 window.
        let got = compose(c, into: Size(width: 8, height: 6), ViewTransform(scale: 1, x: 1, y: 1))
        let p = { (x: UInt32, y: UInt32) in 0xFF00_0000 | x << 8 | y }
        let row0: [UInt32] = [desk, p(0, 0), p(0, 0), p(1, 0), p(1, 0), p(2, 0), p(2, 0), desk]
        let row1: [UInt32] = [desk, p(0, 1), p(0, 1), p(1, 1), p(1, 1), p(2, 1), p(2, 1), desk]
        let deskRow = [UInt32](repeating: desk, count: 8)
        #expect(got == deskRow + row0 + row0 + row1 + row1 + deskRow)
    }

    @Test func aNegativeOffsetShowsTheCanvasFromInside() {
        let c = canvas(4, 4)
        // 100 %, the canvas moved 2 left and 1 up: window (0, 0) shows canvas (2, 1).
        let got = compose(c, into: Size(width: 3, height: 2), ViewTransform(scale: 0, x: -2, y: -1))
        #expect(got == [0xFF00_0201, 0xFF00_0301, desk, 0xFF00_0202, 0xFF00_0302, desk])
    }

    @Test func zoomOutAveragesEachBlock() {
        // A 4x2 canvas of two 2x2 blocks: black and white, and a mixed one.
        let c = TextureStorage<UInt32>(width: 4, height: 2, filledWith: 0xFF00_0000)
        c.texture[2, 0] = 0xFFFF_FFFF; c.texture[3, 0] = 0xFF10_2030; c.texture[2, 1] = 0xFF00_0000; c.texture[3, 1] = 0xFF00_0001
        let got = compose(c, into: Size(width: 3, height: 1), ViewTransform(scale: -1, x: 0, y: 0))
        // Means, rounded: r (255 + 16) / 4 = 67.75 → 68; g (255 + 32) / 4 = 71.75 → 72; b (255 + 48 + 1) / 4 = 76.
        #expect(got == [0xFF00_0000, 0xFF44_484C, desk])
    }

    @Test func aBlockHalfOffTheCanvasAveragesWithTheDesk() {
        let c = TextureStorage<UInt32>(width: 1, height: 1, filledWith: 0xFFFF_FFFF)
        // Zoom 1/2: output (0, 0) covers canvas (0…1, 0…1): one white pixel and three of desk.
        let got = compose(c, into: Size(width: 1, height: 1), ViewTransform(scale: -1, x: 0, y: 0))
        func mean(_ shift: UInt32) -> UInt32 { (255 + 3 * (desk >> shift & 0xff) + 2) / 4 }
        #expect(got == [0xFF00_0000 | mean(16) << 16 | mean(8) << 8 | mean(0)])
    }

    @Test func onlyTheRegionAsked() {
        let c = canvas(8, 8)
        let got = compose(c, into: Size(width: 8, height: 8), ViewTransform(scale: 1, x: 0, y: 0), region: Rect(x: 2, y: 2, width: 2, height: 1))
        for (i, v) in got.enumerated() {
            let inside = Rect(x: 2, y: 2, width: 2, height: 1).contains(x: i % 8, y: i / 8)
            #expect(inside ? v == 0xFF00_0101 : v == 0x1234_5678, "pixel \(i % 8),\(i / 8)")
        }
    }

    @Test(arguments: [-3, -2, -1, 0, 1, 2, 5])
    func sameBytesAtEveryThreadCountAndTheLiveStrokeIsShownThrough(scale: Int) {
        let c = canvas(300, 200)
        let committed = TextureStorage<UInt8>(width: 300, height: 200, filledWith: 0)
        let tail = TextureStorage<UInt8>(width: 300, height: 200, filledWith: 0)
        for x in 40..<260 { committed.texture[x, 100] = 255; committed.texture[x, 101] = 128 }
        let stroke = ComposeKernel.Stroke(color: Color(r: 255, g: 0, b: 0), committed: TiledMask(committed.texture), tail: TiledMask(tail.texture),
                                          bounds: Rect(x: 40, y: 100, width: 220, height: 2))
        let t = ViewTransform(scale: scale, x: 37, y: -23)
        let size = Size(width: 613, height: 411)   // not a multiple of the threadgroup: partial edge groups
        let one = compose(c, into: size, t, stroke: stroke)
        #expect(compose(c, into: size, t, threads: 3, stroke: stroke) == one)
        // Where the view shows canvas (100, 100) the stroke is pure red (zoom ≥ 1), or in the
        // block's mean (zoom < 1; the canvas has no red of its own): rows 100 (red 255) and 101
        // (half covered, 128) of a 2x2 block, (2·255 + 2·128) / 4 → 192; of a 4x4, 1532 / 16 → 96.
        // At 1/8 and at 32× that point is out of view.
        let wx = scale >= 0 ? 100 << scale + 37 : 100 >> -scale + 37, wy = scale >= 0 ? 100 << scale - 23 : 100 >> -scale - 23
        let inView = wx < size.width && wy >= 0 && wy < size.height
        #expect(inView == (scale != -3 && scale != 5))
        if inView {
            let p = one[wy * size.width + wx]
            if scale >= 0 { #expect(p == 0xFFFF_0000) } else { #expect(p >> 16 & 0xff == (scale == -1 ? 192 : 96), "\(String(p, radix: 16))") }
        }
    }

    @Test(arguments: [-1, -2, -3])
    func zoomOutIsTheRoundedMeanOfEachBlockEverywhere(scale: Int) {
        // Random opaque colours; the window covers the canvas and desk beyond it.
        var state: UInt32 = 7
        let c = TextureStorage<UInt32>(width: 93, height: 61, filledWith: 0)
        for y in 0..<61 { for x in 0..<93 { state = state &* 1_664_525 &+ 1_013_904_223; c.texture[x, y] = 0xFF00_0000 | state >> 8 } }
        let f = 1 << -scale, size = Size(width: 40, height: 20)
        let got = compose(c, into: size, ViewTransform(scale: scale, x: 1, y: 0))
        for oy in 0..<size.height {
            for ox in 0..<size.width {
                var sums = [UInt32](repeating: 0, count: 3)
                for dy in 0..<f {
                    for dx in 0..<f {
                        let cx = (ox - 1) * f + dx, cy = oy * f + dy
                        let p = cx >= 0 && cx < 93 && cy < 61 ? c.texture[cx, cy] : desk
                        for (k, shift) in [16, 8, 0].enumerated() { sums[k] += p >> UInt32(shift) & 0xff }
                    }
                }
                let n = UInt32(f * f)
                let want = 0xFF00_0000 | ((sums[0] + n / 2) / n) << 16 | ((sums[1] + n / 2) / n) << 8 | (sums[2] + n / 2) / n
                #expect(got[oy * size.width + ox] == want, "output \(ox),\(oy) at 1/\(f)")
                if got[oy * size.width + ox] != want { return }
            }
        }
    }
}
