// OpenRaster: layered pictures in .ora files (the freedesktop.org format, baseline 0.0.5), read
// and written. An .ora file is a zip: `mimetype` first and stored ("image/openraster"),
// `stack.xml` (the layers, top first), a PNG per layer under data/, `mergedimage.png` and
// `Thumbnails/thumbnail.png`.
//
// Start with `OpenRaster` below (read, write, writeNew) and the values it reads into,
// `ORADocument` and `ORALayer`; errors are `ORAError`, one line each. Reading is `ORAReader`
// (limits against zip bombs) over `StackReader` (stack.xml into layers, nested stacks flattened)
// over `XMLReader` (a small strict XML reader: why not Foundation's is said there). Writing is
// `ORAWriter` over `StackWriter` and `LayerPixels` (layers cropped, the thumbnail). `ZipCalls`
// holds every libzip call (CZip). No PNG is handled here: PNGFile encodes and decodes them, and
// Files writes the archive atomically.
import Files
import Geometry
import PNGFile

public enum OpenRaster {
    /// The most a read holds in memory by default, all told: the archive's entries inflated and
    /// the layers' decoded pixels (4 bytes each). 4 GiB.
    public static let defaultMaxTotalBytes = 1 << 32

    /// The most bytes of an .ora file `read(from:maxSide:maxTotalBytes:)` reads: 2 GiB.
    public static let maxFileBytes = 1 << 31

    /// Reads the .ora file at `path`, layers bottom first, nested stacks flattened and other
    /// elements (`<text>`, …) skipped, each such change said in `notes`.
    ///
    /// Refused, with the entry at fault where there is one: what is not a zip, has no mimetype
    /// `image/openraster` or no stack.xml; malformed XML; an image or a layer wider or taller
    /// than `maxSide`; a layer whose PNG is missing or cannot be decoded, or whose src leads out
    /// of the archive; an entry whose declared size is more than a layer of `maxSide` can need,
    /// or than it holds; more than `maxTotalBytes` in all. Sizes are checked before anything is
    /// inflated or decoded.
    public static func read(from path: String, maxSide: Int,
                            maxTotalBytes: Int = defaultMaxTotalBytes) throws(ORAError) -> ORADocument {
        let bytes: [UInt8]
        do { bytes = try FileBytes.read(path, limit: maxFileBytes) } catch { throw ORAError(error) }
        do { return try ORAReader.decode(bytes, maxSide: maxSide, maxTotalBytes: maxTotalBytes) } catch { throw error.of(path) }
    }

    /// Reads an .ora file's bytes (a file read already, a paste) as `read(from:maxSide:)` does;
    /// errors name `name` as their file.
    public static func decode(_ bytes: [UInt8], name: String, maxSide: Int,
                              maxTotalBytes: Int = defaultMaxTotalBytes) throws(ORAError) -> ORADocument {
        do { return try ORAReader.decode(bytes, maxSide: maxSide, maxTotalBytes: maxTotalBytes) } catch { throw error.of(name) }
    }

    /// The bytes of the .ora file of `document`, with `merged` (the picture composed, at the
    /// document's size) as its merged image and, scaled to fit 256x256, its thumbnail. Each
    /// layer's PNG is cropped to its pixels with any alpha (its x and y moved to match; a layer
    /// with none keeps one transparent pixel). `notes` are not written.
    public static func encode(_ document: ORADocument, merged: PNGImage) throws(ORAError) -> [UInt8] {
        try ORAWriter.encode(document, merged: merged)
    }

    /// Writes `document` to `path` atomically (a temporary file in the same folder, synced, then
    /// renamed over it): a reader sees the old file or the new, whole. See `encode(_:merged:)`.
    public static func write(_ document: ORADocument, merged: PNGImage, to path: String) throws(ORAError) {
        let bytes: [UInt8]
        do { bytes = try ORAWriter.encode(document, merged: merged) } catch { throw error.of(path) }
        do { try AtomicFile.write(bytes, to: path) } catch { throw ORAError(error) }
    }

    /// Like `write(_:merged:to:)` but never replaces a file: returns false, and writes nothing,
    /// when `path` exists (so a caller can pick another name without a race).
    public static func writeNew(_ document: ORADocument, merged: PNGImage, to path: String) throws(ORAError) -> Bool {
        let bytes: [UInt8]
        do { bytes = try ORAWriter.encode(document, merged: merged) } catch { throw error.of(path) }
        do { return try AtomicFile.writeNew(bytes, to: path) } catch { throw ORAError(error) }
    }
}
