import CDeflate

/// What a PNG's IHDR chunk declares, read before anything else: the size, and what a row of
/// pixels takes. From it, and the image data's length, a PNG whose data cannot hold the picture
/// it declares is refused before its pixels are allocated: deflate, the compression PNG uses,
/// gives at most 1032 bytes for each compressed byte (a 258-byte match in two bits), so a file
/// of 508 bytes that claims 16384x16384 pixels of RGBA, a gigabyte, claims what no deflate
/// stream of its length can hold. libpng would allocate the picture first and find that out
/// after.
struct PNGHeader: Equatable {
    var width: Int
    var height: Int
    var bitDepth: Int
    var colourType: Int
    var interlaced: Bool

    /// The most a deflate stream gives for each of its bytes.
    static let maxInflation = 1032
    /// Room beside that, for what a stream's first bytes give before the ratio can be reached.
    static let inflationSlack = 1 << 10

    /// The header of `bytes`, when the IHDR chunk comes first, whole, with a right CRC, and says
    /// no more than PNG allows (2^31 − 1 a side); nil otherwise (libpng then says what is wrong).
    init?(_ bytes: some RandomAccessCollection<UInt8>) {
        let bytes = Array(bytes.prefix(33))
        func number(at i: Int) -> Int { bytes[i..<(i + 4)].reduce(0) { $0 << 8 | Int($1) } }
        guard bytes.count >= 33, bytes.starts(with: PNGImage.signature), number(at: 8) == 13,
              bytes[12..<16].elementsEqual("IHDR".utf8) else { return nil }
        let crc = bytes.withUnsafeBytes { libdeflate_crc32(0, $0.baseAddress.map { $0 + 12 }, 17) }
        let (w, h) = (number(at: 16), number(at: 20))
        guard Int(crc) == number(at: 29), w <= Int(Int32.max), h <= Int(Int32.max) else { return nil }
        width = w; height = h
        bitDepth = Int(bytes[24]); colourType = Int(bytes[25]); interlaced = bytes[28] != 0
    }

    /// Bits per pixel, nil for a colour type PNG does not have (libpng refuses it).
    var bitsPerPixel: Int? {
        let channels: Int
        switch colourType {
        case 0, 3: channels = 1
        case 2: channels = 3
        case 4: channels = 2
        case 6: channels = 4
        default: return nil
        }
        return channels * bitDepth
    }

    /// The bytes the image data inflates to: each row of each pass (Adam7's seven when
    /// interlaced) with its filter byte. Int.max when it does not fit; nil for an unknown
    /// colour type.
    var rawBytes: Int? {
        guard let bits = bitsPerPixel else { return nil }
        // Adam7's passes: the first column and row of each, and their steps.
        let passes = interlaced ? [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
            : [(0, 0, 1, 1)]
        var total = 0
        for (x0, y0, dx, dy) in passes {
            let columns = width > x0 ? (width - x0 + dx - 1) / dx : 0
            let rows = height > y0 ? (height - y0 + dy - 1) / dy : 0
            guard columns > 0, rows > 0 else { continue }
            let (rowBits, o1) = columns.multipliedReportingOverflow(by: bits)
            let (pass, o2) = rows.multipliedReportingOverflow(by: 1 + (rowBits + 7) / 8)
            let (sum, o3) = total.addingReportingOverflow(pass)
            if o1 || o2 || o3 { return .max }
            total = sum
        }
        return total
    }

    /// The most bytes a PNG file of this size may need: its image data stored uncompressed at
    /// the deepest format (16-bit RGBA, interlaced), with deflate's and the chunks' framing, and
    /// 16 MiB for other chunks (a colour profile, text). What a stream is read up to.
    static func maxFileBytes(width: Int, height: Int) -> Int {
        let w = min(max(width, 0), 1 << 31), h = min(max(height, 0), 1 << 31)
        let (pixels, overflow) = (8 * w).multipliedReportingOverflow(by: h)
        guard !overflow, pixels < 1 << 50 else { return .max }
        let raw = pixels + 2 * h + 16
        return raw + raw / 64 + (16 << 20)
    }

    /// Why `png` (which starts with this header) is refused before its pixels are allocated:
    /// its image data (the IDAT chunks, as far as the bytes go) is too short for what the
    /// header declares, even inflated as far as deflate can. Nil when it may hold them.
    func dataShortfall(in png: UnsafeRawBufferPointer) -> PNGError? {
        guard let raw = rawBytes else { return nil }
        let data = Self.imageDataBytes(in: png)
        let (most, overflow) = data.multipliedReportingOverflow(by: Self.maxInflation)
        guard !overflow, most + Self.inflationSlack < raw else { return nil }
        return PNGError(.truncated, "cut off: its \(data) bytes of image data cannot hold the \(width)x\(height) pixels its header declares")
    }

    /// The bytes of image data in `png`: the IDAT chunks' lengths, each as far as the bytes go.
    static func imageDataBytes(in png: UnsafeRawBufferPointer) -> Int {
        var at = PNGImage.signature.count, total = 0
        while at + 8 <= png.count {
            let length = (0..<4).reduce(0) { $0 << 8 | Int(png[at + $1]) }
            let isData = png[at + 4] == 0x49 && png[at + 5] == 0x44 && png[at + 6] == 0x41 && png[at + 7] == 0x54   // IDAT
            let end = at + 8 + length
            if isData { total += min(length, png.count - at - 8) }
            if png[at + 4] == 0x49 && png[at + 5] == 0x45 && png[at + 6] == 0x4E && png[at + 7] == 0x44 { break }    // IEND
            guard end + 4 <= png.count else { break }
            at = end + 4
        }
        return total
    }
}
