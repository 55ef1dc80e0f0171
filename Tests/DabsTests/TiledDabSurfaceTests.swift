import Compute
import Dabs
import Geometry
import Kernels
import Testing

@Suite struct TiledDabSurfaceTests {
    static func compute(_ threads: Int) -> ComputeContext { ComputeContext(threads: threads, inlineThreshold: 0) }

    /// A surface on two threads; a watched one (a stroke shown live: `strokeTile` asked) lays
    /// every batch at once, one nobody watches lays batches ahead.
    static func surface(watched: Bool) -> TiledDabSurface {
        let surface = TiledDabSurface(compute: compute(2))
        if watched { _ = surface.strokeTile(TileKey(x: 0, y: 0)) }
        return surface
    }

    /// The same floats in 0..<1 for the same seed (a 64-bit LCG's top bits).
    struct Unit {
        var seed: UInt64
        mutating func next() -> Float {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Float(seed >> 40) / Float(1 << 24)
        }
    }

    @Test func dabsLaidWhenTheSectionEndsAndDamageReported() {
        let surface = TiledDabSurface(compute: Self.compute(1))
        surface.beginAtomic()
        #expect(surface.draw(Dab(x: 10.5, y: 20.5, radius: 4, r: 1, g: 0, b: 0)))
        // What libmypaint's update_dirty_bbox gives: ⌊x − (r + 1)⌋ … ⌊x + (r + 1)⌋ inclusive.
        #expect(surface.endAtomic() == Rect(minX: 5, minY: 15, maxX: 16, maxY: 26))
        #expect(surface.endAtomic() == .empty)
        surface.endStroke()
        #expect(surface.pixels[10, 20] == 0xffff_0000)
        #expect(surface.lastStroke.map(\.key) == [TileKey(x: 0, y: 0)])
        #expect(surface.lastStroke.first?.before == nil)
    }

    @Test func dabsThatChangeNothingAreRefused() {
        let surface = TiledDabSurface(compute: Self.compute(1))
        surface.beginAtomic()
        #expect(!surface.draw(Dab(x: 1, y: 1, radius: 0.05, r: 1, g: 0, b: 0)))
        #expect(!surface.draw(Dab(x: 1, y: 1, radius: 3, r: 1, g: 0, b: 0, opaque: 0)))
        #expect(!surface.draw(Dab(x: 1, y: 1, radius: 3, r: 1, g: 0, b: 0, hardness: 0)))
        #expect(!surface.draw(Dab(x: .nan, y: 1, radius: 3, r: 1, g: 0, b: 0)))
        #expect(!surface.draw(Dab(x: 1, y: 1e30, radius: 3, r: 1, g: 0, b: 0)))
        #expect(surface.endAtomic() == .empty)
    }

    /// A colour read sees the dabs drawn before it in the same section.
    @Test func sampleSeesQueuedDabs() {
        let surface = TiledDabSurface(compute: Self.compute(1))
        surface.beginAtomic()
        surface.draw(Dab(x: 32, y: 32, radius: 20, r: 0, g: 0, b: 1))
        for paint: Float in [-1, 0, 1] {
            let c = surface.sampleColor(x: 32, y: 32, radius: 5, paint: paint)
            #expect(c.a > 0.99 && c.b > 0.99 && c.r < 0.01, "paint \(paint): \(c)")
        }
        let empty = surface.sampleColor(x: 500, y: -300, radius: 5, paint: -1)
        #expect(empty.a == 0)
        _ = surface.endAtomic()
    }

    /// With its origin far out, dabs and colour reads are at the origin plus their position:
    /// the damage, the stroke's tiles and `strokeTile` speak the layer's coordinates, and what
    /// was painted before stays where it was.
    @Test func anOriginFarOut() {
        let surface = TiledDabSurface(compute: Self.compute(1))
        surface.beginAtomic()
        surface.draw(Dab(x: 10.5, y: 20.5, radius: 4, r: 0, g: 0, b: 1))
        _ = surface.endAtomic()
        surface.endStroke()
        let far = 1 << 30
        surface.setOrigin(x: far, y: -far + 64)
        #expect(surface.origin == (far, -far + 64))
        surface.beginAtomic()
        #expect(surface.sampleColor(x: 10.5, y: -43.5, radius: 2, paint: -1).a == 0, "nothing there yet")
        surface.draw(Dab(x: 10.5, y: 20.5, radius: 4, r: 1, g: 0, b: 0))
        #expect(surface.endAtomic() == Rect(minX: far + 5, minY: -far + 64 + 15, maxX: far + 16, maxY: -far + 64 + 26))
        #expect(surface.strokeTile(TileKey(containing: far + 10, -far + 84)) != nil)
        #expect(surface.sampleColor(x: 10.5, y: 20.5, radius: 2, paint: -1).r > 0.99)
        surface.endStroke()
        #expect(surface.pixels[far + 10, -far + 84] == 0xffff_0000)
        #expect(surface.pixels[10, 20] == 0xff00_00ff, "the first stroke stays where it was painted")
        #expect(surface.lastStroke.map(\.key) == [TileKey(containing: far, -far + 64)])
    }

    /// Negative coordinates and dabs across tile corners land where they should, and a stroke
    /// that erases a tile to nothing leaves no tile behind.
    @Test func tilesWithoutEdges() {
        let surface = TiledDabSurface(compute: Self.compute(2))
        surface.beginAtomic()
        surface.draw(Dab(x: -64, y: -64, radius: 10, r: 0, g: 1, b: 0))
        _ = surface.endAtomic()
        surface.endStroke()
        #expect(surface.pixels[-64, -64] == 0xff00_ff00)
        #expect(surface.pixels[-60, -67] == 0xff00_ff00)
        #expect(Set(surface.lastStroke.map(\.key)) == [TileKey(x: -2, y: -2), TileKey(x: -1, y: -2), TileKey(x: -2, y: -1), TileKey(x: -1, y: -1)])
        surface.beginAtomic()
        surface.draw(Dab(x: -64, y: -64, radius: 40, r: 0, g: 0, b: 0, alphaEraser: 0))
        _ = surface.endAtomic()
        surface.endStroke()
        #expect(surface.pixels.isEmpty)
    }

    /// A batch lays each dab on every pixel it reaches, however it straddles tiles and their
    /// 16x16 threadgroups (only those its bounds meet are dispatched): the same bytes as each
    /// dab laid in turn over every pixel of every tile it touches.
    @Test func aBatchLaysEveryDabWhereverItReaches() throws {
        let surface = TiledDabSurface(compute: Self.compute(2))
        var reference: [TileKey: [UInt16]] = [:]
        var unit = Unit(seed: 11)
        func next() -> Float { unit.next() }
        surface.beginAtomic()
        for i in 0..<400 {
            // Small dabs (a third anti-aliased) anywhere over 3x2 tiles: their rims end anywhere
            // in a threadgroup, a pixel or two into the next one too.
            let x = next() * 192, y = next() * 128
            let radius = i % 3 == 0 ? 0.3 + next() * 2.6 : 3 + next() * 9
            let (r, g, b, opaque, hardness, aspect, angle) = (next(), next(), next(), 0.2 + next() * 0.8, 0.1 + next() * 0.9,
                                                              1 + next() * 2, next() * 180)
            let paint: Float = i % 2 == 0 ? 1 : 0
            #expect(surface.draw(Dab(x: x, y: y, radius: radius, r: r, g: g, b: b, opaque: opaque, hardness: hardness,
                                     aspectRatio: aspect, angle: angle, paint: paint)))
            let stamp = DabStamp(mask: DabMask(x: x, y: y, radius: radius, hardness: hardness, aspectRatio: aspect, angle: angle),
                                 paint: DabPaint(r: r, g: g, b: b, opaque: opaque, alphaEraser: 1, lockAlpha: 0, colorize: 0, posterize: 0,
                                                 posterizeLevels: 0.05, paint: paint))
            let bounds = stamp.mask.bounds
            for key in TileKey.covering(Rect(minX: bounds.minX, minY: bounds.minY, maxX: bounds.maxX, maxY: bounds.maxY)) {
                var tile = reference[key] ?? [UInt16](repeating: 0, count: DabKernel.tileValues)
                DabKernel.paint(stamp, group: key.rect, tile: &tile, tileX: key.x, tileY: key.y)
                reference[key] = tile
            }
        }
        _ = surface.endAtomic()
        #expect(reference.count >= 9)
        for (key, values) in reference {
            let laid = try #require(surface.strokeTile(key), "tile \(key)")
            var packed = [UInt32](repeating: 0, count: 64 * 64)
            Fix15.pack(values, into: &packed, count: 64 * 64)
            if let i = (0..<64 * 64).first(where: { laid.texture.base[$0] != packed[$0] }) {
                Issue.record("tile \(key), pixel (\(i % 64), \(i / 64)): \(laid.texture.base[i]) laid in a batch, \(packed[i]) dab by dab")
            }
        }
    }

    /// Full batches of a surface nobody watches are laid on a queue of their own while the
    /// brush goes on: the same bytes as a watched one's, laid at once, whatever reads it between
    /// (a colour, the end of a stroke).
    @Test func batchesLaidAheadGiveTheSameBytes() {
        func run(watched: Bool) -> [UInt8] {
            let surface = Self.surface(watched: watched)
            var unit = Unit(seed: 5)
            func next() -> Float { unit.next() }
            for stroke in 0..<3 {
                for section in 0..<40 {
                    surface.beginAtomic()
                    // Large pigment dabs: a batch fills in a few sections.
                    for _ in 0..<6 {
                        surface.draw(Dab(x: next() * 400, y: next() * 300, radius: 20 + next() * 40, r: next(), g: next(), b: next(),
                                         opaque: 0.2 + next() * 0.8, hardness: next(), paint: next()))
                    }
                    if section % 25 == 24 { _ = surface.sampleColor(x: next() * 400, y: next() * 300, radius: 10, paint: next()) }
                    _ = surface.endAtomic()
                }
                if stroke < 2 { surface.endStroke() }
            }
            surface.endStroke()
            return surface.overWhite(Rect(x: -60, y: -60, width: 520, height: 420))
        }
        #expect(run(watched: false) == run(watched: true))
    }

    /// Small dabs, too few and too cheap to fill a batch: whatever the lay-ahead queue is handed
    /// while it is idle, the bytes are those of a surface that lays every section at once.
    @Test func batchesHandedToAnIdleQueueGiveTheSameBytes() {
        func run(watched: Bool) -> (bytes: [UInt8], laidAhead: Int) {
            let surface = Self.surface(watched: watched)
            var unit = Unit(seed: 11)
            func next() -> Float { unit.next() }
            for section in 0..<300 {
                surface.beginAtomic()
                for _ in 0..<3 {
                    surface.draw(Dab(x: next() * 200, y: next() * 150, radius: 1 + next() * 4, r: next(), g: next(), b: next(),
                                     opaque: 0.3 + next() * 0.7, hardness: next(), paint: section % 2 == 0 ? 0 : next()))
                }
                _ = surface.endAtomic()
            }
            surface.endStroke()
            return (surface.overWhite(Rect(x: -10, y: -10, width: 220, height: 170)), surface.laidAhead)
        }
        let ahead = run(watched: false), atOnce = run(watched: true)
        #expect(ahead.bytes == atOnce.bytes)
        // 900 dabs of a few pixels: neither a full batch's count nor its cost.
        #expect(ahead.laidAhead > 0 && atOnce.laidAhead == 0, "\(ahead.laidAhead) batches laid ahead")
    }

    /// The same dabs give the same bytes at any thread count and any precision's repeat.
    @Test func deterministicAcrossThreads() {
        func run(_ threads: Int) -> [UInt8] {
            let surface = TiledDabSurface(compute: Self.compute(threads))
            var unit = Unit(seed: 7)
            func next() -> Float { unit.next() }
            for _ in 0..<40 {
                surface.beginAtomic()
                for _ in 0..<8 {
                    surface.draw(Dab(x: next() * 300 - 50, y: next() * 200 - 20, radius: next() * 40, r: next(), g: next(), b: next(),
                                     opaque: next(), hardness: next(), alphaEraser: next() < 0.2 ? next() : 1, aspectRatio: 1 + next() * 3,
                                     angle: next() * 180, lockAlpha: next() < 0.1 ? 1 : 0, paint: next() < 0.5 ? next() : 0))
                }
                _ = surface.sampleColor(x: next() * 300, y: next() * 200, radius: 8, paint: next())
                _ = surface.endAtomic()
            }
            surface.endStroke()
            return surface.overWhite(Rect(x: -60, y: -30, width: 320, height: 240))
        }
        let one = run(1)
        #expect(run(4) == one)
        #expect(run(2) == one)
    }
}
