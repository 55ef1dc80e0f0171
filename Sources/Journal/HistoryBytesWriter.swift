import CDeflate
import Compute

/// The bytes of a history file (`HistoryFile`) being written: little-endian integers, strings
/// with their length, tiles deflated one by one.
struct HistoryBytesWriter {
    private(set) var bytes: [UInt8] = []
    private let compressor: OpaquePointer?
    /// One tile's little-endian bytes, and room for it deflated.
    private var raw = [UInt8](repeating: 0, count: Tile.bytes)
    private var packed: [UInt8]

    /// libdeflate's level for tiles: 1 deflates a history's tiles several times faster than 6
    /// and the file comes out only a little larger (see docs/journal.md).
    static let level: Int32 = 1

    init() {
        compressor = libdeflate_alloc_compressor(Self.level)
        packed = [UInt8](repeating: 0, count: compressor.map { libdeflate_deflate_compress_bound($0, Tile.bytes) } ?? 0)
    }

    /// Frees the compressor; the writer is not used after.
    func finish() { if let compressor { libdeflate_free_compressor(compressor) } }

    mutating func u8(_ v: UInt8) { bytes.append(v) }
    mutating func u32(_ v: Int) { withUnsafeBytes(of: UInt32(truncatingIfNeeded: v).littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func u64(_ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func i64(_ v: Int) { u64(UInt64(bitPattern: Int64(v))) }
    /// A tile's key: its column and row as two i64.
    mutating func key(_ k: TileKey) {
        i64(k.x)
        i64(k.y)
    }
    mutating func string(_ s: String) {
        u32(s.utf8.count)
        bytes.append(contentsOf: s.utf8)
    }
    mutating func append(_ b: [UInt8]) { bytes.append(contentsOf: b) }

    /// Writes the length at `at` (a `u32` reserved earlier) as the bytes written since.
    mutating func patch(u32 v: Int, at: Int) {
        withUnsafeBytes(of: UInt32(truncatingIfNeeded: v).littleEndian) { for (k, b) in $0.enumerated() { bytes[at + k] = b } }
    }

    /// A tile or none: `HistoryFile.TileKind`, then, for a deflated one, its length and bytes,
    /// for a stored one its 16384 bytes.
    mutating func tile(_ tile: Tile?) {
        guard let tile else { return u8(HistoryFile.TileKind.none.rawValue) }
        let words = tile.texture.base, count = Tile.side * Tile.side
        var any: UInt32 = 0
        for i in 0..<count { any |= words[i] }
        guard any != 0 else { return u8(HistoryFile.TileKind.blank.rawValue) }
        raw.withUnsafeMutableBytes { out in
            for i in 0..<count { out.storeBytes(of: words[i].littleEndian, toByteOffset: i &* 4, as: UInt32.self) }
        }
        let n = compressor.map { c in
            raw.withUnsafeBytes { r in packed.withUnsafeMutableBytes { p in libdeflate_deflate_compress(c, r.baseAddress, r.count, p.baseAddress, p.count) } }
        } ?? 0
        if n > 0, n < Tile.bytes {
            u8(HistoryFile.TileKind.deflated.rawValue)
            u32(n)
            bytes.append(contentsOf: packed[0..<n])
        } else {
            u8(HistoryFile.TileKind.stored.rawValue)
            bytes.append(contentsOf: raw)
        }
    }
}
