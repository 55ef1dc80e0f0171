import CDeflate
import CPNG

/// PNG bytes to 0xAARRGGBB pixels, through libpng's simplified API: any PNG (grey, palette,
/// 16-bit, interlaced, with a gamma) comes out as 8-bit sRGB with straight alpha.
///
/// One default is changed. libpng takes a 16-bit file that says nothing of its encoding to hold
/// linear light, and brightens it on the way to sRGB (grey 32896 came out 186, not 128).
/// Browsers and image viewers take such a file as sRGB, and so does this decoder: a 16-bit file
/// with no gAMA, sRGB or iCCP chunk is read with PNG_IMAGE_FLAG_16BIT_sRGB, under which libpng
/// converts each 16-bit sample v, alpha too, to round(v · 255 / 65535) and does nothing else (the
/// tests check every value). A file that says how it is encoded keeps libpng's handling: it
/// applies gAMA and sRGB, and for an ICC profile, which it does not read (unless it is sRGB's),
/// keeps the linear assumption: the profile may well say linear, and telling would take reading
/// it. 8-bit files are unchanged.
enum PNGDecoder {
    static func decode(_ bytes: [UInt8], maxSide: Int) throws(PNGError) -> PNGImage {
        let untagged16Bit = isUntagged16Bit(bytes)
        // libpng reads from the buffer until the image is finished: both halves inside.
        let result = bytes.withUnsafeBytes { raw -> Result<PNGImage, PNGError> in
            var image = png_image()
            do throws(PNGError) { try begin(&image, raw, maxSide: maxSide) } catch { return .failure(error) }
            if untagged16Bit { image.flags |= UInt32(PNG_IMAGE_FLAG_16BIT_sRGB) }
            return Result { () throws(PNGError) in try finishRead(&image, maxSide: maxSide) }
        }
        return try result.get()
    }

    /// The width and height `bytes` declare, once everything that can be checked before the
    /// pixels are allocated has been: what `decode` would refuse without decoding is refused.
    static func declaredSize(_ bytes: [UInt8], maxSide: Int) throws(PNGError) -> (width: Int, height: Int) {
        let result = bytes.withUnsafeBytes { raw -> Result<(width: Int, height: Int), PNGError> in
            var image = png_image()
            do throws(PNGError) { try begin(&image, raw, maxSide: maxSide) } catch { return .failure(error) }
            defer { png_image_free(&image) }
            return .success((Int(image.width), Int(image.height)))
        }
        return try result.get()
    }

    /// The first half of a read: every check that needs no pixels, then libpng reads the
    /// header. Throws what is wrong; on success `image` must be finished or freed.
    private static func begin(_ image: inout png_image, _ raw: UnsafeRawBufferPointer, maxSide: Int) throws(PNGError) {
        guard !raw.isEmpty else { throw PNGError(.empty, "empty: no picture data") }
        guard PNGImage.signature.starts(with: raw.prefix(PNGImage.signature.count)) else {
            throw PNGError(.notPNG, "not a PNG file")
        }
        let header = PNGHeader(raw)
        // Before libpng, which refuses a side over 1,000,000 pixels as "Invalid IHDR data": such
        // a picture is too large for the caller, not damaged.
        if let header, header.width > maxSide || header.height > maxSide { throw tooLarge(header.width, header.height, maxSide) }
        if let problem = PNGChunks.overlong(raw) { throw problem }
        if let problem = header?.dataShortfall(in: raw) { throw problem }
        image.version = UInt32(PNG_IMAGE_VERSION)
        guard png_image_begin_read_from_memory(&image, raw.baseAddress, raw.count) != 0 else { throw libpngError(image) }
        let w = Int(image.width), h = Int(image.height)
        guard w <= maxSide, h <= maxSide else {
            png_image_free(&image)
            throw tooLarge(w, h, maxSide)
        }
    }

    /// True for a 16-bit PNG with no gAMA, sRGB or iCCP chunk before its pixel data (where
    /// they must be). Reads the chunk headers only, each once.
    static func isUntagged16Bit(_ bytes: [UInt8]) -> Bool {
        // The IHDR chunk comes first; its bit depth is byte 24 of the file.
        guard bytes.count > 24, bytes[12..<16].elementsEqual("IHDR".utf8), bytes[24] == 16 else { return false }
        var at = 8
        while at + 8 <= bytes.count {
            let length = bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) }
            let type = bytes[(at + 4)..<(at + 8)]
            if type.elementsEqual("IDAT".utf8) { break }
            if ["gAMA", "sRGB", "iCCP"].contains(where: { type.elementsEqual($0.utf8) }) { return false }
            at += 12 + length
        }
        return true
    }

    private static func tooLarge(_ w: Int, _ h: Int, _ maxSide: Int) -> PNGError {
        PNGError(.tooLarge, "\(w)x\(h) pixels is larger than the \(maxSide)x\(maxSide) limit")
    }

    /// The second half of a read: decodes into 0xAARRGGBB pixels.
    private static func finishRead(_ image: inout png_image, maxSide: Int) throws(PNGError) -> PNGImage {
        let w = Int(image.width), h = Int(image.height)
        image.format = UInt32(PNG_FORMAT_BGRA)
        var pixels = [UInt32](repeating: 0, count: w * h)
        let ok = pixels.withUnsafeMutableBytes { buf in
            png_image_finish_read(&image, nil, buf.baseAddress, Int32(w * 4), nil)
        }
        guard ok != 0 else { throw libpngError(image) }
        return PNGImage(width: w, height: h, pixels: pixels)
    }

    /// What data that ends before the picture does is said to be.
    static let cutOff = "cut off: the data ends before the picture does"

    /// libpng's refusal: its message, in plainer words where it has its own for a common case.
    private static func libpngError(_ image: png_image) -> PNGError {
        var m = image.message
        let text = withUnsafeBytes(of: &m) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        // One line, whatever libpng put in it.
        let line = String(String.UnicodeScalarView(text.unicodeScalars.map { $0.properties.generalCategory == .control ? "?" : $0 }))
        return line == "read beyond end of data" ? PNGError(.truncated, cutOff) : PNGError(.corrupt, line)
    }
}
