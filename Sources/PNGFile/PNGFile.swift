// PNGFile: PNG encode and decode through libpng's simplified API.
//
// Start with `PNGImage`: `encode()` / `write(to:)` (atomically, through Files' `AtomicFile`) and
// `read(from:)`. Reading goes through libpng (any PNG), once `PNGChunks` has checked the lengths
// it would take on trust; writing through `PNGEncoder`, filters chosen per row and libdeflate,
// much faster than libpng's defaults.
import CPNG
import Files
#if canImport(Glibc)
import Glibc
#endif

/// A 32-bit image in the X visual's order: 0xAARRGGBB per pixel, B, G, R, A in memory.
public struct PNGImage: Equatable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    /// Row-major, `width * height` pixels.
    public var pixels: [UInt32]

    public init(width: Int, height: Int, pixels: [UInt32]) {
        precondition(pixels.count == width * height)
        self.width = width; self.height = height; self.pixels = pixels
    }

    public subscript(x: Int, y: Int) -> UInt32 { pixels[y * width + x] }

    /// The eight bytes every PNG file starts with.
    public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Its size and a checksum of its pixels (a failed comparison prints this, not every pixel).
    public var description: String {
        let sum = pixels.reduce(UInt64(1469598103934665603)) { ($0 ^ UInt64($1)) &* 1099511628211 }
        return "\(width)x\(height) image #\(String(sum, radix: 16))"
    }

    /// PNG bytes (8-bit RGBA, or RGB when every pixel is opaque). See `PNGEncoder`.
    public func encode() throws(PNGError) -> [UInt8] { try PNGEncoder.encode(self) }

    /// Encodes and writes atomically to `path`.
    public func write(to path: String) throws(FileError) {
        let bytes: [UInt8]
        do { bytes = try encode() } catch { throw FileError(path: path, message: error.message) }
        try AtomicFile.write(bytes, to: path)
    }

    /// Encodes and writes to `path` unless a file is there already (returns false then).
    public func writeNew(to path: String) throws(FileError) -> Bool {
        let bytes: [UInt8]
        do { bytes = try encode() } catch { throw FileError(path: path, message: error.message) }
        return try AtomicFile.writeNew(bytes, to: path)
    }

    /// Reads a PNG file, converting it to 0xAARRGGBB pixels. A picture wider or taller than
    /// `maxSide` is refused before its pixels are decoded. The error says what is wrong, not
    /// where: the caller names the file, as it knows it.
    public static func read(from path: String, maxSide: Int = .max) throws(PNGError) -> PNGImage {
        guard let file = fopen(path, "rb") else { throw PNGError(message: String(cString: strerror(errno))) }
        defer { fclose(file) }
        if let problem = PNGChunks.overlong(file) { throw PNGError(message: problem) }
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        guard png_image_begin_read_from_stdio(&image, file) != 0 else { throw PNGError(message: message(image)) }
        return try finishRead(&image, maxSide: maxSide)
    }

    /// Decodes PNG bytes (a pasted picture), as `read(from:maxSide:)` does a file.
    public static func decode(_ bytes: [UInt8], maxSide: Int = .max) throws(PNGError) -> PNGImage {
        // libpng reads from the buffer until the image is finished: both halves inside.
        let result = bytes.withUnsafeBytes { raw -> Result<PNGImage, PNGError> in
            if let problem = PNGChunks.overlong(raw) { return .failure(PNGError(message: problem)) }
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

    private static func message(_ image: png_image) -> String {
        var m = image.message
        return withUnsafeBytes(of: &m) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
    }
}

public struct PNGError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public var description: String { message }
}
