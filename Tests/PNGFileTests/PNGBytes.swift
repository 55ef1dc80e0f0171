import CDeflate

/// PNG files built byte by byte, to hand the decoder exactly the chunks and samples a test names.
enum PNGBytes {
    /// Colour types: grey 0, RGB 2, palette 3, grey + alpha 4, RGBA 6.
    static func file(width: Int, height: Int, depth: UInt8, colourType: UInt8, rows: [[UInt8]], chunks: [[UInt8]] = []) -> [UInt8] {
        var header = bigEndian(UInt32(width)) + bigEndian(UInt32(height))
        header += [depth, colourType, 0, 0, 0]
        let scanlines = rows.flatMap { [UInt8(0)] + $0 }   // filter None
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunks.joined()
            + chunk("IDAT", zlib(scanlines)) + chunk("IEND", [])
    }

    /// A 16-bit file of one row per element of `rows`, each sample written big-endian.
    static func file16(colourType: UInt8, channels: Int, rows: [[UInt16]], chunks: [[UInt8]] = []) -> [UInt8] {
        file(width: rows[0].count / channels, height: rows.count, depth: 16, colourType: colourType,
             rows: rows.map { $0.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xff)] } }, chunks: chunks)
    }

    /// A chunk: length, type, data, CRC-32 of type and data.
    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        let crc = body.withUnsafeBytes { libdeflate_crc32(0, $0.baseAddress, $0.count) }
        return bigEndian(UInt32(data.count)) + body + bigEndian(crc)
    }

    /// gAMA: the file's gamma times 100000 (45455 is sRGB's 1/2.2, 100000 linear).
    static func gamma(_ value: UInt32) -> [UInt8] { chunk("gAMA", bigEndian(value)) }

    static func bigEndian(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xff), UInt8(v >> 8 & 0xff), UInt8(v & 0xff)] }

    static func zlib(_ data: [UInt8]) -> [UInt8] {
        let compressor = libdeflate_alloc_compressor(6)
        defer { libdeflate_free_compressor(compressor) }
        let bound = libdeflate_zlib_compress_bound(compressor, data.count)
        var out = [UInt8](repeating: 0, count: bound)
        let size = data.withUnsafeBytes { d in out.withUnsafeMutableBytes { o in
            libdeflate_zlib_compress(compressor, d.baseAddress, d.count, o.baseAddress, o.count)
        } }
        return Array(out.prefix(size))
    }
}
