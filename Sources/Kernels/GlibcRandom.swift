/// The sequence of glibc's `rand()` (its additive feedback generator, TYPE_3: r[i] = r[i−31] +
/// r[i−3], the first 310 outputs skipped, each output shifted right once), owned by its user
/// rather than shared by the process.
///
/// libmypaint's pigment `get_color` samples a random subset of a dab's pixels with `rand()`;
/// a surface that draws its samples from its own copy of that sequence, seeded 1 as a program's
/// `rand()` starts, picks the same pixels libmypaint picks when both are fed the same calls, and
/// stays deterministic whatever else the process does.
public struct GlibcRandom: Sendable {
    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32,
                        UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32,
                        UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32,
                        UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32)
    /// glibc's two pointers into the ring of 31 words: the front one is added to (starting at 3),
    /// the rear one added (starting at 0).
    private var front: Int32 = 3, rear: Int32 = 0

    /// The sequence `srand(seed)` starts (seed 0 is taken as 1, as glibc does).
    public init(seed: UInt32 = 1) {
        state = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var r = [Int64](repeating: 0, count: 31)
        r[0] = Int64(seed == 0 ? 1 : seed)
        for i in 1..<31 {
            // 16807 · r[i−1] mod (2³¹ − 1), by Schrage's method as glibc computes it.
            let hi = r[i - 1] / 127_773, lo = r[i - 1] % 127_773
            var word = 16_807 * lo - 2_836 * hi
            if word < 0 { word += 2_147_483_647 }
            r[i] = word
        }
        withUnsafeMutableBytes(of: &state) { raw in
            let s = raw.bindMemory(to: UInt32.self)
            for i in 0..<31 { s[i] = UInt32(truncatingIfNeeded: r[i]) }
        }
        for _ in 0..<310 { _ = next() }
    }

    /// The next value, 0…2³¹ − 1, as `rand()` returns it.
    public mutating func next() -> Int32 {
        let f = Int(front), r = Int(rear)
        let value = withUnsafeMutableBytes(of: &state) { raw -> UInt32 in
            let s = raw.bindMemory(to: UInt32.self)
            let v = s[f] &+ s[r]
            s[f] = v
            return v
        }
        front = f == 30 ? 0 : Int32(f &+ 1)
        rear = r == 30 ? 0 : Int32(r &+ 1)
        return Int32(bitPattern: value >> 1)
    }

    /// Runs `body` on the sequence's state as C draws from it (CVector's qs_sample_pick): the
    /// ring of 31 words, then the front and rear pointers.
    mutating func withState<R>(_ body: (UnsafeMutablePointer<UInt32>, UnsafeMutablePointer<Int32>, UnsafeMutablePointer<Int32>) -> R) -> R {
        var f = front, r = rear
        defer { front = f; rear = r }
        return withUnsafeMutableBytes(of: &state) { raw in body(raw.bindMemory(to: UInt32.self).baseAddress!, &f, &r) }
    }
}
