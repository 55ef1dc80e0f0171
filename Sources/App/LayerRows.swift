import Compute
import Geometry
import Paint
import UI

/// The layer panel's rows from the document: each layer's name, eye, mode, opacity and a
/// thumbnail of the canvas over a light checker. A thumbnail is made again only for the
/// current layer (the one strokes, clears, pastes, merges and undo change) and for layers the
/// last panel did not show; the others keep theirs.
enum LayerRows {
    /// Samples across and down each thumbnail pixel, averaged.
    static let samples = 6

    static func panel(_ d: Document, scale: Double, visibleRows: Int, previous: LayerPanel?) -> LayerPanel {
        let kept = Dictionary((previous?.rows ?? []).map { ($0.key, $0.thumbnail) }, uniquingKeysWith: { a, _ in a })
        let rows = d.layers.enumerated().map { index, layer in
            let key = ObjectIdentifier(layer).hashValue
            let a = layer.attributes
            let thumbnail = index != d.current ? kept[key] : nil
            return LayerPanel.Row(key: key, name: a.name, visible: a.visible, mode: a.mode == .normal ? "" : a.mode.name,
                                  opacity: Int((a.opacity * 100).rounded()),
                                  thumbnail: thumbnail ?? self.thumbnail(layer, canvas: d.visibleSize, scale: scale),
                                  depth: a.depth, isolated: a.group.map { $0 == .isolated })
        }
        return LayerPanel(rows: rows, current: d.current, scale: scale, visibleRows: visibleRows)
    }

    /// The layer fitted into a thumbnail, centred, over a checker; the desk's grey around it.
    static func thumbnail(_ layer: Layer, canvas: Size, scale: Double) -> [UInt32] {
        let (tw, th) = LayerPanel.thumbnailSize(scale: scale)
        let step = max(Double(canvas.width) / Double(tw), Double(canvas.height) / Double(th))
        let (ox, oy) = ((Double(tw) - Double(canvas.width) / step) / 2, (Double(th) - Double(canvas.height) / step) / 2)
        let n = samples, sub = step / Double(n)
        var thumb = [UInt32](repeating: 0xFF50_5358, count: tw * th)
        for ty in 0..<th {
            for tx in 0..<tw {
                let x0 = (Double(tx) - ox) * step, y0 = (Double(ty) - oy) * step
                guard x0 >= -0.5, y0 >= -0.5, x0 + step <= Double(canvas.width) + 0.5, y0 + step <= Double(canvas.height) + 0.5 else { continue }
                var sum = (r: 0, g: 0, b: 0, a: 0)
                for j in 0..<n {
                    let cy = min(max(Int(y0 + (Double(j) + 0.5) * sub), 0), canvas.height - 1)
                    for i in 0..<n {
                        let p = layer.pixels[min(max(Int(x0 + (Double(i) + 0.5) * sub), 0), canvas.width - 1), cy]
                        sum.a += Int(p >> 24); sum.r += Int((p >> 16) & 0xFF); sum.g += Int((p >> 8) & 0xFF); sum.b += Int(p & 0xFF)
                    }
                }
                // The average's coverage taken to its square root: a line a tenth of a
                // thumbnail pixel wide still shows, at a third of its colour.
                let coverage = Double(sum.a) / Double(n * n * 255)
                let boost = coverage > 0 ? coverage.squareRoot() / coverage : 0
                let inv = 255 - Int((coverage * boost * 255).rounded())
                let checker = (tx / 4 + ty / 4) % 2 == 0 ? 255 : 221
                func channel(_ c: Int) -> UInt32 {
                    UInt32(min(255, Int((Double(c) / Double(n * n) * boost).rounded()) + (checker * inv + 127) / 255))
                }
                thumb[ty * tw + tx] = 0xFF00_0000 | channel(sum.r) << 16 | channel(sum.g) << 8 | channel(sum.b)
            }
        }
        return thumb
    }
}
