import Compute
import Geometry
import Kernels
import Testing

/// The compose kernel's fused path (one pass for below, the current layer with the live stroke,
/// one `normal` cache above, invert) against its general path, pass by pass, byte for byte. An
/// extra empty layer above changes no pixel but gives the stack a shape the fused path does not
/// take, so the same scene composes both ways.
@Suite struct FusedComposeTests {
    /// A small deterministic generator (a 64-bit LCG's high bits).
    struct Noise {
        var state: UInt64
        mutating func next() -> UInt32 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt32(truncatingIfNeeded: state >> 33)
        }
        /// A premultiplied pixel: opaque, bare or translucent in turn, colours at most alpha.
        mutating func pixel(_ kind: Int) -> UInt32 {
            let a: UInt32 = kind == 0 ? 255 : kind == 1 ? 0 : next() % 256
            guard a > 0 else { return 0 }
            return a << 24 | (next() % (a + 1)) << 16 | (next() % (a + 1)) << 8 | next() % (a + 1)
        }
    }

    static let size = Size(width: 203, height: 70)

    /// Tiles over 256x128 but `missing`, each pixel `value(key, x, y)` (in the tile), in order.
    static func tiles<P>(missing: TileKey, _ value: (TileKey, Int, Int) -> P) -> Tiles<P> {
        var t = Tiles<P>()
        for key in TileKey.covering(Rect(x: 0, y: 0, width: 256, height: 128)) where key != missing {
            let tile = t.writableTile(key)
            for y in 0..<64 {
                for x in 0..<64 { tile.texture[x, y] = value(key, x, y) }
            }
        }
        return t
    }

    /// Tiles over the canvas and a tile beyond: tile (1, 0) opaque, (2, 0) the same with one
    /// translucent pixel, (0, 1) missing, the rest of mixed pixels in runs.
    static func layer(seed: UInt64) -> TiledTexture {
        var noise = Noise(state: seed)
        let t = tiles(missing: TileKey(x: 0, y: 1)) { key, x, y in
            noise.pixel(key == TileKey(x: 1, y: 0) || key == TileKey(x: 2, y: 0) ? 0 : (x / 8 + y / 5) % 4)
        }
        if let opaque = t[TileKey(x: 1, y: 0)], let other = t[TileKey(x: 2, y: 0)] {
            for y in 0..<64 { other.texture.row(y).update(from: opaque.texture.row(y), count: 64) }
            other.texture[13, 7] = 0x8040_2010
        }
        return t
    }

    /// Coverage in runs: zero stretches, full stretches and noise; tile (1, 0) missing.
    static func mask(seed: UInt64) -> TiledMask {
        var noise = Noise(state: seed)
        return tiles(missing: TileKey(x: 1, y: 0)) { _, x, y in
            let run = (x / 11 + y / 3) % 3
            return run == 0 ? 0 : run == 1 ? 255 : UInt8(truncatingIfNeeded: noise.next())
        }
    }

    /// The scene composed over an unaligned region on two threads: as given (`fused`) and with
    /// an empty layer added above (`general`). The fused path in Swift's own vectors gives the
    /// same bytes as in CVector's (where the processor has AVX2), checked here too.
    static func compose(_ configure: (inout ComposeKernel) -> Void) -> (fused: [UInt32], general: [UInt32]) {
        func run(extra: Bool, vectorBits: Int? = nil) -> [UInt32] {
            let out = TextureStorage<UInt32>(width: size.width, height: size.height, filledWith: 0x1234_5678)
            var k = ComposeKernel(below: .color(0xFFFF_FFFF), layer: layer(seed: 1), canvas: Rect(size: size), output: out.texture)
            configure(&k)
            if let bits = vectorBits { k.vectorBits = bits }
            if extra { k.above.append(ComposeKernel.Over(pixels: .tiles(TiledTexture()), opacity: 255, mode: .normal, bounds: Rect(size: size))) }
            k.run(over: Rect(x: 3, y: 1, width: 190, height: 66), on: ComputeContext(threads: 2, inlineThreshold: 0))
            return out.pixels
        }
        let fused = run(extra: false)
        #expect(run(extra: false, vectorBits: 0) == fused, "the fused path in Swift's vectors")
        return (fused, run(extra: true))
    }

    static func stroke(paints: Bool = true) -> ComposeKernel.Stroke {
        ComposeKernel.Stroke(color: Color(r: 30, g: 90, b: 200, a: 180), committed: mask(seed: 2), tail: mask(seed: 3),
                             bounds: Rect(x: 37, y: 5, width: 121, height: 50), paints: paints)
    }

    static func over(opacity: UInt32) -> ComposeKernel.Over {
        ComposeKernel.Over(pixels: .tiles(layer(seed: 4)), opacity: opacity, mode: .normal, bounds: Rect(x: 10, y: 20, width: 150, height: 40))
    }

    @Test func layerAndATextureAboveOverAColour() {
        let above = TextureStorage<UInt32>(width: Self.size.width, height: Self.size.height, filledWith: 0x4020_1008)
        for x in 0..<Self.size.width { above.texture[x, 30] = 0xFF00_80FF; above.texture[x, 31] = 0 }
        let r = Self.compose { k in
            k.above = [ComposeKernel.Over(pixels: .texture(above.texture), opacity: 255, mode: .normal, bounds: Rect(x: 5, y: 2, width: 190, height: 60))]
        }
        withExtendedLifetime(above) { #expect(r.fused == r.general) }
    }

    @Test func strokeAndLayerAboveOverTiles() {
        let r = Self.compose { k in
            k.below = .tiles(Self.layer(seed: 5), missing: 0xFF33_4455)
            k.stroke = Self.stroke()
            k.above = [Self.over(opacity: 255)]
        }
        #expect(r.fused == r.general)
    }

    @Test func translucentLayersAnEraserAndInvert() {
        let r = Self.compose { k in
            k.layerOpacity = 170
            k.stroke = Self.stroke(paints: false)
            k.above = [Self.over(opacity: 77)]
            k.invert = true
        }
        #expect(r.fused == r.general)
    }

    @Test func strokeOnAMissingLayerOverATexture() {
        let below = TextureStorage<UInt32>(width: Self.size.width, height: Self.size.height, filledWith: 0xFF80_9010)
        let r = Self.compose { k in
            k.below = .texture(below.texture)
            k.layer = TiledTexture()
            k.stroke = Self.stroke()
        }
        withExtendedLifetime(below) { #expect(r.fused == r.general) }
    }

    /// Coverage in one row in three, each row marked as it is written (as the stroke's writers
    /// mark them, `writableTile(_:rows:)`), or, with `markingAll`, every row of every tile.
    static func rowMask(markingAll: Bool = false) -> TiledMask {
        var m = TiledMask()
        for y in stride(from: 0, to: 128, by: 3) {
            for key in TileKey.covering(Rect(x: 0, y: y, width: 256, height: 1)) {
                let tile = markingAll ? m.writableTile(key) : m.writableTile(key, rows: (y & 63)..<(y & 63) + 1)
                tile.texture.row(y & 63).update(repeating: UInt8(40 + y), count: Tile.side)
            }
        }
        return m
    }

    static func rowStroke(markingAll: Bool = false) -> ComposeKernel.Stroke {
        ComposeKernel.Stroke(color: Color(r: 30, g: 90, b: 200, a: 180), committed: rowMask(markingAll: markingAll), tail: mask(seed: 3),
                             bounds: Rect(x: 20, y: 3, width: 150, height: 60))
    }

    @Test func unmarkedRowsComposeAsTheZeroesTheyHold() {
        let marked = Self.compose { k in k.stroke = Self.rowStroke() }
        let all = Self.compose { k in k.stroke = Self.rowStroke(markingAll: true) }
        #expect(marked.fused == all.fused)
        #expect(marked.general == all.general)
        #expect(marked.fused == marked.general)
    }

    static let views = [ViewTransform(zoom: 1, angle: 30, x: 20, y: -10), ViewTransform(zoom: 1.5, angle: -115, x: 150, y: 60),
                        ViewTransform(zoom: 0.8, angle: 200, mirror: true, x: 180, y: 70),
                        ViewTransform(scale: 0, x: -37, y: 21), ViewTransform(scale: 0, x: 60, y: -50)]

    /// A view moved at 100 % composes its rows straight into the output through the one pass;
    /// a turned view the rows it samples, each over its own span; both in bands of a row of
    /// tiles.
    @Test(arguments: views)
    func aMovedOrTurnedViewShowsTheSameThroughTheOnePass(t: ViewTransform) {
        let r = Self.compose { k in
            k.transform = t
            k.stroke = Self.rowStroke()
            k.above = [Self.over(opacity: 200)]
        }
        #expect(r.fused == r.general)
    }
}
