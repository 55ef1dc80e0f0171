import CPNG

/// PNG bytes to 0xAARRGGBB pixels, through libpng's simplified API: any PNG (grey, palette,
/// 16-bit, interlaced, with a gamma) comes out as 8-bit sRGB with straight alpha.
enum PNGDecoder {
    static func decode(_ bytes: [UInt8], maxSide: Int) throws(PNGError) -> PNGImage {
        guard !bytes.isEmpty else { throw PNGError(message: "empty: no picture data") }
        guard PNGImage.signature.starts(with: bytes.prefix(PNGImage.signature.count)) else {
            throw PNGError(message: "not a PNG file")
        }
        // libpng reads from the buffer until the image is finished: both halves inside.
        let result = bytes.withUnsafeBytes { raw -> Result<PNGImage, PNGError> in
            var image = png_image()
            image.version = UInt32(PNG_IMAGE_VERSION)
            guard png_image_begin_read_from_memory(&image, raw.baseAddress, raw.count) != 0 else {
                return .failure(PNGError(message: message(image)))
            }
            return Result { () throws(PNGError) in try finishRead(&image, maxSide: maxSide) }
        }
        return try result.get()
    }

    /// The second half of a read: checks the size, then decodes into 0xAARRGGBB pixels.
    private static func finishRead(_ image: inout png_image, maxSide: Int) throws(PNGError) -> PNGImage {
        let w = Int(image.width), h = Int(image.height)
        guard w <= maxSide, h <= maxSide else {
            png_image_free(&image)
            throw PNGError(message: "\(w)x\(h) pixels is larger than the \(maxSide)x\(maxSide) limit")
        }
        image.format = UInt32(PNG_FORMAT_BGRA)
        var pixels = [UInt32](repeating: 0, count: w * h)
        let ok = pixels.withUnsafeMutableBytes { buf in
            png_image_finish_read(&image, nil, buf.baseAddress, Int32(w * 4), nil)
        }
        guard ok != 0 else { throw PNGError(message: message(image)) }
        return PNGImage(width: w, height: h, pixels: pixels)
    }

    /// libpng's message, in plainer words where it has its own for a common case.
    private static func message(_ image: png_image) -> String {
        var m = image.message
        let text = withUnsafeBytes(of: &m) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        return text == "read beyond end of data" ? "cut off: the data ends before the picture does" : text
    }
}
