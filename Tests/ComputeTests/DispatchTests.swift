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
