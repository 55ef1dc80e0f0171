import Compute
import Geometry

extension Session {
    /// Why the layers cannot be written as a file this program reads back (a saved .ora, a
    /// journal's snapshot), nil when they can: their pictures over `DocumentLimits.pixelBytes`,
    /// or, with layers whose strokes lie far apart saved in pieces (`DocumentImage.pieceRects`),
    /// more pictures than a document may hold. Checked before anything is copied, so a drawing
    /// too large for a file is said, never allocated.
    public func layersTooLargeToWrite() -> String? {
        var bytes = 0, pictures = 0
        for layer in document.layers {
            let pieces = DocumentImage.pieceRects(of: layer)
            bytes += pieces.reduce(0) { $0 + $1.area * 4 }
            // A layer in pieces is a group of them.
            pictures += pieces.count > 1 ? pieces.count + 1 : 1
        }
        guard bytes <= DocumentLimits.pixelBytes else {
            return "the layers hold \(bytes >> 20) MiB, more than a saved document may be (\(DocumentLimits.pixelBytes >> 20) MiB)"
        }
        guard pictures <= DocumentLimits.maxLayers else {
            return "the layers' paint lies so far apart that it takes \(pictures) pictures, more than the \(DocumentLimits.maxLayers) a document may hold"
        }
        return nil
    }

    /// The exact bounds of the ink: the pixels of the shown layers that are not transparent,
    /// inside the frame or not (empty when there are none). Call after `settle()`.
    public func inkBounds() -> Rect {
        var bounds = Rect.empty
        for layer in document.layers where layer.attributes.visible {
            for (key, tile) in layer.pixels.tiles where key.rect.intersection(bounds) != key.rect {
                let corner = key.rect
                for y in 0..<Tile.side {
                    let row = tile.texture.row(y)
                    guard let first = (0..<Tile.side).first(where: { row[$0] != 0 }) else { continue }
                    let last = (0..<Tile.side).last { row[$0] != 0 } ?? first
                    bounds = bounds.union(Rect(x: corner.minX + first, y: corner.minY + y, width: last - first + 1, height: 1))
                }
            }
        }
        return bounds
    }

    /// What the session shows of canvas `rect` (the frame: `snapshot()`), as a new image of its
    /// size, at 100 %: the same pixels wherever `rect` lies, outside the frame too. Call
    /// `settle()` first.
    public func snapshot(of rect: Rect) -> Snapshot {
        assert(!strokes.isEmbossing, "settle() first")
        damage = damage.union(strokes.showMyPaint(in: document))
        syncStack()
        let size = rect.size
        let pixels = strokes.withoutPrediction { () -> [UInt32] in
            damage = damage.union(strokes.redrawTail())
            // Composed straight into the array the picture keeps; the compose writes every
            // pixel of the region, so none is left uninitialised.
            return [UInt32](unsafeUninitializedCapacity: max(1, size.area)) { buffer, count in
                compose(Rect(size: size), into: Texture(base: buffer.baseAddress!, width: size.width, height: size.height, rowStride: size.width),
                        transform: ViewTransform(scale: 0, x: -rect.minX, y: -rect.minY))
                count = size.area
            }
        }
        return Snapshot(width: size.width, height: size.height, pixels: pixels)
    }
}
