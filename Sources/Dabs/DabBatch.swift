import Compute
import Geometry
import Kernels

/// The dabs drawn and not yet laid, in order, and the laying of them: each bound to the tiles it
/// touches, then each 16x16 block of those tiles that a dab's bounds meet laid by one
/// threadgroup, its tile's dabs in order (`DabKernel`). Only the tiles and blocks dabs touch are
/// visited, however far apart the dabs lie, and the same dabs give the same bytes for any number
/// of threads and any batching.
struct DabBatch {
    private(set) var stamps: [DabStamp] = []
    /// What laying them costs, in the compute pass's units.
    private(set) var cost = 0

    // The binning, kept between batches for its storage.
    private var slots: [TileKey: Int] = [:]
    private var keys: [TileKey] = []
    /// For each tile (by slot), where its dab indices start in `indices`, then one past the last.
    private var starts: [Int] = []
    /// For each tile (by slot), which of its sixteen 16x16 threadgroups its dabs may meet (bit
    /// 4·row + column), and those threadgroups as slot·16 + bit: only they are dispatched.
    private var groups: [UInt16] = []
    private var cells: [Int32] = []
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

    /// The 16x16 threadgroups of tile `key` the dab may meet, as bits 4·row + column: its bounds,
    /// a pixel wider each way (the kernel works in the tile's own coordinates, which round).
    private static func groups(of stamp: DabStamp, inTile key: TileKey) -> UInt16 {
        let b = stamp.mask.bounds, x0 = key.x << 6, y0 = key.y << 6
        let c0 = max(b.minX &- 1 &- x0, 0) >> 4, c1 = min(b.maxX &- x0, 63) >> 4
        let r0 = max(b.minY &- 1 &- y0, 0) >> 4, r1 = min(b.maxY &- y0, 63) >> 4
        guard c0 <= c1, r0 <= r1 else { return 0 }
        let columns = UInt16((1 << (c1 &+ 1)) &- (1 << c0))
        var met: UInt16 = 0
        for r in r0...r1 { met |= columns << (4 &* r) }
        return met
    }

    /// Lays every dab on the working tiles (promoting the layer's tiles they touch), then empties
    /// the batch.
    mutating func lay(on working: inout WorkingTiles, from pixels: TiledTexture, compute: ComputeContext, roundTo8Bits: Bool) {
        guard !stamps.isEmpty else { return }
        // Count each tile's dabs, giving tiles their slots in the order first touched, and note
        // the threadgroups each dab may meet.
        slots.removeAll(keepingCapacity: true)
        keys.removeAll(keepingCapacity: true)
        starts.removeAll(keepingCapacity: true)
        groups.removeAll(keepingCapacity: true)
        for s in stamps {
            let t = Self.tiles(s)
            for ty in t.ty0...t.ty1 {
                for tx in t.tx0...t.tx1 {
                    let key = TileKey(x: tx, y: ty), met = Self.groups(of: s, inTile: key)
                    if let slot = slots[key] {
                        starts[slot] += 1
                        groups[slot] |= met
                    } else {
                        slots[key] = keys.count
                        keys.append(key)
                        starts.append(1)
                        groups.append(met)
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
        cells.removeAll(keepingCapacity: true)
        for (slot, met) in groups.enumerated() {
            for bit in 0..<16 where met & (1 << bit) != 0 { cells.append(Int32(slot << 4 | bit)) }
        }
        // A row of 16x16 cells, one a threadgroup met.
        let grid = Rect(x: 0, y: 0, width: 16 * cells.count, height: 16)
        stamps.withUnsafeBufferPointer { stamps in
            indices.withUnsafeBufferPointer { indices in
                starts.withUnsafeBufferPointer { starts in
                    keys.withUnsafeBufferPointer { keys in
                        memory.withUnsafeBufferPointer { memory in
                            cells.withUnsafeBufferPointer { cells in
                                let job = LayJob(stamps: stamps, indices: indices, starts: starts, keys: keys, memory: memory, cells: cells)
                                compute.dispatchThreadgroups(Size(width: cells.count, height: 1), threadsPerThreadgroup: Size(width: 16, height: 16),
                                                             grid: grid, workingThreads: cost) { group in
                                    job.lay(group.threadPositions, roundTo8Bits: roundTo8Bits)
                                }
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
    let cells: UnsafeBufferPointer<Int32>

    /// One threadgroup: a 16x16 cell of the row, mapped to its tile's pixels.
    @inline(__always) func lay(_ cell: Rect, roundTo8Bits: Bool) {
        guard let base = stamps.baseAddress, let all = indices.baseAddress else { return }
        let code = Int(cells[cell.minX >> 4]), slot = code >> 4, bit = code & 15
        let key = keys[slot]
        let group = Rect(x: key.x << 6 + (bit & 3) << 4, y: key.y << 6 + (bit >> 2) << 4, width: 16, height: 16)
        let mine = UnsafeBufferPointer(start: all + starts[slot], count: starts[slot + 1] - starts[slot])
        DabKernel.paint(base, indices: mine, group: group, tile: memory[slot], tileX: key.x, tileY: key.y, roundTo8Bits: roundTo8Bits)
    }
}
