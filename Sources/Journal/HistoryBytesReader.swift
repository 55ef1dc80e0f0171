import CDeflate
import Compute

/// Reads a history file's bytes, each read checked against the end: a file cut short or
/// damaged is refused with what was wrong, never read past.
struct HistoryBytesReader {
    let bytes: [UInt8]
    /// Where the next read starts, and where the body ends (before the checksum).
    private(set) var at: Int
    let end: Int
    private let decompressor: OpaquePointer?
    /// Memory the tiles decoded so far take, and the most they may.
    private(set) var spent = 0
    let memoryLimit: Int

    init(_ bytes: [UInt8], from: Int, to end: Int, memoryLimit: Int) {
        self.bytes = bytes; at = from; self.end = end; self.memoryLimit = memoryLimit
        decompressor = libdeflate_alloc_decompressor()
    }

    func finish() { if let decompressor { libdeflate_free_decompressor(decompressor) } }

    private static func damaged(_ why: String) -> HistoryFile.Failure { HistoryFile.Failure(message: "damaged (\(why))") }

    private mutating func take(_ n: Int) throws(HistoryFile.Failure) -> Range<Int> {
        guard n >= 0, n <= end - at else { throw Self.damaged("a record runs past the end") }
        defer { at += n }
        return at..<(at + n)
    }

    mutating func u8() throws(HistoryFile.Failure) -> UInt8 { bytes[try take(1).lowerBound] }

    mutating func u32() throws(HistoryFile.Failure) -> Int {
        let r = try take(4)
        var v = 0
        for k in r.reversed() { v = v << 8 | Int(bytes[k]) }
        return v
    }

    mutating func u64() throws(HistoryFile.Failure) -> UInt64 {
        let r = try take(8)
        var v: UInt64 = 0
        for k in r.reversed() { v = v << 8 | UInt64(bytes[k]) }
        return v
    }

    mutating func i64() throws(HistoryFile.Failure) -> Int { Int(truncatingIfNeeded: Int64(bitPattern: try u64())) }
    /// A tile's key, within `HistoryFile.keys` (a column or row beyond it is damage).
    mutating func key() throws(HistoryFile.Failure) -> TileKey {
        let x = try i64(), y = try i64()
        guard HistoryFile.keys.contains(x), HistoryFile.keys.contains(y) else { throw HistoryFile.Failure(message: "damaged (a tile far off)") }
        return TileKey(x: x, y: y)
    }

    mutating func bool() throws(HistoryFile.Failure) -> Bool {
        switch try u8() {
        case 0: return false
        case 1: return true
        default: throw Self.damaged("a flag is neither 0 nor 1")
        }
    }

    mutating func string() throws(HistoryFile.Failure) -> String {
        let r = try take(try u32())
        guard let s = String(validating: bytes[r], as: UTF8.self) else { throw Self.damaged("a name is not UTF-8") }
        return s
    }

    mutating func raw(_ n: Int) throws(HistoryFile.Failure) -> ArraySlice<UInt8> { bytes[try take(n)] }

    /// Counts a layer's grid of tile pointers against the memory limit.
    mutating func spend(_ n: Int) throws(HistoryFile.Failure) {
        spent += n
        guard spent <= memoryLimit else {
            let allowed = memoryLimit >= 1 << 20 ? "\(memoryLimit >> 20) MiB" : "\(memoryLimit >> 10) KiB"
            throw HistoryFile.Failure(message: "it holds more than the undo memory allows (\(allowed))")
        }
    }

    /// A tile or none, as `HistoryBytesWriter.tile` wrote it; a fresh `Tile`.
    mutating func tile() throws(HistoryFile.Failure) -> Tile? {
        guard let kind = HistoryFile.TileKind(rawValue: try u8()) else { throw Self.damaged("unknown kind of tile") }
        if kind == .none { return nil }
        try spend(Tile.bytes)
        let tile = Tile()
        switch kind {
        case .none, .blank: return tile
        case .stored:
            let r = try take(Tile.bytes)
            copy(r, into: tile)
        case .deflated:
            let r = try take(try u32())
            guard let decompressor else { throw HistoryFile.Failure(message: "out of memory") }
            var out = [UInt8](repeating: 0, count: Tile.bytes)
            let result = bytes.withUnsafeBytes { b in
                out.withUnsafeMutableBytes { o in
                    libdeflate_deflate_decompress(decompressor, b.baseAddress.map { $0 + r.lowerBound }, r.count, o.baseAddress, o.count, nil)
                }
            }
            guard result == LIBDEFLATE_SUCCESS else { throw Self.damaged("a tile does not inflate to 64x64 pixels") }
            copy(out.indices, of: out, into: tile)
        }
        return tile
    }

    private func copy(_ r: Range<Int>, into tile: Tile) { copy(r, of: bytes, into: tile) }

    private func copy(_ r: Range<Int>, of source: [UInt8], into tile: Tile) {
        let words = tile.texture.base
        source.withUnsafeBytes { b in
            for i in 0..<(Tile.side * Tile.side) {
                words[i] = UInt32(littleEndian: b.loadUnaligned(fromByteOffset: r.lowerBound &+ i &* 4, as: UInt32.self))
            }
        }
    }
}
