import CDeflate

/// A zip archive of stored (uncompressed) entries, made in memory: what a fuzz target wraps its
/// input in to reach a reader of archives past the zip layer. Names and bytes as given; sizes
/// and CRCs right.
enum StoredZip {
    static func archive(_ entries: [(name: String, bytes: [UInt8])]) -> [UInt8] {
        var out: [UInt8] = [], directory: [UInt8] = []
        for entry in entries {
            let name = Array(entry.name.utf8)
            let crc = entry.bytes.withUnsafeBufferPointer { libdeflate_crc32(0, $0.baseAddress, $0.count) }
            let offset = out.count
            // What the local header and the directory's record share: version, flags, method,
            // time, date, CRC, sizes, name length.
            let common = le(20, 2) + le(0, 2) + le(0, 2) + le(0, 2) + le(0x21, 2) + le(Int(crc), 4)
                + le(entry.bytes.count, 4) + le(entry.bytes.count, 4) + le(name.count, 2)
            out += le(0x0403_4B50, 4) + common + le(0, 2) + name + entry.bytes
            directory += le(0x0201_4B50, 4) + le(20, 2) + common + le(0, 2) + le(0, 2) + le(0, 2) + le(0, 2) + le(0, 4)
                + le(offset, 4) + name
        }
        let start = out.count
        out += directory
        out += le(0x0605_4B50, 4) + le(0, 2) + le(0, 2) + le(entries.count, 2) + le(entries.count, 2)
            + le(directory.count, 4) + le(start, 4) + le(0, 2)
        return out
    }

    /// `value`'s low `count` bytes, little-endian.
    private static func le(_ value: Int, _ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}
