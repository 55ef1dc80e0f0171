import Compute
import Foundation
import Geometry

/// Up to four pointer samples for one scaffold dispatch, as MercurialPaint passed Apple Pencil's
/// coalesced touches: two int4 vectors, the slots past `filledSlots` −1.
public struct SampleBatch: Equatable, Sendable {
    public var x: SIMD4<Int32>
    public var y: SIMD4<Int32>
    /// How many slots hold samples.
    public let filledSlots: Int

    public static let empty = SampleBatch(x: SIMD4(repeating: -1), y: SIMD4(repeating: -1))

    /// MercurialPaint's batch: the first −1 ends it.
    public init(x: SIMD4<Int32>, y: SIMD4<Int32>) {
        var n = 0
        while n < 4 && x[n] != -1 && y[n] != -1 { n += 1 }
        self.init(x: x, y: y, filledSlots: n)
    }

    private init(x: SIMD4<Int32>, y: SIMD4<Int32>, filledSlots: Int) {
        self.x = x; self.y = y; self.filledSlots = filledSlots
    }

    /// A frame's samples in batches of four, the last padded with −1. None is dropped:
    /// MercurialPaint kept only the first four of a frame; ten samples here make three batches.
    /// Each batch counts its samples, so one at −1 (the endless canvas has them) is a sample.
    public static func batches(of samples: [(x: Int32, y: Int32)]) -> [SampleBatch] {
        stride(from: 0, to: samples.count, by: 4).map { start in
            var (x, y) = (SIMD4<Int32>(repeating: -1), SIMD4<Int32>(repeating: -1))
            let n = min(4, samples.count - start)
            for i in 0..<n {
                x[i] = samples[start + i].x
                y[i] = samples[start + i].y
            }
            return SampleBatch(x: x, y: y, filledSlots: n)
        }
    }
}

/// The mercurial brush's particle kernel: 2,048 particles, one thread each, spray full coverage
/// around every sample of a batch into the scaffold (an 8-bit coverage image the size of the
/// canvas). Each particle's seed is drawn once per session from the replay's seed.
public struct ScaffoldKernel: Sendable {
    public static let particleCount = 2048
    /// The particles' seeds, each in 0..<9999.
    public let seeds: [Int32]

    /// Seeds drawn from `seed` (splitmix64), so a session's spray is the same on every run.
    public init(seed: Int64) {
        var state = UInt64(bitPattern: seed)
        seeds = (0..<Self.particleCount).map { _ in
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int32((z ^ (z >> 31)) % 9999)
        }
    }

    /// Runs one batch: for each slot i up to the first −1, every particle writes 255 at
    /// (x + Int(sin(a)·r), y + Int(cos(a)·r)) with a = rand(seed + i, x, y)·2π and
    /// r = rand(seed + i, y, x)·radius, in canvas coordinates, the scaffold's pixel (0, 0)
    /// being canvas `origin` (so a particle lands where it would with the scaffold anywhere).
    /// Points outside `clip` (canvas) are dropped (the original had no bounds check). Returns the
    /// rectangle written, in canvas coordinates.
    ///
    /// The random numbers are drawn from the samples' positions less `anchor`: the canvas's
    /// (0, 0), as MercurialPaint drew them, or a point that moves with the stroke (a corner of
    /// the 64-px grid), so that a stroke moved by a multiple of 64 px sprays the same particles,
    /// moved.
    ///
    /// One thread per particle, dispatched like any kernel; every write is the same value, so
    /// the result does not depend on the thread count or order.
    public func run(_ batch: SampleBatch, radius: Float, into scaffold: Texture<UInt8>, origin: (x: Int, y: Int) = (0, 0),
                    anchor: (x: Int, y: Int) = (0, 0), clip: Rect, on compute: ComputeContext) -> Rect {
        let bounds = clip.intersection(scaffold.bounds.moved(by: origin.x, origin.y))
        let slots = batch.filledSlots
        guard slots > 0, !bounds.isEmpty else { return .empty }
        let seeds = self.seeds
        compute.dispatchThreadgroups(Size(width: Self.particleCount / 256, height: 1), threadsPerThreadgroup: Size(width: 256, height: 1),
                                     grid: Rect(x: 0, y: 0, width: Self.particleCount, height: 1)) { group in
            for particle in group.threadPositions.xs {
                let seed = seeds[particle]
                for i in 0..<slots {
                    let x = batch.x[i], y = batch.y[i]
                    let ax = Int32(truncatingIfNeeded: Int(x) &- anchor.x), ay = Int32(truncatingIfNeeded: Int(y) &- anchor.y)
                    let angle = MercurialRandom.rand(seed &+ Int32(i), ax, ay) * 2 * Float.pi
                    let r = MercurialRandom.rand(seed &+ Int32(i), ay, ax) * radius
                    let px = Int(x) + Int(sin(angle) * r), py = Int(y) + Int(cos(angle) * r)
                    if bounds.contains(x: px, y: py) { scaffold[px - origin.x, py - origin.y] = 255 }
                }
            }
        }
        var written = Rect.empty
        let reach = Int(radius.rounded(.up)) + 1
        for i in 0..<slots {
            written = written.union(Rect(x: Int(batch.x[i]) - reach, y: Int(batch.y[i]) - reach, width: 2 * reach + 1, height: 2 * reach + 1))
        }
        return written.intersection(bounds)
    }
}
