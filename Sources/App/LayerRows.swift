import Compute
import Geometry
import Kernels
import Paint
import UI

/// The layer panel's rows from the document: each layer's name, eye, mode, opacity and a
/// thumbnail of the canvas over a light checker. A layer's thumbnail is made again only when
/// its pixels changed (`Layer.revision`), whichever layer is current and whether or not the
/// panel was shown meanwhile; the others keep theirs. A group holds no pixels: its thumbnail is what it holds
/// composed as an isolated group composes it (hidden layers left out, each one's mode and
/// opacity), as Krita shows a group's, from each layer's small average kept beside its
/// thumbnail, so that it costs a thumbnail's pixels per layer, never the canvas's.
struct LayerRows {
    /// Samples across and down each thumbnail pixel, averaged.
    static let samples = 6

    /// A layer's thumbnail, and its premultiplied average per thumbnail pixel (transparent
    /// around the canvas's picture), which group thumbnails are composed from.
    private struct Miniature {
        var thumbnail: [UInt32]
        var average: TextureStorage<UInt32>
        /// The layer it shows (weak: another layer may come at a dead one's address, and key),
        /// and at which revision.
        weak var layer: Layer?
        var revision = 0
    }

    /// By layer key, for the layers of the last rows made.
    private var kept: [Int: Miniature] = [:]
    /// The frame and the scale they were made at (another makes them all again).
    private var keptFor: (frame: Rect, scale: Double)?

    /// The document's rows: each layer's thumbnail made where it may have changed, each group's
    /// composed from what it holds.
    mutating func panel(_ d: Document, scale: Double, visibleRows: Int) -> LayerPanel {
        let keys = d.layers.map { ObjectIdentifier($0).hashValue }
        if let k = keptFor, k.frame != d.frame || k.scale != scale { kept = [:] }
        keptFor = (d.frame, scale)
        var made: [Int: Miniature] = [:]
        for (index, layer) in d.layers.enumerated() where !layer.isGroup {
            if let old = kept[keys[index]], old.layer === layer, old.revision == layer.revision {
                made[keys[index]] = old
            } else {
                made[keys[index]] = Self.miniature(layer, frame: d.frame, scale: scale)
            }
        }
        kept = made
        let rows = d.layers.enumerated().map { index, layer in
            let a = layer.attributes
            return LayerPanel.Row(key: keys[index], name: a.name, visible: a.visible, mode: a.mode == .normal ? "" : a.mode.name,
                                  opacity: Int((a.opacity * 100).rounded()),
                                  thumbnail: made[keys[index]]?.thumbnail ?? groupThumbnail(index, of: d, keys: keys, scale: scale),
                                  depth: a.depth, isolated: a.group.map { $0 == .isolated })
        }
        return LayerPanel(rows: rows, current: d.current, scale: scale, visibleRows: visibleRows)
    }

    /// What group `index` holds, composed from its layers' averages, as a thumbnail.
    private func groupThumbnail(_ index: Int, of d: Document, keys: [Int], scale: Double) -> [UInt32] {
        let (tw, th) = LayerPanel.thumbnailSize(scale: scale), whole = Rect(x: 0, y: 0, width: tw, height: th)
        let contents = d.contents(ofGroup: index) { i in
            guard let average = kept[keys[i]]?.average else { return (.group([]), .empty) }
            return (.texture(average.texture), whole)
        }
        let composed = TextureStorage<UInt32>(width: tw, height: th, filledWith: 0)
        for y in 0..<th {
            for o in contents { ComposeKernel.blend(o, row: y, xs: 0..<tw, onto: composed.texture.row(y)) }
        }
        let inside = Self.picture(canvas: d.frame.size, tw: tw, th: th)
        var thumb = [UInt32](repeating: Self.desk, count: tw * th)
        for ty in 0..<th {
            for tx in 0..<tw where inside(tx, ty) {
                let p = composed.texture[tx, ty]
                thumb[ty * tw + tx] = Self.shown(r: Int((p >> 16) & 0xFF), g: Int((p >> 8) & 0xFF), b: Int(p & 0xFF), a: Int(p >> 24),
                                                 count: 1, tx: tx, ty: ty)
            }
        }
        return thumb
    }

    /// Around the canvas's picture in a thumbnail (its shape is not the thumbnail's).
    static let desk: UInt32 = 0xFF50_5358

    /// How a thumbnail maps the canvas: canvas pixels per thumbnail pixel, and where the picture
    /// starts in it (centred).
    private static func fit(canvas: Size, tw: Int, th: Int) -> (step: Double, ox: Double, oy: Double) {
        let step = max(Double(canvas.width) / Double(tw), Double(canvas.height) / Double(th))
        return (step, (Double(tw) - Double(canvas.width) / step) / 2, (Double(th) - Double(canvas.height) / step) / 2)
    }

    /// Whether thumbnail pixel (tx, ty) shows the canvas (else the desk).
    private static func picture(canvas: Size, tw: Int, th: Int) -> (Int, Int) -> Bool {
        let (step, ox, oy) = fit(canvas: canvas, tw: tw, th: th)
        return { tx, ty in
            let x0 = (Double(tx) - ox) * step, y0 = (Double(ty) - oy) * step
            return x0 >= -0.5 && y0 >= -0.5 && x0 + step <= Double(canvas.width) + 0.5 && y0 + step <= Double(canvas.height) + 0.5
        }
    }

    /// A thumbnail pixel from premultiplied channel sums over `count` samples, over the checker.
    /// The average's coverage is taken to its square root: a line a tenth of a thumbnail pixel
    /// wide still shows, at a third of its colour.
    private static func shown(r: Int, g: Int, b: Int, a: Int, count: Int, tx: Int, ty: Int) -> UInt32 {
        let coverage = Double(a) / Double(count * 255)
        let boost = coverage > 0 ? coverage.squareRoot() / coverage : 0
        let inv = 255 - Int((coverage * boost * 255).rounded())
        let checker = (tx / 4 + ty / 4) % 2 == 0 ? 255 : 221
        func channel(_ c: Int) -> UInt32 {
            UInt32(min(255, Int((Double(c) / Double(count) * boost).rounded()) + (checker * inv + 127) / 255))
        }
        return 0xFF00_0000 | channel(r) << 16 | channel(g) << 8 | channel(b)
    }

    /// The layer within `frame` fitted into a thumbnail, centred, over a checker, the desk's grey
    /// around it; and its average.
    private static func miniature(_ layer: Layer, frame: Rect, scale: Double) -> Miniature {
        let canvas = frame.size
        let (tw, th) = LayerPanel.thumbnailSize(scale: scale)
        let (step, ox, oy) = fit(canvas: canvas, tw: tw, th: th), inside = picture(canvas: canvas, tw: tw, th: th)
        let n = samples, sub = step / Double(n)
        var thumb = [UInt32](repeating: desk, count: tw * th)
        let average = TextureStorage<UInt32>(width: tw, height: th, filledWith: 0)
        for ty in 0..<th {
            for tx in 0..<tw where inside(tx, ty) {
                let x0 = (Double(tx) - ox) * step, y0 = (Double(ty) - oy) * step
                var sum = (r: 0, g: 0, b: 0, a: 0)
                for j in 0..<n {
                    let cy = frame.minY + min(max(Int(y0 + (Double(j) + 0.5) * sub), 0), canvas.height - 1)
                    for i in 0..<n {
                        let p = layer.pixels[frame.minX + min(max(Int(x0 + (Double(i) + 0.5) * sub), 0), canvas.width - 1), cy]
                        sum.a += Int(p >> 24); sum.r += Int((p >> 16) & 0xFF); sum.g += Int((p >> 8) & 0xFF); sum.b += Int(p & 0xFF)
                    }
                }
                thumb[ty * tw + tx] = shown(r: sum.r, g: sum.g, b: sum.b, a: sum.a, count: n * n, tx: tx, ty: ty)
                func mean(_ c: Int) -> UInt32 { UInt32((c + n * n / 2) / (n * n)) }
                average.texture[tx, ty] = mean(sum.a) << 24 | mean(sum.r) << 16 | mean(sum.g) << 8 | mean(sum.b)
            }
        }
        return Miniature(thumbnail: thumb, average: average, layer: layer, revision: layer.revision)
    }
}
