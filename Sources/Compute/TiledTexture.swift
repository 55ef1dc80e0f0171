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

/// Where a tile lies: its column and row, the pixel coordinates divided by 64 and rounded down,
/// signed (a layer reaches as far left and up as right and down).
public struct TileKey: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public init(x: Int, y: Int) { self.x = x; self.y = y }

    /// The tile holding pixel (x, y).
    @inlinable public init(containing x: Int, _ y: Int) { self.x = x >> 6; self.y = y >> 6 }

    /// Its pixels.
    public var rect: Rect { Rect(x: x << 6, y: y << 6, width: Tile.side, height: Tile.side) }

    /// Rows first, then columns: the order the tiles are stored and listed in.
    public static func < (a: TileKey, b: TileKey) -> Bool { a.y != b.y ? a.y < b.y : a.x < b.x }

    public var description: String { "(\(x), \(y))" }

    /// The keys of every tile meeting `rect`, in order (whether any holds pixels or not).
    public static func covering(_ rect: Rect) -> [TileKey] {
        guard !rect.isEmpty else { return [] }
        var out: [TileKey] = []
        for ty in (rect.minY >> 6)...((rect.maxY - 1) >> 6) {
            for tx in (rect.minX >> 6)...((rect.maxX - 1) >> 6) { out.append(TileKey(x: tx, y: ty)) }
        }
        return out
    }
}

/// An image of 32-bit pixels without edges, stored as 64x64 tiles that exist only where
/// something was drawn, a missing tile being all zero (transparent): MyPaint's tile dictionary.
/// An empty image costs nothing but its empty dictionary, a mostly empty one only the tiles
/// drawn into, wherever they are. Kernels read it a row segment at a time (`segments`): one
/// lookup of the tile row, then its tiles in order. They write through `writableTile`, which
/// the owner makes unique first.
public struct TiledTexture: @unchecked Sendable {
    public static let side = Tile.side

    /// One row of tiles: their columns, ascending, and the tiles.
    @usableFromInline struct Row {
        @usableFromInline var columns: [Int]
        @usableFromInline var tiles: [Tile]

        /// The index of the first column at or after `x`.
        @inlinable func firstIndex(atOrAfter x: Int) -> Int {
            var lo = 0, hi = columns.count
            while lo < hi {
                let mid = (lo &+ hi) >> 1
                if columns[mid] < x { lo = mid &+ 1 } else { hi = mid }
            }
            return lo
        }
    }

    /// The rows that hold any tile, by row.
    @usableFromInline var rows: [Int: Row] = [:]

    public init() {}

    /// No tile at all: every pixel is transparent.
    public var isEmpty: Bool { rows.isEmpty }

    /// How many tiles it holds.
    public var count: Int { rows.values.reduce(0) { $0 + $1.tiles.count } }

    /// The tile at `key`, nil where there is none; setting nil removes it.
    public subscript(key: TileKey) -> Tile? {
        get {
            guard let row = rows[key.y] else { return nil }
            let i = row.firstIndex(atOrAfter: key.x)
            return i < row.columns.count && row.columns[i] == key.x ? row.tiles[i] : nil
        }
        set {
            var row = rows.removeValue(forKey: key.y) ?? Row(columns: [], tiles: [])
            let i = row.firstIndex(atOrAfter: key.x)
            let present = i < row.columns.count && row.columns[i] == key.x
            switch (newValue, present) {
            case (let t?, true): row.tiles[i] = t
            case (let t?, false):
                row.columns.insert(key.x, at: i)
                row.tiles.insert(t, at: i)
            case (nil, true):
                row.columns.remove(at: i)
                row.tiles.remove(at: i)
            case (nil, false): break
            }
            if !row.columns.isEmpty { rows[key.y] = row }
        }
    }

    /// Every tile with its key, rows first.
    public var tiles: [(key: TileKey, tile: Tile)] {
        rows.keys.sorted().flatMap { y in
            let row = rows[y]!
            return zip(row.columns, row.tiles).map { (TileKey(x: $0, y: y), $1) }
        }
    }

    /// The keys of the tiles it holds, rows first.
    public var keys: [TileKey] { tiles.map(\.key) }

    /// The tiles it holds meeting `rect`, in order.
    public func keys(in rect: Rect) -> [TileKey] {
        guard !rect.isEmpty else { return [] }
        var out: [TileKey] = []
        let first = rect.minX >> 6, last = (rect.maxX - 1) >> 6
        for y in (rect.minY >> 6)...((rect.maxY - 1) >> 6) {
            guard let row = rows[y] else { continue }
            var i = row.firstIndex(atOrAfter: first)
            while i < row.columns.count, row.columns[i] <= last {
                out.append(TileKey(x: row.columns[i], y: y))
                i += 1
            }
        }
        return out
    }

    /// The union of the tiles it holds: where a pixel may be non-zero.
    public var paintedBounds: Rect {
        var r = Rect.empty
        for (y, row) in rows {
            guard let first = row.columns.first, let last = row.columns.last else { continue }
            r = r.union(Rect(x: first << 6, y: y << 6, width: (last - first + 1) << 6, height: Tile.side))
        }
        return r
    }

    /// The pixel at (x, y) (zero where no tile is).
    public subscript(x: Int, y: Int) -> UInt32 {
        guard let t = self[TileKey(containing: x, y)] else { return 0 }
        return t.texture[x & 63, y & 63]
    }

    /// Calls `body` for each run of row `y` within `xs`, left to right: a run within one tile
    /// with a pointer to its first pixel (indexed from 0), or a run of missing tiles (any
    /// length) with nil.
    @inlinable public func segments(row y: Int, xs: Range<Int>, _ body: (Range<Int>, UnsafeMutablePointer<UInt32>?) -> Void) {
        guard !xs.isEmpty else { return }
        guard let row = rows[y >> 6] else { return body(xs, nil) }
        let ry = y & 63
        var x = xs.lowerBound
        var i = row.firstIndex(atOrAfter: x >> 6)
        while x < xs.upperBound {
            guard i < row.columns.count, case let tx = row.columns[i], tx << 6 < xs.upperBound else {
                return body(x..<xs.upperBound, nil)
            }
            let start = tx << 6
            if x < start {
                body(x..<start, nil)
                x = start
            }
            let end = Swift.min(xs.upperBound, start &+ 64)
            body(x..<end, row.tiles[i].texture.row(ry) + (x &- start))
            x = end
            i &+= 1
        }
    }

    /// The tile at `key`, made if missing. The caller makes sure no one else holds it.
    public mutating func writableTile(_ key: TileKey) -> Tile {
        if let t = self[key] { return t }
        let t = Tile()
        self[key] = t
        return t
    }

    /// Copies row `y` within `xs` to `dst` (indexed by x), zero where no tile is.
    @inlinable public func copy(row y: Int, xs: Range<Int>, into dst: UnsafeMutablePointer<UInt32>) {
        segments(row: y, xs: xs) { r, p in
            if let p { (dst + r.lowerBound).update(from: p, count: r.count) } else { (dst + r.lowerBound).update(repeating: 0, count: r.count) }
        }
    }
}
