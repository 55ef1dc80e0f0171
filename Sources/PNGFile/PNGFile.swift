// PNGFile: PNG encode and decode.
//
// Start with `PNGImage`: `encode()` / `write(to:)` (atomically, through Files' `AtomicFile`),
// `read(from:)` and `decode(_:)`. Reading takes the file's bytes through Files' `FileBytes`, then
// decodes them from memory as it does a pasted picture, through libpng's simplified API (any PNG;
// see `PNGDecoder`, which first refuses chunks that claim more bytes than the PNG has:
// `PNGChunks`); writing goes through `PNGEncoder`, filters chosen per row and libdeflate,
// much faster than libpng's defaults.
import Files

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

    /// The most bytes `read(from:maxSide:)` reads: 2 GiB, more than the PNG of 16384x16384
    /// 8-bit RGBA pixels stored uncompressed. A stream is read no further than the most a PNG of
    /// the size its header declares can need (`maxFileBytes(width:height:)`).
    public static let maxFileBytes = 1 << 31

    /// The most bytes a PNG of `width` x `height` pixels can need: its image data stored
    /// uncompressed at the deepest format (16-bit RGBA, interlaced), the framing, and 16 MiB for
    /// other chunks (a colour profile, text).
    public static func maxFileBytes(width: Int, height: Int) -> Int { PNGHeader.maxFileBytes(width: width, height: height) }

    /// The most bytes a PNG that starts with `head` can need, from the size its header declares
    /// (`maxFileBytes(width:height:)`); nil when `head` does not hold a whole, valid header (its
    /// first 33 bytes): how far a stream is worth reading.
    public static func maxFileBytes(head: [UInt8]) -> Int? {
        PNGHeader(head).map { PNGHeader.maxFileBytes(width: $0.width, height: $0.height) }
    }

    /// Reads a PNG file, converting it to 0xAARRGGBB pixels (see `PNGDecoder`). A picture wider
    /// or taller than `maxSide` is refused before its pixels are decoded. The file may be a
    /// stream (a FIFO, /dev/stdin fed by a pipe), read to its end; nothing waits for a writer
    /// that does not exist. What is not a PNG is refused after its first eight bytes, and a
    /// stream is read no further than a PNG of the size its header declares can need (so
    /// /dev/zero is refused at once). The error says what is wrong, not where: the caller names
    /// the file, as it knows it.
    public static func read(from path: String, maxSide: Int = .max) throws(PNGError) -> PNGImage {
        func failure(_ error: FileError) -> PNGError { PNGError(.file(error.kind), error.message) }
        let file: FileReader, head: [UInt8]
        do {
            file = try FileReader(path)
            if let size = file.regularFileSize, size > maxFileBytes { _ = try file.readAll(limit: maxFileBytes) }
            head = try file.read(upTo: 33)
        } catch { throw failure(error) }
        guard !head.isEmpty else { throw PNGError(.empty, "empty file: not a PNG picture") }
        guard signature.starts(with: head.prefix(signature.count)) else { throw PNGError(.notPNG, "not a PNG file") }
        var limit = maxFileBytes
        if file.isStream {
            // The header says how much more there can be. Without one, libpng says what is
            // wrong from the first bytes; one too large is refused from the header alone.
            guard let header = PNGHeader(head), header.width <= maxSide, header.height <= maxSide else {
                let start: [UInt8]
                do { start = try file.read(upTo: 1 << 16) } catch { throw failure(error) }
                return try PNGDecoder.decode(start, maxSide: maxSide)
            }
            limit = min(limit, PNGHeader.maxFileBytes(width: header.width, height: header.height))
        }
        let bytes: [UInt8]
        do { bytes = try file.readAll(limit: limit) } catch {
            guard error.kind == .tooLarge, limit < maxFileBytes, let header = PNGHeader(head) else { throw failure(error) }
            throw PNGError(.file(.tooLarge), "too large: more than the \(limit) bytes a \(header.width)x\(header.height) PNG can need")
        }
        return try PNGDecoder.decode(bytes, maxSide: maxSide)
    }

    /// The width and height a PNG's bytes declare, once all that can be checked before its
    /// pixels are allocated has been (its signature, header and chunks; its size against
    /// `maxSide`; that its image data can hold that many pixels): what `decode` would refuse
    /// without allocating is refused here, with the same error.
    public static func declaredSize(of bytes: [UInt8], maxSide: Int = .max) throws(PNGError) -> (width: Int, height: Int) {
        try PNGDecoder.declaredSize(bytes, maxSide: maxSide)
    }

    /// Decodes PNG bytes (a pasted picture), as `read(from:maxSide:)` does a file.
    public static func decode(_ bytes: [UInt8], maxSide: Int = .max) throws(PNGError) -> PNGImage {
        try PNGDecoder.decode(bytes, maxSide: maxSide)
    }
}

/// A PNG that could not be read, decoded or encoded: what is wrong, in one line that names no
/// file (the caller knows which it read and says so), and its kind, for callers that act on it.
public struct PNGError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What went wrong.
    public enum Kind: Sendable, Equatable {
        /// No bytes at all (an empty file, a FIFO nobody wrote to, an empty clipboard).
        case empty
        /// Bytes that do not start as a PNG does: another kind of file.
        case notPNG
        /// The data ends before the picture does (a download or copy cut short).
        case truncated
        /// Wider or taller than the caller's limit, found from the header before any pixel is
        /// decoded.
        case tooLarge
        /// libpng refused the data: a checksum, the header, the compressed pixels.
        case corrupt
        /// The file could not be read: missing, a folder, over `PNGImage.maxFileBytes`…
        case file(FileError.Kind)
        /// The image has no pixels, or not as many as its size says: nothing to encode.
        case invalidImage
        /// The encoder got no memory, or its compressor failed.
        case encodingFailed
    }

    public var kind: Kind
    public var message: String
    public var description: String { message }

    public init(_ kind: Kind, _ message: String) { self.kind = kind; self.message = message }
}
