import Testing
@testable import Text

@Suite struct BoundedCacheTests {
    @Test func keepsItsCostWithinCapacityAndTheRecentlyUsed() {
        var cache = BoundedCache<Int, String>(capacity: 100)
        for i in 0..<50 { cache.insert("\(i)", for: i, cost: 2) }
        #expect(cache.count == 50 && cache.cost == 100)
        #expect(cache.value(for: 0) == "0", "0 is now the most recently used")
        cache.insert("new", for: 50, cost: 10)
        #expect(cache.cost <= 100)
        #expect(cache.value(for: 0) == "0" && cache.value(for: 50) == "new")
        #expect(cache.value(for: 1) == nil, "the oldest went first")
        #expect(cache.value(for: 49) == "49")
    }

    @Test func replacingAnEntryCountsItsCostOnce() {
        var cache = BoundedCache<String, Int>(capacity: 10)
        cache.insert(1, for: "a", cost: 4)
        cache.insert(2, for: "a", cost: 6)
        #expect(cache.count == 1 && cache.cost == 6 && cache.value(for: "a") == 2)
        cache.removeAll()
        #expect(cache.count == 0 && cache.cost == 0)
    }

    /// A string drawn at ever new sizes, or ever new strings, keep the engine's caches bounded.
    @Test func manyStringsKeepTheEngineBounded() throws {
        let engine = try TextEngine()
        for i in 0..<3000 { _ = engine.run("status \(i)", size: 11) }
        #expect(engine.counters.runsBuilt == 3000)
        #expect(engine.run("status 2999", size: 11).advance > 0)
        #expect(engine.counters.runsBuilt == 3000, "the newest are kept")
        let sizes = engine.cacheSizes
        #expect(sizes.shaped <= 1024 && sizes.runBytes <= 4 << 20 && sizes.glyphBytes <= 8 << 20)
        #expect(sizes.glyphs < 100, "digits and a few letters, each drawn once")
    }
}
