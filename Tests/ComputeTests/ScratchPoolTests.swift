import Compute
import Testing

/// The compute context's scratch pool: a borrowed buffer is reused by the next borrower, never
/// shared by two at once, grown when too small, and no more than `kept` are held between uses.
@Suite struct ScratchPoolTests {
    @Test func theNextBorrowerReusesTheBufferGivenBack() {
        let pool = ScratchPool(kept: 2)
        let first = pool.withBuffer(of: UInt32.self, count: 1000) { UInt(bitPattern: $0) }
        let second = pool.withBuffer(of: UInt32.self, count: 900) { UInt(bitPattern: $0) }
        #expect(first == second)
        #expect(pool.idleCount == 1)
    }

    @Test func borrowersAtOnceGetDistinctBuffersAndAtMostKeptStay() {
        let pool = ScratchPool(kept: 2)
        var seen: [UInt] = []
        pool.withBuffer(of: UInt8.self, count: 64) { a in
            pool.withBuffer(of: UInt8.self, count: 64) { b in
                pool.withBuffer(of: UInt8.self, count: 64) { c in
                    seen = [a, b, c].map { UInt(bitPattern: $0) }
                    a.initialize(repeating: 1, count: 64); b.initialize(repeating: 2, count: 64); c.initialize(repeating: 3, count: 64)
                    #expect(a[63] == 1 && b[63] == 2 && c[63] == 3)
                }
            }
        }
        #expect(Set(seen).count == 3)
        #expect(pool.idleCount == 2)
    }

    @Test func aBufferTooSmallIsReplacedByOneThatHoldsTheRequest() {
        let pool = ScratchPool(kept: 1)
        pool.withBuffer(of: UInt32.self, count: 16) { $0.initialize(repeating: 7, count: 16) }
        let count = 1 << 20
        let sum = pool.withBuffer(of: UInt32.self, count: count) { p in
            p.initialize(repeating: 1, count: count)
            return (0..<count).reduce(0) { $0 + Int(p[$1]) }
        }
        #expect(sum == count)
        #expect(pool.idleCount == 1)
    }
}
