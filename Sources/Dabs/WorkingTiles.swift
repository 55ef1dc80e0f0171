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
        Fix15.pack(values, into: dst, count: 64 * 64)
    }
}

/// The 15-bit tiles of the stroke being painted, by tile, with the memory of finished strokes'
/// tiles kept for the next (no allocation per stroke once warm).
///
/// They are keyed in the surface's own coordinates, which start at `origin` (in tiles) on the
/// layer: `layerKey` and `localKey` go between the two.
struct WorkingTiles {
    private(set) var tiles: [TileKey: WorkingTile] = [:]
    /// Where the surface's tile (0, 0) lies on the layer.
    var origin = TileKey(x: 0, y: 0)
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

    /// The layer's key of the working tile at `key`.
    func layerKey(_ key: TileKey) -> TileKey { TileKey(x: key.x &+ origin.x, y: key.y &+ origin.y) }
    /// The working key of the layer's tile at `key`.
    func localKey(_ key: TileKey) -> TileKey { TileKey(x: key.x &- origin.x, y: key.y &- origin.y) }

    /// The working tile at `key`, promoted from `pixels` if the stroke has not touched it yet.
    mutating func promote(_ key: TileKey, from pixels: TiledTexture) -> WorkingTile {
        if let t = tiles[key] { return t }
        let t = spare.popLast() ?? WorkingTile()
        t.load(from: pixels[layerKey(key)])
        tiles[key] = t
        return t
    }

    /// The surface's coordinates start at `origin` on the layer from now on: the tiles keep their
    /// place on the layer.
    mutating func move(origin new: TileKey) {
        let dx = new.x &- origin.x, dy = new.y &- origin.y
        if dx != 0 || dy != 0, !tiles.isEmpty {
            tiles = Dictionary(uniqueKeysWithValues: tiles.map { (TileKey(x: $0.key.x &- dx, y: $0.key.y &- dy), $0.value) })
        }
        origin = new
    }

    /// Every working tile back to the spares.
    mutating func removeAll() {
        spare.append(contentsOf: tiles.values)
        tiles.removeAll(keepingCapacity: true)
    }
}
