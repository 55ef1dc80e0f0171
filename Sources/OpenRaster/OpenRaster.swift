// OpenRaster: layered pictures in .ora files (the freedesktop.org format, baseline 0.0.5), read
// and written. An .ora file is a zip: `mimetype` first and stored ("image/openraster"),
// `stack.xml` (the layers, top first), a PNG per layer under data/, `mergedimage.png` and
// `Thumbnails/thumbnail.png`.
//
// Start with `OpenRaster` below (read, write, writeNew) and the values it reads into,
// `ORADocument` and `ORALayer`; errors are `ORAError`, one line each. Reading is `ORAReader`
// (limits against zip bombs) over `StackReader` (stack.xml into layers, a nested stack an entry of its own)
// over `XMLReader` (a small strict XML reader: why not Foundation's is said there). Writing is
// `ORAWriter` over `StackWriter` and `LayerPixels` (layers cropped, the thumbnail). `ZipCalls`
// holds every libzip call (CZip). No PNG is handled here: PNGFile encodes and decodes them, and
// Files writes the archive atomically.
import Files
import Geometry
import PNGFile

public enum OpenRaster {
    /// The most a read holds in memory by default, all told, besides the file: the archive's
    /// entries inflated (stack.xml and the layers' PNGs, which are not decoded).
    /// `DocumentLimits.fileBytes`, 2 GiB.
    public static let defaultMaxTotalBytes = DocumentLimits.fileBytes

    /// The most bytes of an .ora file `read(from:maxSide:maxTotalBytes:)` reads:
    /// `DocumentLimits.fileBytes`, 2 GiB.
    public static let maxFileBytes = DocumentLimits.fileBytes

    /// The most layers read: a document's (`DocumentLimits.maxLayers`) and the background this
    /// program saves beneath them. stack.xml with more is refused at the first one too many.
    public static let maxLayers = DocumentLimits.maxLayers + 1

    /// Reads the .ora file at `path`, layers bottom first (a nested stack an entry above what it
    /// holds), other elements (`<text>`, …) skipped, each such change said in `notes`. The layers' PNGs are
    /// checked but not decoded: `ORALayer.image()` decodes each, so a caller can take them one
    /// at a time, and check `ORADocument.pixelBytes` against its budget before it does.
    ///
    /// Refused, with the entry at fault where there is one: what is not a regular file (checked
    /// before reading), not a zip (after its first bytes), a zip cut short or with two entries of
    /// one name, has no mimetype `image/openraster` or no stack.xml; malformed XML; more layers
    /// than `maxLayers`; an image or a layer wider or taller than `maxSide`; a layer whose PNG is
    /// missing, is no PNG, or whose data cannot hold the pixels it declares, or whose src leads
    /// out of the archive; an entry whose declared size is more than a layer of `maxSide` can
    /// need, more than its compressed bytes can inflate to, or than it holds; more than
    /// `maxTotalBytes` of entries in all. Sizes are checked before anything is inflated.
    /// Names longer than `DocumentLimits.nameBytes` are cut, and attributes longer than
    /// `DocumentLimits.attributeBytes` left out, each said in `notes`.
    public static func read(from path: String, maxSide: Int,
                            maxTotalBytes: Int = defaultMaxTotalBytes) throws(ORAError) -> ORADocument {
        let file: FileReader
        do { file = try FileReader(path) } catch { throw ORAError(error) }
        guard !file.isStream else {
            throw ORAError(path: path, message: "\(FileBytes.streamKind(path) ?? "a stream"), not a regular file: an OpenRaster document is read from a file",
                           kind: .notRegularFile)
        }
        // A zip starts with an entry's header ("PK\u{3}\u{4}") or, empty, with its end
        // ("PK\u{5}\u{6}"): anything else is refused before the rest is read.
        let head: [UInt8]
        do { head = try file.read(upTo: 2) } catch { throw ORAError(error) }
        if !head.isEmpty && head != [0x50, 0x4B] { throw ORAError(path: path, message: "not an OpenRaster file: not a zip archive") }
        let bytes: [UInt8]
        do { bytes = try file.readAll(limit: maxFileBytes) } catch { throw ORAError(error) }
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
