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
}
