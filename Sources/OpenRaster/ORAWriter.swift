import Geometry
import PNGFile

/// A document into an OpenRaster archive's bytes, in the order readers look for them: mimetype
/// (first and stored, so that the file's type can be read at a fixed offset), stack.xml, the
/// layer PNGs, the thumbnail and the merged image. PNGs are stored: deflating them again gains
/// nothing.
enum ORAWriter {
    static let thumbnailSide = 256

    static func encode(_ document: ORADocument, merged: PNGImage) throws(ORAError) -> [UInt8] {
        let size = document.size
        guard size.width > 0, size.height > 0 else { throw ORAError(message: "cannot write a \(size) image") }
        guard merged.width == size.width, merged.height == size.height else {
            throw ORAError(entry: "mergedimage.png", message: "\(merged.width)x\(merged.height), not the image's \(size)")
        }
        var written: [StackWriter.Layer] = []
        var pngs: [(String, [UInt8])] = []
        for (index, layer) in document.layers.enumerated() {
            let src = "data/layer\(index).png"
            let crop = LayerPixels.cropped(layer.image)
            pngs.append((src, try png(crop.image, src)))
            written.append(StackWriter.Layer(layer: layer, src: src, x: layer.x + crop.x, y: layer.y + crop.y))
        }
        let zip = try ZipWriter()
        try zip.add("mimetype", Array(ORAReader.mimetype.utf8), deflate: false)
        try zip.add("stack.xml", try StackWriter.xml(size: size, attributes: document.attributes, layers: written.reversed()), deflate: true)
        for (src, bytes) in pngs { try zip.add(src, bytes, deflate: false) }
        let thumbnail = "Thumbnails/thumbnail.png"
        try zip.add(thumbnail, try png(LayerPixels.thumbnail(merged, side: thumbnailSide), thumbnail), deflate: false)
        try zip.add("mergedimage.png", try png(merged, "mergedimage.png"), deflate: false)
        return try zip.finish()
    }

    private static func png(_ image: PNGImage, _ entry: String) throws(ORAError) -> [UInt8] {
        do { return try image.encode() } catch { throw ORAError(entry: entry, message: error.message) }
    }
}
