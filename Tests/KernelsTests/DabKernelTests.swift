import Geometry
import Glibc
import Kernels
import Testing

@Suite struct DabKernelTests {
    /// The surface's own sequence is the C library's rand() from srand(1).
    @Test func glibcRandomIsRand() {
        var ours = GlibcRandom()
        srand(1)
        for i in 0..<2000 {
            let theirs = rand()
            let mine = ours.next()
            guard mine == theirs else {
                Issue.record("value \(i): \(mine), rand() gave \(theirs)")
                return
            }
        }
        var seeded = GlibcRandom(seed: 12345)
        srand(12345)
        #expect((0..<100).allSatisfy { _ in seeded.next() == rand() })
    }

    @Test func fix15RoundTrips() {
        for v in UInt32(0)...255 { #expect(Fix15.to8(Fix15.from8(v)) == v) }
        #expect(Fix15.from8(255) == 32768)
        var p: [UInt16] = [0, 0, 0, 0]
        Fix15.expand(0x80ff_4020, into: &p)
        #expect(Fix15.pack(p) == 0x80ff_4020 & 0xff80_4020 | 0x0080_0000)
    }

    /// A hard dab is opaque to its rim and nothing beyond; a soft one falls off; a dab's mask
    /// does not depend on which tile computes it.
    @Test func maskShapes() {
        let hard = DabMask(x: 32, y: 32, radius: 10, hardness: 1, aspectRatio: 1, angle: 0)
        let (lx, ly) = hard.local(tileX: 0, tileY: 0)
        #expect(hard.opacity(xp: 31, yp: 31, localX: lx, localY: ly) == 32768)
        #expect(hard.opacity(xp: 32 + 9, yp: 31, localX: lx, localY: ly) == 32768)
        #expect(hard.opacity(xp: 32 + 11, yp: 31, localX: lx, localY: ly) == 0)
        let soft = DabMask(x: 32, y: 32, radius: 10, hardness: 0.3, aspectRatio: 1, angle: 0)
        let centre = soft.opacity(xp: 31, yp: 31, localX: lx, localY: ly), edge = soft.opacity(xp: 38, yp: 31, localX: lx, localY: ly)
        #expect(centre > edge && edge > 0)
        let across = DabMask(x: 64, y: 10, radius: 5, hardness: 0.5, aspectRatio: 2, angle: 20)
        let left = across.local(tileX: 0, tileY: 0), right = across.local(tileX: 1, tileY: 0)
        #expect(across.tileRange(localX: left.x, localY: left.y).x1 == 63)
        #expect(across.tileRange(localX: right.x, localY: right.y).x0 == 0)
    }

    /// DabRows.c's eight lanes lay the same 15-bit values as Swift's: plain, smudging/erasing,
    /// pigment and mixed dabs of every shape (anti-aliased under 3 px in radius, soft to hard,
    /// long, turned, reaching past the tile, faint enough for libmypaint's opacity floor) over
    /// random premultiplied pixels, some transparent.
    @Test(.enabled(if: DabKernel.vectorBits >= 256, "the processor has no AVX2"))
    func dabRowsInCAreSwiftsBytes() throws {
        var random = GlibcRandom(seed: 29)
        func unit() -> Float { Float(UInt32(random.next()) % 10_001) / 10_000 }
        var laid = 0
        for trial in 0..<300 {
            var tile = [UInt16](repeating: 0, count: DabKernel.tileValues)
            for i in 0..<4096 where random.next() % 5 != 0 {
                let a = UInt16(UInt32(random.next()) % 32_769)
                for c in 0..<3 where a > 0 { tile[4 * i + c] = UInt16(UInt32(random.next()) % (UInt32(a) + 1)) }
                tile[4 * i + 3] = a
            }
            // One dab in three under 3 px in radius: anti-aliased.
            let small = trial % 3 == 1, spread: Float = small ? 70 : 100
            let x: Float = unit() * spread - (spread - 64) / 2, y: Float = unit() * spread - (spread - 64) / 2
            let radius: Float = small ? 0.2 + unit() * 2.79 : 3 + unit() * 37
            let hardness: Float = 0.05 + unit() * 0.95, aspectRatio: Float = 1 + unit() * 4, angle: Float = unit() * 360
            let mask = DabMask(x: x, y: y, radius: radius, hardness: hardness, aspectRatio: aspectRatio, angle: angle)
            let opaque: Float = trial % 5 == 0 ? unit() * 0.01 : unit()
            // Pigment, plain, smudging (the colour's alpha below 1, 0: erasing), then both passes
            // (pigment mode between 0 and 1), plain or smudging, in turn.
            let kind = [DabPaint.Kind.pigment, .normal, .normalAndEraser, .general][trial % 4]
            let alpha: Float = kind == .pigment || kind == .normal || trial % 8 == 3 ? 1 : (trial % 3 == 0 ? 0 : unit() * 0.99)
            let pigment: Float = kind == .pigment ? 1 : kind == .general ? 0.05 + unit() * 0.9 : 0
            let paint = DabPaint(r: unit(), g: unit(), b: unit(), opaque: opaque, alphaEraser: alpha,
                                 lockAlpha: 0, colorize: 0, posterize: 0, posterizeLevels: 0.5, paint: pigment)
            try #require(paint.kind == kind && paint.passesInC)
            var swift = tile, c = tile
            let group = Rect(x: 0, y: 0, width: 64, height: 64), stamp = DabStamp(mask: mask, paint: paint)
            DabKernel.paint(stamp, group: group, tile: &swift, tileX: 0, tileY: 0, vectorBits: 0)
            DabKernel.paint(stamp, group: group, tile: &c, tileX: 0, tileY: 0)
            if swift != tile { laid += 1 }
            if let i = (0..<swift.count).first(where: { swift[$0] != c[$0] }) {
                Issue.record("dab \(trial) (\(kind), \(mask)): value \(i) (pixel \(i / 4)) is \(c[i]) in C, \(swift[i]) in Swift")
                return
            }
        }
        #expect(laid > 200, "only \(laid) of the 300 dabs laid anything")
    }

    /// The colour under a dab (smudging) is the same with its pixels picked in C as in Swift: the
    /// same random draws (as many, the sequence left at the same place), the same running
    /// averages, bit for bit, over random tiles, for samples of every size (anti-aliased under
    /// 3 px) and pigment share.
    @Test(.enabled(if: DabKernel.vectorBits >= 256, "the processor has no AVX2"))
    func samplesWithMaskRowsInCAreSwifts() {
        var random = GlibcRandom(seed: 30)
        func unit() -> Float { Float(UInt32(random.next()) % 10_001) / 10_000 }
        // Four tiles around the origin, random premultiplied pixels, some transparent.
        var tiles = [[UInt16]](repeating: [UInt16](repeating: 0, count: DabKernel.tileValues), count: 4)
        for t in 0..<4 {
            for i in 0..<4096 where random.next() % 4 != 0 {
                let a = UInt16(UInt32(random.next()) % 32_769)
                for c in 0..<3 where a > 0 { tiles[t][4 * i + c] = UInt16(UInt32(random.next()) % (UInt32(a) + 1)) }
                tiles[t][4 * i + 3] = a
            }
        }
        tiles.withUnsafeBufferPointer { all in
            let pointers = all.map { $0.withUnsafeBufferPointer { $0.baseAddress! } }
            let blank = [UInt16](repeating: 0, count: DabKernel.tileValues)
            blank.withUnsafeBufferPointer { none in
                func tile(_ tx: Int, _ ty: Int) -> UnsafePointer<UInt16> {
                    (0...1).contains(tx) && (0...1).contains(ty) ? pointers[ty * 2 + tx] : none.baseAddress!
                }
                var painted = 0
                for trial in 0..<200 {
                    let x: Float = 20 + unit() * 88, y: Float = 20 + unit() * 88
                    let radius: Float = trial % 3 == 0 ? 0.5 + unit() * 2.4 : 3 + unit() * 30
                    let paint: Float = [0, 1, unit()][trial % 3]
                    var inSwift = GlibcRandom(seed: UInt32(trial + 1)), inC = inSwift
                    let a = DabSampler.sample(x: x, y: y, radius: radius, paint: paint, random: &inSwift, vectorBits: 0, tile: tile)
                    let b = DabSampler.sample(x: x, y: y, radius: radius, paint: paint, random: &inC, tile: tile)
                    #expect(a == b, "sample \(trial) at (\(x), \(y)), radius \(radius), paint \(paint)")
                    #expect(inSwift.next() == inC.next(), "sample \(trial) drew a different count of random numbers")
                    if a.a > 0 { painted += 1 }
                }
                #expect(painted > 150, "only \(painted) of the 200 samples found paint")
            }
        }
    }

    /// Tiles packed to 8 bits eight pixels at a time in C are `Fix15.pack`'s bytes, pixel by
    /// pixel: every value from 0 to past 1.0, colour above alpha clamped to it, ragged counts.
    @Test(.enabled(if: DabKernel.vectorBits >= 256, "the processor has no AVX2"))
    func packedTilesInCAreSwiftsBytes() {
        var random = GlibcRandom(seed: 31)
        var values = [UInt16](repeating: 0, count: 4 * 4099)
        for i in values.indices { values[i] = UInt16(truncatingIfNeeded: random.next() % (i % 3 == 0 ? 65_536 : 32_769)) }
        for count in [4096, 4099, 7, 0] {
            var swift = [UInt32](repeating: 0, count: count), c = swift
            Fix15.pack(values, into: &swift, count: count, vectorBits: 0)
            Fix15.pack(values, into: &c, count: count)
            #expect(swift == c, "\(count) pixels")
            #expect(swift.indices.allSatisfy { swift[$0] == Fix15.pack(values.withUnsafeBufferPointer { $0.baseAddress! } + $0 * 4) })
        }
    }
}
