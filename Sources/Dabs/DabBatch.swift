import Compute
import Geometry
import Kernels

/// The dabs drawn and not yet laid, in order, and the laying of them: each bound to the tiles it
/// touches, then every 16x16 block of those tiles laid by one threadgroup, its tile's dabs in
/// order (`DabKernel`). Only the tiles dabs touch are visited, however far apart the dabs lie,
/// and the same dabs give the same bytes for any number of threads and any batching.
struct DabBatch {
    private(set) var stamps: [DabStamp] = []
    /// What laying them costs, in the compute pass's units.
    private(set) var cost = 0

    // The binning, kept between batches for its storage.
    private var slots: [TileKey: Int] = [:]
    private var keys: [TileKey] = []
    /// For each tile (by slot), where its dab indices start in `indices`, then one past the last.
    private var starts: [Int] = []
    private var indices: [Int32] = []
    private var memory: [UnsafeMutablePointer<UInt16>] = []

    var isEmpty: Bool { stamps.isEmpty }
    var count: Int { stamps.count }

    mutating func append(_ stamp: DabStamp) {
        let b = stamp.mask.bounds
        cost += (b.maxX - b.minX) * (b.maxY - b.minY) * DabKernel.cost(of: stamp.paint)
        stamps.append(stamp)
    }

    /// The tiles a dab touches, as libmypaint queues it: ⌊(x ∓ fringe)/64⌋ each way.
    private static func tiles(_ stamp: DabStamp) -> (tx0: Int, ty0: Int, tx1: Int, ty1: Int) {
        let b = stamp.mask.bounds
        return (b.minX >> 6, b.minY >> 6, (b.maxX - 1) >> 6, (b.maxY - 1) >> 6)
    }

    /// Lays every dab on the working tiles (promoting the layer's tiles they touch), then empties
    /// the batch.
    mutating func lay(on working: inout WorkingTiles, from pixels: TiledTexture, compute: ComputeContext, roundTo8Bits: Bool) {
        guard !stamps.isEmpty else { return }
        // Count each tile's dabs, giving tiles their slots in the order first touched.
        slots.removeAll(keepingCapacity: true)
        keys.removeAll(keepingCapacity: true)
        starts.removeAll(keepingCapacity: true)
        for s in stamps {
            let t = Self.tiles(s)
            for ty in t.ty0...t.ty1 {
                for tx in t.tx0...t.tx1 {
                    let key = TileKey(x: tx, y: ty)
                    if let slot = slots[key] {
                        starts[slot] += 1
                    } else {
                        slots[key] = keys.count
                        keys.append(key)
                        starts.append(1)
                    }
                }
            }
        }
        // Counts to starts (each slot's end, filled backwards below), then the indices in order.
        var total = 0
        for i in starts.indices {
            total += starts[i]
            starts[i] = total
        }
        starts.append(total)
        indices.removeAll(keepingCapacity: true)
        indices.append(contentsOf: repeatElement(0, count: total))
        for i in stamps.indices.reversed() {
            let t = Self.tiles(stamps[i])
            for ty in t.ty0...t.ty1 {
                for tx in t.tx0...t.tx1 {
                    guard let slot = slots[TileKey(x: tx, y: ty)] else { continue }
                    starts[slot] -= 1
                    indices[starts[slot]] = Int32(i)
                }
            }
        }
        // starts[slot] is now each slot's first index; starts[count] the total.
        memory.removeAll(keepingCapacity: true)
        for key in keys {
            let t = working.promote(key, from: pixels)
            t.changed = true
            memory.append(t.values)
        }
        let tileCount = keys.count
        // A grid of 64x64 cells, one a tile, cut in 16x16 threadgroups: 16 to a tile.
        let grid = Rect(x: 0, y: 0, width: 64 * tileCount, height: 64)
        stamps.withUnsafeBufferPointer { stamps in
            indices.withUnsafeBufferPointer { indices in
                starts.withUnsafeBufferPointer { starts in
                    keys.withUnsafeBufferPointer { keys in
                        memory.withUnsafeBufferPointer { memory in
                            let job = LayJob(stamps: stamps, indices: indices, starts: starts, keys: keys, memory: memory)
                            compute.dispatchThreadgroups(Size(width: 4 * tileCount, height: 4), threadsPerThreadgroup: Size(width: 16, height: 16),
                                                         grid: grid, workingThreads: cost) { group in
                                job.lay(group.threadPositions, roundTo8Bits: roundTo8Bits)
                            }
                        }
                    }
                }
            }
        }
        stamps.removeAll(keepingCapacity: true)
        cost = 0
    }
}

/// What a batch's threadgroups read, all unchanged while they run.
private struct LayJob: @unchecked Sendable {
    let stamps: UnsafeBufferPointer<DabStamp>
    let indices: UnsafeBufferPointer<Int32>
    let starts: UnsafeBufferPointer<Int>
    let keys: UnsafeBufferPointer<TileKey>
    let memory: UnsafeBufferPointer<UnsafeMutablePointer<UInt16>>

    /// One threadgroup: a 16x16 block of the grid of tile cells, mapped to its tile's pixels.
    @inline(__always) func lay(_ cell: Rect, roundTo8Bits: Bool) {
        guard let base = stamps.baseAddress, let all = indices.baseAddress else { return }
        let slot = cell.minX >> 6
        let key = keys[slot]
        let group = Rect(x: key.x << 6 + (cell.minX & 63), y: key.y << 6 + cell.minY, width: cell.width, height: cell.height)
        let mine = UnsafeBufferPointer(start: all + starts[slot], count: starts[slot + 1] - starts[slot])
        DabKernel.paint(base, indices: mine, group: group, tile: memory[slot], tileX: key.x, tileY: key.y, roundTo8Bits: roundTo8Bits)
    }
}
