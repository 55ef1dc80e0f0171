/// What libpng takes on trust before the image data: the length each chunk claims, which it
/// allocates and zeroes before reading the chunk (its own 8 MB limit is only a warning when
/// reading). A PNG of 40 bytes whose text chunk claims 2 GB cost 2 GB and seconds before libpng
/// found the data missing, so such a PNG is refused first.
enum PNGChunks {
    /// Why a PNG of `size` bytes is refused (`.truncated`): a chunk before the first IDAT that
    /// claims more bytes than the PNG has. Nil when there is none, and for what is no PNG (libpng
    /// says so). `read(offset)` gives the 8 bytes at `offset`, or nil past the end.
    static func overlong(size: Int, read: (Int) -> [UInt8]?) -> PNGError? {
        guard read(0) == PNGImage.signature else { return nil }
        var at = PNGImage.signature.count
        while let header = read(at) {
            let length = header.prefix(4).reduce(0) { $0 << 8 | Int($1) }
            if header.suffix(4).elementsEqual("IDAT".utf8) { return nil }
            // The chunk's type and CRC are 12 bytes beside its data.
            if length > size - at - 12 { return PNGError(.truncated, PNGDecoder.cutOff) }
            at += 12 + length
        }
        return nil
    }

    /// `overlong` for PNG bytes.
    static func overlong(_ bytes: UnsafeRawBufferPointer) -> PNGError? {
        overlong(size: bytes.count) { at in at + 8 <= bytes.count ? Array(bytes[at..<at + 8]) : nil }
    }

}
