import Compute
import Kernels

/// One 64x64 tile of 15-bit premultiplied RGBA (four `UInt16`s a pixel, 1.0 = 1<<15): a layer
/// tile promoted for the stroke that touches it.
final class WorkingTile: @unchecked Sendable {
    let values: UnsafeMutablePointer<UInt16>
    /// Painted by the stroke (a tile only read, for smudging, is not written back).
    var changed = false

    init() { values = .allocate(capacity: DabKernel.tileValues) }
    deinit { values.deallocate() }

    /// Fills it from an 8-bit tile, or with transparency where there is none.
    func load(from tile: Tile?) {
        changed = false
        guard let tile else {
            values.update(repeating: 0, count: DabKernel.tileValues)
            return
        }
        let src = tile.texture.base
        for i in 0..<(64 * 64) { Fix15.expand(src[i], into: values + i &* 4) }
    }

    /// Its pixels rounded to 8 bits into `tile` (every pixel written).
    func store(into tile: Tile) {
        let dst = tile.texture.base
        for i in 0..<(64 * 64) { dst[i] = Fix15.pack(values + i &* 4) }
    }
}

/// The 15-bit tiles of the stroke being painted, by tile, with the memory of finished strokes'
/// tiles kept for the next (no allocation per stroke once warm).
struct WorkingTiles {
    private(set) var tiles: [TileKey: WorkingTile] = [:]
    private var spare: [WorkingTile] = []
    /// A transparent tile read where a layer has none (never written).
    let empty: UnsafeMutablePointer<UInt16>

    init() {
        empty = .allocate(capacity: DabKernel.tileValues)
        empty.initialize(repeating: 0, count: DabKernel.tileValues)
    }

    /// Frees the transparent tile (the owner calls it once, when it goes).
    func deallocate() { empty.deallocate() }

    var isEmpty: Bool { tiles.isEmpty }

    subscript(key: TileKey) -> WorkingTile? { tiles[key] }

    /// The working tile at `key`, promoted from `pixels` if the stroke has not touched it yet.
    mutating func promote(_ key: TileKey, from pixels: TiledTexture) -> WorkingTile {
        if let t = tiles[key] { return t }
        let t = spare.popLast() ?? WorkingTile()
        t.load(from: pixels[key])
        tiles[key] = t
        return t
    }

    /// Every working tile back to the spares.
    mutating func removeAll() {
        spare.append(contentsOf: tiles.values)
        tiles.removeAll(keepingCapacity: true)
    }
}
