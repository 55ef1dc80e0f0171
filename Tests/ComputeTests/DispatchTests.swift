import Compute
import Geometry
import Glibc
import Synchronization
import Testing

/// A texture with a sentinel border, so writes outside the dispatched region are caught.
private final class Bordered {
    let storage: TextureStorage<UInt32>
    let inner: Rect
    init(width: Int, height: Int, border: Int = 3) {
        storage = TextureStorage(width: width + 2 * border, height: height + 2 * border, filledWith: 0xDEAD_BEEF)
        inner = Rect(x: border, y: border, width: width, height: height)
        storage.texture.fill(inner, with: 0)
    }
}

@Suite struct DispatchTests {
    @Test(arguments: [(1000, 700), (17, 1), (1, 1), (16, 16), (33, 31)])
    func everyThreadRunsOnceAndNothingOutside(size: (Int, Int)) {
        for tg in [Size(width: 16, height: 16), Size(width: 7, height: 3)] {
            let b = Bordered(width: size.0, height: size.1)
            let tex = b.storage.texture
            let compute = ComputeContext(threads: 2, threadsPerThreadgroup: tg, inlineThreshold: 0)
            compute.dispatch(over: b.inner) { group in
                for y in group.threadPositions.ys {
                    for x in group.threadPositions.xs { tex[x, y] &+= 1 }
                }
            }
            for y in 0..<tex.height {
                for x in 0..<tex.width {
                    let expected: UInt32 = b.inner.contains(x: x, y: y) ? 1 : 0xDEAD_BEEF
                    #expect(tex[x, y] == expected, "pixel \(x),\(y) with threadgroup \(tg)")
                    if tex[x, y] != expected { return }
                }
            }
        }
    }

    /// The workers are woken by the threads that do the work, when the caller says how many:
    /// a grid of 64 tiles whose work is a few pixels runs on the calling thread, the same grid
    /// with its work everywhere on the workers (and every group runs once either way).
    @Test func workingThreadsDecideWhetherTheWorkersAreWoken() {
        let caller = pthread_self()
        for (working, inline) in [(1_000, true), (nil, false)] as [(Int?, Bool)] {
            let compute = ComputeContext(threads: 2, inlineThreshold: 16_384)
            let runs = Mutex([Int](repeating: 0, count: 64)), away = Atomic<Int>(0)
            compute.dispatchThreadgroups(Size(width: 64, height: 1), threadsPerThreadgroup: Size(width: 64, height: 64),
                                         grid: Rect(x: 0, y: 0, width: 64 * 64, height: 64), workingThreads: working) { g in
                runs.withLock { $0[g.positionInGrid.x] += 1 }
                usleep(200)  // long enough that woken workers would take some of the groups
                if pthread_equal(pthread_self(), caller) == 0 { away.add(1, ordering: .relaxed) }
            }
            #expect(runs.withLock { $0 } == [Int](repeating: 1, count: 64))
            if inline { #expect(away.load(ordering: .relaxed) == 0, "all on the calling thread") }
        }
    }

    @Test func threadgroupCountRoundsUp() {
        let n = ComputeContext.threadgroups(covering: Size(width: 1000, height: 700), threadsPerThreadgroup: Size(width: 16, height: 16))
        #expect(n == Size(width: 63, height: 44))
    }

    @Test func threadCountDoesNotChangeTheResult() {
        func render(threads: Int) -> [UInt32] {
            let s = TextureStorage<UInt32>(width: 301, height: 157, filledWith: 0)
            let t = s.texture
            ComputeContext(threads: threads, inlineThreshold: 0).dispatch(over: t.bounds) { g in
                for y in g.threadPositions.ys {
                    for x in g.threadPositions.xs { t[x, y] = UInt32(truncatingIfNeeded: x &* 73856093 ^ y &* 19349663) }
                }
            }
            return s.pixels
        }
        let one = render(threads: 1)
        for n in [2, 3, 8] { #expect(render(threads: n) == one) }
    }

    @Test func rectArithmetic() {
        let a = Rect(x: 0, y: 0, width: 10, height: 10), b = Rect(x: 5, y: 5, width: 10, height: 10)
        #expect(a.union(b) == Rect(x: 0, y: 0, width: 15, height: 15))
        #expect(a.intersection(b) == Rect(x: 5, y: 5, width: 5, height: 5))
        #expect(a.intersection(Rect(x: 20, y: 20, width: 1, height: 1)).isEmpty)
        #expect(Rect.empty.union(b) == b)
        #expect(Rect.covering(minX: -1e30, minY: 0.5, maxX: 1e30, maxY: 1.5) == Rect(minX: -1_000_000_000_000, minY: 0, maxX: 1_000_000_000_000, maxY: 2))
    }
}

/// The tile dictionary against a plain array of the same pixels: any tiles, anywhere (negative
/// coordinates and far ones included), read back by `segments`, `copy`, the pixel subscript
/// and the keys, the same; removed tiles gone.
@Suite struct TiledTextureTests {
    @Test func readsWhatADenseImageWouldHold() {
        var rng = SystemRandomNumberGenerator()
        var t = TiledTexture()
        #expect(t.isEmpty && t.paintedBounds.isEmpty)
        // A reference image over x, y in -256..<256, plus two far tiles.
        let origin = -256, side = 512
        var dense = [UInt32](repeating: 0, count: side * side)
        for _ in 0..<20 {
            let key = TileKey(x: Int.random(in: -4...3, using: &rng), y: Int.random(in: -4...3, using: &rng))
            let tile = t.writableTile(key)
            for y in 0..<64 {
                for x in 0..<64 {
                    let v = UInt32.random(in: 1...UInt32.max, using: &rng)
                    tile.texture[x, y] = v
                    dense[(key.y * 64 + y - origin) * side + key.x * 64 + x - origin] = v
                }
            }
        }
        let far = TileKey(x: 1 << 24, y: -(1 << 24))
        t.writableTile(far).texture[5, 6] = 42
        #expect(t[(1 << 30) + 5, -(1 << 30) + 6] == 42)
        for _ in 0..<200 {
            let y = Int.random(in: origin..<(origin + side), using: &rng)
            let a = Int.random(in: origin..<(origin + side), using: &rng), b = Int.random(in: origin...(origin + side), using: &rng)
            let xs = min(a, b)..<max(a, b)
            var row = [UInt32](repeating: 7, count: side)
            row.withUnsafeMutableBufferPointer { t.copy(row: y, xs: xs, into: $0.baseAddress! - origin) }
            var covered = 0, previous = xs.lowerBound
            t.segments(row: y, xs: xs) { r, p in
                #expect(r.lowerBound == previous, "segments are contiguous, left to right")
                previous = r.upperBound
                covered += r.count
                if p != nil { #expect(r.lowerBound >> 6 == (r.upperBound - 1) >> 6, "a run with pixels lies in one tile") }
            }
            #expect(covered == xs.count)
            for x in xs {
                #expect(row[x - origin] == dense[(y - origin) * side + x - origin] && t[x, y] == row[x - origin], "(\(x), \(y))")
            }
        }
        #expect(t.keys == t.keys.sorted() && t.keys.count == t.count)
        #expect(t.keys(in: Rect(x: -64, y: -64, width: 128, height: 128)) == t.keys.filter { (-1...0).contains($0.x) && (-1...0).contains($0.y) })
        for key in t.keys { t[key] = nil }
        #expect(t.isEmpty && t.count == 0)
    }
}
