import Geometry

/// A layer's tile: 32-bit premultiplied pixels.
public typealias Tile = TileOf<UInt32>
/// A coverage mask's tile (the live stroke's): 8-bit coverage.
public typealias MaskTile = TileOf<UInt8>

/// One 64x64 tile of pixels, owned by Swift. Shared between a layer and its undo steps: a
/// change writes into a fresh copy, so the old tile is the undo step's, untouched.
public final class TileOf<Pixel: BitwiseCopyable>: @unchecked Sendable {
    @inlinable public static var side: Int { 64 }
    public let texture: Texture<Pixel>

    /// The rows that may hold a pixel other than zero, bit `y` for row `y`: a clear bit
    /// promises the row is all zero, so a reader may pass it unread (`RowReader.pointerIfSet`:
    /// the live stroke's masks, whose rows are mostly empty). Only `Tiles.writableTile`, which
    /// hands out tiles to write, clears bits (on a tile it makes zeroed) or sets them for the
    /// rows it is told of; a tile made any other way starts with every bit set, as its writer
    /// may write anywhere. (Unchecked: a checked class property cost a call per read.)
    @exclusivity(unchecked) public internal(set) var setRows: UInt64 = ~0

    /// A transparent tile (zero pixels: calloc'd, so it costs nothing until written).
    public convenience init() {
        self.init(System.zeroedMemory(Pixel.self, count: Self.side * Self.side))
    }

    /// A copy of `other`. Its memory is not zeroed first: every stroke's undo step copies the
    /// tiles it changes, and clearing 16 KB only to overwrite it cost as much as the copy.
    public convenience init(copying other: TileOf<Pixel>) {
        self.init(System.memory(Pixel.self, count: Self.side * Self.side))
        texture.base.initialize(from: other.texture.base, count: Self.side * Self.side)
        setRows = other.setRows
    }

    /// A tile whose pixels are not set yet: for a caller that writes every one.
    public static func unset() -> TileOf<Pixel> { TileOf(System.memory(Pixel.self, count: side * side)) }

    /// A zeroed tile with no row marked: for `Tiles.writableTile`, which marks what it hands out.
    @usableFromInline static func zeroedUnmarked() -> TileOf<Pixel> {
        let t = TileOf()
        t.setRows = 0
        return t
    }

    /// Marks `rows` (clamped to the tile) as rows that may hold pixels other than zero.
    @usableFromInline func markRows(_ rows: Range<Int>) {
        let lo = Swift.max(0, rows.lowerBound), hi = Swift.min(Self.side, rows.upperBound)
        guard lo < hi else { return }
        let n = hi &- lo
        setRows |= (n >= 64 ? ~0 : (UInt64(1) << UInt64(n)) &- 1) << UInt64(lo)
    }

    private init(_ memory: UnsafeMutablePointer<Pixel>?) {
        guard let memory else { fatalError("out of memory for a tile") }
        texture = Texture(base: memory, width: Self.side, height: Self.side, rowStride: Self.side)
    }

    deinit { System.freeMemory(texture.base) }

    /// The bytes a tile holds.
    public static var bytes: Int { side * side * MemoryLayout<Pixel>.stride }
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

/// A layer's pixels without edges.
public typealias TiledTexture = Tiles<UInt32>
/// A coverage mask without edges (the live stroke's).
public typealias TiledMask = Tiles<UInt8>

/// An image without edges (32-bit pixels for layers, 8-bit coverage for masks), stored as 64x64 tiles that exist only where
/// something was drawn, a missing tile being all zero (transparent): MyPaint's tile dictionary.
/// An empty image costs nothing but its empty dictionary, a mostly empty one only the tiles
/// drawn into, wherever they are. Kernels read it a row segment at a time (`segments`): one
/// lookup of the tile row, then its tiles in order. They write through `writableTile`, which
/// the owner makes unique first.
public struct Tiles<Pixel: BitwiseCopyable>: @unchecked Sendable {
    @inlinable public static var side: Int { 64 }

    /// One row of tiles: their columns, ascending, and the tiles.
    @usableFromInline struct Row {
        @usableFromInline var columns: [Int]
        @usableFromInline var tiles: [TileOf<Pixel>]

        @inlinable init(columns: [Int], tiles: [TileOf<Pixel>]) { self.columns = columns; self.tiles = tiles }

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

    @inlinable public init() {}

    /// No tile at all: every pixel is transparent.
    @inlinable public var isEmpty: Bool { rows.isEmpty }

    /// How many tiles it holds.
    @inlinable public var count: Int { rows.values.reduce(0) { $0 + $1.tiles.count } }

    /// The tile at `key`, nil where there is none; setting nil removes it.
    @inlinable public subscript(key: TileKey) -> TileOf<Pixel>? {
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
    @inlinable public var tiles: [(key: TileKey, tile: TileOf<Pixel>)] {
        rows.sorted { $0.key < $1.key }.flatMap { y, row in
            zip(row.columns, row.tiles).map { (TileKey(x: $0, y: y), $1) }
        }
    }

    /// The keys of the tiles it holds, rows first.
    @inlinable public var keys: [TileKey] { tiles.map(\.key) }

    /// The tiles it holds meeting `rect`, in order.
    @inlinable public func keys(in rect: Rect) -> [TileKey] {
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
    @inlinable public var paintedBounds: Rect {
        var r = Rect.empty
        for (y, row) in rows {
            guard let first = row.columns.first, let last = row.columns.last else { continue }
            r = r.union(Rect(x: first << 6, y: y << 6, width: (last - first + 1) << 6, height: Tile.side))
        }
        return r
    }

    /// The pixel at (x, y) (nil where no tile is).
    @inlinable public func pixel(x: Int, y: Int) -> Pixel? {
        guard let t = self[TileKey(containing: x, y)] else { return nil }
        return t.texture[x & 63, y & 63]
    }

    /// Calls `body` for each run of row `y` within `xs`, left to right: a run within one tile
    /// with a pointer to its first pixel (indexed from 0), or a run of missing tiles (any
    /// length) with nil.
    @inlinable public func segments(row y: Int, xs: Range<Int>, _ body: (Range<Int>, UnsafeMutablePointer<Pixel>?) -> Void) {
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

    /// The tile at `key`, made if missing, to write anywhere in. The caller makes sure no one
    /// else holds it.
    @inlinable public mutating func writableTile(_ key: TileKey) -> TileOf<Pixel> {
        writableTile(key, rows: 0..<Self.side)
    }

    /// The tile at `key`, made if missing, to write only its rows `rows` (in the tile's own
    /// coordinates), which are marked as rows that may hold pixels (`TileOf.setRows`): a write
    /// outside them could be skipped by a reader. The caller makes sure no one else holds it.
    @inlinable public mutating func writableTile(_ key: TileKey, rows: Range<Int>) -> TileOf<Pixel> {
        let t: TileOf<Pixel>
        if let found = self[key] {
            t = found
        } else {
            t = TileOf<Pixel>.zeroedUnmarked()
            self[key] = t
        }
        t.markRows(rows)
        return t
    }

    /// Copies row `y` within `xs` to `dst` (indexed by x), `missing` where no tile is.
    @inlinable public func copy(row y: Int, xs: Range<Int>, into dst: UnsafeMutablePointer<Pixel>, missing: Pixel) {
        segments(row: y, xs: xs) { r, p in
            if let p { (dst + r.lowerBound).update(from: p, count: r.count) } else { (dst + r.lowerBound).update(repeating: missing, count: r.count) }
        }
    }

    /// Row `y`'s tiles, for a reader that walks them left to right (`RowReader.pointer`).
    @inlinable public func reader(row y: Int) -> RowReader { RowReader(row: rows[y >> 6], ry: y & 63) }

    /// One row of pixels across the tiles, read left to right: one lookup of the tile row, then
    /// a step along it per tile.
    public struct RowReader {
        @usableFromInline let row: Row?
        @usableFromInline let ry: Int
        @usableFromInline var i = 0

        @inlinable init(row: Row?, ry: Int) { self.row = row; self.ry = ry }

        /// Whether the row holds no tile at all.
        @inlinable public var isEmpty: Bool { row == nil }

        /// The row's first pixel in tile column `tx`, nil where there is no tile. Columns asked
        /// for must not decrease from one call to the next.
        @inlinable public mutating func pointer(column tx: Int) -> UnsafeMutablePointer<Pixel>? {
            guard let row else { return nil }
            while i < row.columns.count, row.columns[i] < tx { i &+= 1 }
            guard i < row.columns.count, row.columns[i] == tx else { return nil }
            return row.tiles[i].texture.row(ry)
        }

        /// The tile in column `tx`, nil where there is none: its first pixel and its `setRows`,
        /// not the tile itself, so that a kernel visiting tile after tile takes no reference
        /// (a retain and a release per source and tile were 3 % of a turned frame). The tile
        /// lives as long as the texture read. Columns asked for must not decrease from one call
        /// to the next (shared with `pointer(column:)`).
        @inlinable @inline(__always) public mutating func tile(column tx: Int) -> (base: UnsafeMutablePointer<Pixel>, setRows: UInt64)? {
            guard let row else { return nil }
            while i < row.columns.count, row.columns[i] < tx { i &+= 1 }
            guard i < row.columns.count, row.columns[i] == tx else { return nil }
            return (row.tiles[i].texture.base, row.tiles[i].setRows)
        }

        /// As `pointer(column:)`, but nil too where the tile's row is known to be all zero
        /// (`TileOf.setRows`): for readers to whom a missing tile reads as zero, as masks.
        @inlinable public mutating func pointerIfSet(column tx: Int) -> UnsafeMutablePointer<Pixel>? {
            guard let row else { return nil }
            while i < row.columns.count, row.columns[i] < tx { i &+= 1 }
            guard i < row.columns.count, row.columns[i] == tx else { return nil }
            let tile = row.tiles[i]
            return tile.setRows >> UInt64(ry) & 1 != 0 ? tile.texture.row(ry) : nil
        }
    }
}

extension Tiles where Pixel: FixedWidthInteger {
    /// The pixels of `texture` (its corner at the origin), a tile made only where one is not zero.
    public init(_ texture: Texture<Pixel>) {
        for key in TileKey.covering(texture.bounds) {
            let part = key.rect.intersection(texture.bounds)
            guard part.ys.contains(where: { y in part.xs.contains { texture.row(y)[$0] != 0 } }) else { continue }
            let tile = writableTile(key, rows: (part.minY & 63)..<(part.minY & 63) + part.height)
            for y in part.ys { (tile.texture.row(y & 63) + (part.minX & 63)).update(from: texture.row(y) + part.minX, count: part.width) }
        }
    }

    /// The pixel at (x, y) (zero where no tile is).
    @inlinable public subscript(x: Int, y: Int) -> Pixel { pixel(x: x, y: y) ?? 0 }

    /// Copies row `y` within `xs` to `dst` (indexed by x), zero where no tile is.
    @inlinable public func copy(row y: Int, xs: Range<Int>, into dst: UnsafeMutablePointer<Pixel>) {
        copy(row: y, xs: xs, into: dst, missing: 0)
    }
}
