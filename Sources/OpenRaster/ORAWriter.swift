import Dispatch
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
        // Every picture is cropped and encoded side by side (deflate runs on one core per
        // picture): the layers, the thumbnail and the merged image; the archive holds them in
        // order whichever finishes first.
        let layers = document.layers
        let thumbnail = "Thumbnails/thumbnail.png"
        var encoded = [Result<(bytes: [UInt8], x: Int, y: Int), ORAError>?](repeating: nil, count: layers.count + 2)
        encoded.withUnsafeMutableBufferPointer { results in
            // Each iteration writes its own index only.
            nonisolated(unsafe) let out = results
            DispatchQueue.concurrentPerform(iterations: layers.count + 2) { index in
                out[index] = Result { () throws(ORAError) in
                    switch index {
                    case layers.count: return (try png(LayerPixels.thumbnail(merged, side: thumbnailSide), thumbnail), 0, 0)
                    case layers.count + 1: return (try png(merged, "mergedimage.png"), 0, 0)
                    case _ where layers[index].isStack: return ([], 0, 0)
                    default:
                        let image: PNGImage
                        // A layer read from a file and not decoded yet is decoded here, as it is written.
                        image = try layers[index].image()
                        let crop = LayerPixels.cropped(image)
                        return (try png(crop.image, "data/layer\(index).png"), crop.x, crop.y)
                    }
                }
            }
        }
        var written: [StackWriter.Layer] = []
        var pictures: [(name: String, bytes: [UInt8])] = []
        for (index, result) in encoded.enumerated() {
            guard let e = try result?.get() else { continue }
            if index < layers.count, layers[index].isStack {
                written.append(StackWriter.Layer(layer: layers[index], src: "", x: 0, y: 0))
            } else if index < layers.count {
                let src = "data/layer\(index).png"
                written.append(StackWriter.Layer(layer: layers[index], src: src, x: layers[index].x + e.x, y: layers[index].y + e.y))
                pictures.append((src, e.bytes))
            } else {
                pictures.append((index == layers.count ? thumbnail : "mergedimage.png", e.bytes))
            }
        }
        let zip = try ZipWriter()
        try zip.add("mimetype", Array(ORAReader.mimetype.utf8), deflate: false)
        try zip.add("stack.xml", try StackWriter.xml(size: size, attributes: document.attributes, layers: written.reversed()), deflate: true)
        for p in pictures { try zip.add(p.name, p.bytes, deflate: false) }
        return try zip.finish()
    }

    private static func png(_ image: PNGImage, _ entry: String) throws(ORAError) -> [UInt8] {
        do { return try image.encode() } catch { throw ORAError(entry: entry, message: error.message) }
    }
}
