import Geometry

/// One 64x64 tile of 32-bit pixels, owned by Swift. Shared between a layer and its undo steps:
/// a change writes into a fresh copy, so the old tile is the undo step's, untouched.
public final class Tile: @unchecked Sendable {
    public static let side = 64
    public let texture: Texture<UInt32>

    /// A transparent tile (zero pixels: calloc'd, so it costs nothing until written).
    public convenience init() {
        self.init(System.zeroedMemory(UInt32.self, count: Self.side * Self.side))
    }

    /// A copy of `other`. Its memory is not zeroed first: every stroke's undo step copies the
    /// tiles it changes, and clearing 16 KB only to overwrite it cost as much as the copy.
    public convenience init(copying other: Tile) {
        self.init(System.memory(UInt32.self, count: Self.side * Self.side))
        texture.base.initialize(from: other.texture.base, count: Self.side * Self.side)
    }

    /// A tile whose pixels are not set yet: for a caller that writes every one.
    public static func unset() -> Tile { Tile(System.memory(UInt32.self, count: side * side)) }

    private init(_ memory: UnsafeMutablePointer<UInt32>?) {
        guard let memory else { fatalError("out of memory for a tile") }
        texture = Texture(base: memory, width: Self.side, height: Self.side, rowStride: Self.side)
    }

    deinit { System.freeMemory(texture.base) }

    /// The bytes a tile holds.
    public static let bytes = side * side * 4
}

/// An image of 32-bit pixels stored as a grid of 64x64 tiles, a missing tile being all zero
/// (transparent): an empty layer costs a pointer per tile, a mostly empty one only the tiles
/// drawn into. Kernels read it a row segment at a time (`segments`), each segment within one
/// tile, and write through `writableTile`, which the owner makes unique first.
public struct TiledTexture: @unchecked Sendable {
    public static let side = Tile.side
    public private(set) var width: Int
    public private(set) var height: Int
    /// Tiles in rows; nil is transparent.
    public var tiles: [Tile?]
    public var tilesX: Int { (width + Self.side - 1) / Self.side }
    public var tilesY: Int { (height + Self.side - 1) / Self.side }

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
        tiles = []
        tiles = Array(repeating: nil, count: tilesX * tilesY)
    }

    public var bounds: Rect { Rect(x: 0, y: 0, width: width, height: height) }
    public var size: Size { Size(width: width, height: height) }

    /// The index of the tile holding pixel (x, y).
    @inlinable public func index(x: Int, y: Int) -> Int { (y / Self.side) * tilesX + x / Self.side }

    /// The canvas rectangle of tile `index`, cut to the image.
    public func rect(ofTile index: Int) -> Rect {
        Rect(x: index % tilesX * Self.side, y: index / tilesX * Self.side, width: Self.side, height: Self.side).intersection(bounds)
    }

    /// The tiles meeting `rect`.
    public func tileIndices(covering rect: Rect) -> [Int] {
        let r = rect.intersection(bounds)
        guard !r.isEmpty else { return [] }
        var out: [Int] = []
        for ty in (r.minY / Self.side)...((r.maxY - 1) / Self.side) {
            for tx in (r.minX / Self.side)...((r.maxX - 1) / Self.side) { out.append(ty * tilesX + tx) }
        }
        return out
    }

    /// The union of the tiles that exist: where a pixel may be non-zero.
    public var paintedBounds: Rect {
        var r = Rect.empty
        for (i, t) in tiles.enumerated() where t != nil { r = r.union(rect(ofTile: i)) }
        return r
    }

    /// The pixel at (x, y) (zero where no tile is).
    public subscript(x: Int, y: Int) -> UInt32 {
        guard let t = tiles[index(x: x, y: y)] else { return 0 }
        return t.texture[x % Self.side, y % Self.side]
    }

    /// Calls `body` for each run of row `y` within `xs` that lies in one tile, left to right,
    /// with a pointer to its first pixel (indexed from 0), or nil where the tile is missing.
    @inlinable public func segments(row y: Int, xs: Range<Int>, _ body: (Range<Int>, UnsafeMutablePointer<UInt32>?) -> Void) {
        var x = xs.lowerBound
        let ty = y / Self.side, ry = y - ty * Self.side, rowBase = ty * tilesX
        while x < xs.upperBound {
            let tx = x / Self.side
            let end = Swift.min(xs.upperBound, (tx + 1) * Self.side)
            if let t = tiles[rowBase + tx] {
                body(x..<end, t.texture.row(ry) + (x - tx * Self.side))
            } else {
                body(x..<end, nil)
            }
            x = end
        }
    }

    /// The tile at `index`, made if missing. The caller makes sure no one else holds it.
    public mutating func writableTile(_ index: Int) -> Tile {
        if let t = tiles[index] { return t }
        let t = Tile()
        tiles[index] = t
        return t
    }

    /// Copies row `y` within `xs` to `dst` (indexed by x), zero where no tile is.
    @inlinable public func copy(row y: Int, xs: Range<Int>, into dst: UnsafeMutablePointer<UInt32>) {
        segments(row: y, xs: xs) { r, p in
            if let p { (dst + r.lowerBound).update(from: p, count: r.count) } else { (dst + r.lowerBound).update(repeating: 0, count: r.count) }
        }
    }

    /// Grows to at least `size`, keeping every pixel where it is.
    public mutating func grow(to size: Size) {
        guard size.width > width || size.height > height else { return }
        let old = self
        self = TiledTexture(width: Swift.max(size.width, width), height: Swift.max(size.height, height))
        for (i, t) in old.tiles.enumerated() where t != nil {
            tiles[(i / old.tilesX) * tilesX + i % old.tilesX] = t
        }
    }
}
