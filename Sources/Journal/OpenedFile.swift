import Files
import Geometry
import Kernels
import Paint
import PNGFile

/// A picture a window opened (a PNG, or an OpenRaster document), with the bytes it was read
/// from: the session's journal names it at once and keeps a copy of the bytes beside itself,
/// written after its first lines (see `Journal`), so a stroke drawn right after opening a big
/// picture reaches the disk as fast as any other.
public struct OpenedFile: Sendable {
    /// Absolute.
    public var path: String
    public var bytes: [UInt8]
    /// `FileHash.of(bytes)`.
    public var hash: String

    public init(path: String, bytes: [UInt8]) {
        self.path = path
        self.bytes = bytes
        hash = FileHash.of(bytes)
    }

    /// Its extension as a copy of it is named ("png", "ora").
    var ext: String { DocumentFile.isOpenRaster(path) ? "ora" : "png" }

    /// The most bytes a picture's file is read up to.
    public static let byteLimit = 1 << 31

    /// Reads the picture at `path` (a stream such as /dev/stdin too), once, in two steps: its
    /// first bytes, which must start as a PNG does (or a zip, for an .ora), then the rest, up to
    /// `byteLimit`, and for a stream no further than a PNG of the size its header declares can
    /// need. So /dev/zero, or a link to it named like a picture, is refused after 33 bytes, not
    /// after 2 GiB.
    public static func read(_ path: String) throws(FileError) -> OpenedFile {
        let absolute = SessionStore.absolute(path)
        let file = try FileReader(path)
        let head = try file.read(upTo: 33)
        var limit = byteLimit
        if DocumentFile.isOpenRaster(path) {
            // A zip starts with an entry's header, or, empty, with its end: "PK" either way.
            guard head.isEmpty || head.starts(with: [0x50, 0x4B]) else {
                throw FileError(path: path, message: "not an OpenRaster file: not a zip archive", kind: .other)
            }
        } else if !head.isEmpty {
            guard PNGImage.signature.starts(with: head.prefix(PNGImage.signature.count)) else {
                throw FileError(path: path, message: "not a PNG file", kind: .other)
            }
            if file.isStream, let most = PNGImage.maxFileBytes(head: head) { limit = min(limit, most) }
        }
        return OpenedFile(path: absolute, bytes: try file.readAll(limit: limit))
    }

    /// The document it opens as: an OpenRaster document's layers, or a PNG as one layer at its
    /// own size over `background`; with what reading it changed. Decoded from `bytes`, the
    /// bytes hashed; errors name `readablePath`, where they were read (the copy beside a
    /// journal, say), or else `path`.
    public func document(background: Color, maxSide: Int, readablePath: String? = nil) throws(FileError) -> (image: DocumentImage, notes: [String]) {
        if DocumentFile.isOpenRaster(path) { return try DocumentFile.decode(ora: bytes, name: readablePath ?? path, maxSide: maxSide) }
        let picture: PNGImage
        guard !bytes.isEmpty else { throw FileError(path: path, message: "empty file: not a PNG picture", kind: .other) }
        do { picture = try PNGImage.decode(bytes, maxSide: maxSide) } catch {
            throw FileError(path: path, message: error.message, kind: .other)
        }
        return (DocumentImage.picture(picture.pixels, size: Size(width: picture.width, height: picture.height), background: background), [])
    }
}
