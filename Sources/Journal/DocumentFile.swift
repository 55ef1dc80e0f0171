import Files
import Geometry
import Kernels
import OpenRaster
import Paint
import PNGFile

/// Documents as files: OpenRaster (`.ora`: the layers, with names, visibility, opacity and
/// blend modes, groups as nested stacks, as MyPaint, Krita and GIMP read them) and the pictures a document can start
/// from (a PNG; a journal's snapshot from before layers). The one place a `DocumentImage` meets
/// a file, for the journal's snapshots, `window FILE.ora`, Ctrl+Shift+S and `render -o OUT.ora`.
///
/// The background is saved as the bottom layer, named "Background" and marked with the
/// attribute `quicksilver:background`, so other programs show the same picture; reading such a
/// layer back makes it the background again. A file from elsewhere is all layers, over white.
public enum DocumentFile {
    /// The attribute that marks the layer holding the background.
    static let backgroundAttribute = "quicksilver:background"
    /// The attribute that marks a group as one layer saved in pieces (its value: how many).
    static let piecesAttribute = "quicksilver:pieces"
    /// The XML namespace of this program's own attributes, declared on `<image>`.
    static let namespace = "urn:x-quicksilver:openraster", namespaceAttribute = "xmlns:quicksilver"
    /// The attribute OpenRaster programs mark the current layer with.
    static let selectedAttribute = "selected"
    /// MyPaint's namespace, and its attribute saying how its layers were composed: 1.0, on the
    /// stored sRGB values, as here. Without it MyPaint 2.0 composes in linear light (eotf 2.2)
    /// when set to (its 2.x mode, the default for its own new documents, or for every file by a
    /// preference), and a file from MyPaint says 2.2 already: up to 114 levels from what was shown
    /// here. With it MyPaint shows what this program showed.
    static let myPaintNamespace = "http://mypaint.org/ns/openraster", myPaintEOTF = "1.0"

    /// Reads an OpenRaster file, its nested stacks as groups. `notes` says what reading changed
    /// (long names cut, blend modes this program does not know), one line each.
    ///
    /// Within `DocumentLimits`: at most `maxLayers` layers besides the background, and their
    /// pictures, as their PNGs declare them, within `pixelBytes` decoded, which is checked
    /// before any is decoded. Then each layer is decoded, made premultiplied and cropped (to the
    /// canvas, and to its pixels with any alpha) in turn, its decoded picture let go before the
    /// next: opening holds the document's layers and one picture more at most.
    public static func read(ora path: String, maxSide: Int,
                            pixelBytes: Int = DocumentLimits.pixelBytes) throws(FileError) -> (image: DocumentImage, notes: [String]) {
        let doc: ORADocument
        do { doc = try OpenRaster.read(from: path, maxSide: maxSide) } catch { throw failure(error, path) }
        return try image(of: doc, path: path, pixelBytes: pixelBytes)
    }

    /// Reads an OpenRaster file's bytes as `read(ora:maxSide:pixelBytes:)` does a file; errors
    /// name `name` as their file.
    public static func decode(ora bytes: [UInt8], name: String, maxSide: Int,
                              pixelBytes: Int = DocumentLimits.pixelBytes) throws(FileError) -> (image: DocumentImage, notes: [String]) {
        let doc: ORADocument
        do { doc = try OpenRaster.decode(bytes, name: name, maxSide: maxSide) } catch { throw failure(error, name) }
        return try image(of: doc, path: name, pixelBytes: pixelBytes)
    }

    /// The document `doc` holds, its layers decoded one at a time.
    private static func image(of doc: ORADocument, path: String, pixelBytes: Int) throws(FileError) -> (image: DocumentImage, notes: [String]) {
        var layers = doc.layers
        var background = Color.white
        if let bottom = layers.first, bottom.depth == 0, !bottom.isStack,
           let value = bottom.extraAttributes.first(where: { $0.name == backgroundAttribute })?.value,
           let color = Color(hex: value) {
            // Its colour is all that is read of it: its picture is never decoded.
            background = color
            layers.removeFirst()
        }
        let pieced = piecedLayers(layers)
        let entries = layers.count - pieced.values.reduce(0) { $0 + $1.count }
        guard entries <= DocumentLimits.maxLayers else {
            throw FileError(path: path, message: "\(entries) layers, more than the \(DocumentLimits.maxLayers) a document may hold")
        }
        let declared = ORADocument(size: doc.size, layers: layers).pixelBytes
        guard declared <= pixelBytes else {
            throw FileError(path: path, message: "too large: its layers would take \(bytesText(declared)) decoded (width × height × 4 bytes each), "
                            + "more than the \(bytesText(pixelBytes)) a document may hold")
        }
        let inPieces = Set(pieced.values.joined())
        var current = 0
        var images: [DocumentImage.LayerImage] = []
        var pieces: [DocumentImage.LayerImage.Piece] = []
        images.reserveCapacity(entries)
        for i in layers.indices {
            let l = layers[i]
            // The PNG's bytes go with the layer read: only the pixels kept are held from here on.
            layers[i].pixels = .image(PNGImage(width: 0, height: 0, pixels: []))
            if l.extraAttributes.contains(where: { $0.name == selectedAttribute && $0.value == "true" }) { current = images.count }
            var attributes = LayerAttributes(name: l.name, visible: l.visible, opacity: l.opacity,
                                             mode: BlendMode(rawValue: l.compositeOp) ?? .normal,
                                             extra: l.extraAttributes.filter { $0.name != selectedAttribute && $0.name != piecesAttribute }
                                                 .map { ExtraAttribute(name: $0.name, value: $0.value) })
            attributes.depth = l.depth
            if pieced[i] != nil {
                images.append(DocumentImage.LayerImage(attributes: attributes, pieces: pieces))
                pieces = []
                continue
            }
            if case .stack(let isolated) = l.kind {
                attributes.group = isolated ? .isolated : .passThrough
                images.append(DocumentImage.LayerImage(attributes: attributes, pieces: []))
                continue
            }
            let picture: PNGImage
            do { picture = try l.image() } catch { throw failure(error, path) }
            // Read whole, wherever it lies (Krita writes layers at negative offsets): the layers
            // have no edges, and what reaches past the frame is saved back with its offset.
            let (bounds, pixels) = premultipliedAndCropped(picture, at: l.x, l.y, within: .plane)
            let piece = bounds.isEmpty ? [] : [DocumentImage.LayerImage.Piece(bounds: bounds, pixels: pixels)]
            if inPieces.contains(i) {
                pieces += piece
            } else {
                images.append(DocumentImage.LayerImage(attributes: attributes, pieces: piece))
            }
        }
        var notes = doc.notes
        let unknown = Set(layers.map(\.compositeOp).filter { BlendMode(rawValue: $0) == nil })
        if !unknown.isEmpty {
            notes.append("blend modes this program does not know, shown as normal: \(unknown.sorted().map(ORAText.quoted).joined(separator: ", "))")
        }
        var image = DocumentImage(size: doc.size, background: background, layers: images, current: current)
        image.extra = doc.attributes.map { ExtraAttribute(name: $0.name, value: $0.value) }
        return (image, notes.map { ORAText.oneLine($0, cut: 400) })
    }

    /// The groups among `layers` (bottom first) that are one layer saved in pieces, each with
    /// the indices of its pieces: marked so (`piecesAttribute`, the count), holding exactly that
    /// many plain layers that do not overlap. Anything else marked so (a file changed by another
    /// program) is read as the group it is.
    static func piecedLayers(_ layers: [ORALayer]) -> [Int: Range<Int>] {
        var out: [Int: Range<Int>] = [:]
        for (j, stack) in layers.enumerated() where stack.isStack {
            guard let value = stack.extraAttributes.first(where: { $0.name == piecesAttribute })?.value,
                  let count = Int(value), count >= 2, count <= j else { continue }
            let range = (j - count)..<j
            guard range.allSatisfy({ !layers[$0].isStack && layers[$0].depth == stack.depth + 1 }),
                  range.lowerBound == 0 || layers[range.lowerBound - 1].depth <= stack.depth else { continue }
            let rects = range.map { Rect(x: layers[$0].x, y: layers[$0].y, width: layers[$0].size.width, height: layers[$0].size.height) }
                .sorted { $0.minX < $1.minX }
            // Sorted by left edge, each needs comparing only with those starting before it ends.
            let overlap = rects.indices.contains { a in
                rects[(a + 1)...].prefix { $0.minX < rects[a].maxX }.contains { $0.intersects(rects[a]) }
            }
            if !overlap { out[j] = range }
        }
        return out
    }

    /// `picture`'s pixels, premultiplied, within `canvas` and the bounds of those with any
    /// alpha, and where they lie on the canvas (the picture's top-left corner at `x`, `y`). The
    /// picture's own array is kept when nothing is cut away: no second copy of a whole layer.
    static func premultipliedAndCropped(_ picture: consuming PNGImage, at x: Int, _ y: Int, within canvas: Rect) -> (Rect, [UInt32]) {
        let width = picture.width
        var pixels = picture.pixels
        picture = PNGImage(width: 0, height: 0, pixels: [])
        let visible = Rect(x: x, y: y, width: width, height: width == 0 ? 0 : pixels.count / width).intersection(canvas)
        var minX = Int.max, minY = Int.max, maxX = Int.min, maxY = Int.min
        pixels.withUnsafeMutableBufferPointer { p in
            for cy in visible.ys {
                let row = (cy - y) * width - x
                for cx in visible.xs {
                    guard p[row + cx] >> 24 != 0 else { p[row + cx] = 0; continue }
                    p[row + cx] = Premultiplied.from(straight: p[row + cx])
                    minX = min(minX, cx); maxX = max(maxX, cx + 1)
                    minY = min(minY, cy); maxY = max(maxY, cy + 1)
                }
            }
        }
        guard minX < maxX else { return (Rect(x: 0, y: 0, width: 0, height: 0), []) }
        let bounds = Rect(minX: minX, minY: minY, maxX: maxX, maxY: maxY)
        if bounds == Rect(x: x, y: y, width: width, height: pixels.count / width) { return (bounds, pixels) }
        var cropped = [UInt32](repeating: 0, count: bounds.area)
        cropped.withUnsafeMutableBufferPointer { out in
            pixels.withUnsafeBufferPointer { p in
                for cy in bounds.ys {
                    let from = (cy - y) * width + bounds.minX - x, to = (cy - bounds.minY) * bounds.width
                    for i in 0..<bounds.width { out[to + i] = p[from + i] }
                }
            }
        }
        return (bounds, cropped)
    }

    /// An amount of memory as a person reads it: "4 GiB", "1.5 GiB", "300 MiB", "12 bytes".
    static func bytesText(_ bytes: Int) -> String {
        let gib = 1 << 30, mib = 1 << 20
        if bytes == .max { return "more than \(Int.max) bytes" }
        func tenths(_ unit: Int) -> String { bytes % unit == 0 ? "\(bytes / unit)" : "\((Double(bytes) / Double(unit) * 10).rounded() / 10)" }
        if bytes >= gib { return tenths(gib) + " GiB" }
        if bytes >= mib { return tenths(mib) + " MiB" }
        return "\(bytes) bytes"
    }

    /// An OpenRaster error as a file's: `FILE: entry: what`, one line.
    private static func failure(_ error: ORAError, _ path: String) -> FileError {
        FileError(path: path, message: ORAError(entry: error.entry, message: error.message).description, kind: error.kind)
    }

    /// Writes `image` as OpenRaster, with `merged` (what it shows) as its merged image and
    /// thumbnail. `replacing` false never overwrites a file (returns false instead).
    ///
    /// The file's canvas is `canvas`, by default the image's frame: its size is the stack's, and
    /// each layer lies at its offset from the frame's corner, so MyPaint, Krita and GIMP open
    /// the frame as their canvas (paint beyond it at negative offsets or past its size, as Krita
    /// writes it). Opening the file again makes its corner 0,0.
    @discardableResult
    public static func write(_ image: DocumentImage, merged: PNGImage, to path: String, replacing: Bool = true,
                             canvas: Rect? = nil) throws(FileError) -> Bool {
        let canvas = canvas ?? image.frame, size = canvas.size
        let bg = UInt32(image.background.r) << 16 | UInt32(image.background.g) << 8 | UInt32(image.background.b)
        var layers = [ORALayer(name: "Background", x: 0, y: 0, opacity: 1, visible: true, compositeOp: BlendMode.normal.rawValue,
                               image: PNGImage(width: size.width, height: size.height, pixels: Array(repeating: 0xFF00_0000 | bg, count: size.area)),
                               extraAttributes: [ORAAttribute(backgroundAttribute, "\(image.background)")])]
        for (i, l) in image.layers.enumerated() {
            var extra = l.attributes.extra.map { ORAAttribute($0.name, $0.value) }
            if i == image.current { extra.append(ORAAttribute(selectedAttribute, "true")) }
            let (name, depth, mode) = (l.attributes.name, l.attributes.depth, l.attributes.mode.rawValue)
            if let group = l.attributes.group {
                layers.append(ORALayer.stack(name: name, isolated: group == .isolated, depth: depth, opacity: l.attributes.opacity,
                                             visible: l.attributes.visible, compositeOp: mode, extraAttributes: extra))
                continue
            }
            func picture(_ piece: DocumentImage.LayerImage.Piece?, name: String, depth: Int, opacity: Double, visible: Bool, mode: String,
                         extra: [ORAAttribute]) -> ORALayer {
                // An empty layer is still a layer: one transparent pixel holds its place.
                let png = piece.map { PNGImage(width: $0.bounds.width, height: $0.bounds.height, pixels: $0.pixels.map(Premultiplied.straight)) }
                var layer = ORALayer(name: name, x: piece.map { $0.bounds.minX - canvas.minX } ?? 0, y: piece.map { $0.bounds.minY - canvas.minY } ?? 0,
                                     opacity: opacity, visible: visible, compositeOp: mode,
                                     image: png ?? PNGImage(width: 1, height: 1, pixels: [0]), extraAttributes: extra)
                layer.depth = depth
                return layer
            }
            guard l.pieces.count > 1 else {
                layers.append(picture(l.pieces.first, name: name, depth: depth, opacity: l.attributes.opacity, visible: l.attributes.visible,
                                      mode: mode, extra: extra))
                continue
            }
            // Strokes too far apart for one picture: its pieces in an isolated group with the
            // layer's name, mode and opacity, which every OpenRaster program composes exactly as
            // the layer (the pieces, plain and opaque, do not overlap); marked, so that reading
            // it back makes it the one layer again.
            for (k, piece) in l.pieces.enumerated() {
                layers.append(picture(piece, name: "\(name) (piece \(k + 1) of \(l.pieces.count))", depth: depth + 1, opacity: 1, visible: true,
                                      mode: BlendMode.normal.rawValue, extra: []))
            }
            layers.append(ORALayer.stack(name: name, isolated: true, depth: depth, opacity: l.attributes.opacity, visible: l.attributes.visible,
                                         compositeOp: mode, extraAttributes: extra + [ORAAttribute(piecesAttribute, "\(l.pieces.count)")]))
        }
        var attributes = image.extra.map { ORAAttribute($0.name, $0.value) }
        if !attributes.contains(where: { $0.name == namespaceAttribute }) { attributes.append(ORAAttribute(namespaceAttribute, namespace)) }
        attributes = pinningMyPaintEOTF(attributes)
        let doc = ORADocument(size: size, layers: layers, attributes: attributes)
        do {
            if replacing {
                try OpenRaster.write(doc, merged: merged, to: path)
                return true
            }
            return try OpenRaster.writeNew(doc, merged: merged, to: path)
        } catch {
            throw failure(error, path)
        }
    }

    /// `attributes` of `<image>` with MyPaint's eotf set to 1.0, under whatever prefix the file
    /// binds MyPaint's namespace to (`mypaint`, declared, when none).
    static func pinningMyPaintEOTF(_ attributes: [ORAAttribute]) -> [ORAAttribute] {
        var attributes = attributes
        let prefix: String
        if let bound = attributes.first(where: { $0.name.hasPrefix("xmlns:") && $0.value == myPaintNamespace }) {
            prefix = String(bound.name.dropFirst(6))
        } else {
            // "mypaint" bound to something else (unlikely) leaves MyPaint's attribute to another prefix.
            prefix = attributes.contains(where: { $0.name == "xmlns:mypaint" }) ? "mypaint-ns" : "mypaint"
            attributes.append(ORAAttribute("xmlns:\(prefix)", myPaintNamespace))
        }
        if let i = attributes.firstIndex(where: { $0.name == "\(prefix):eotf" }) {
            attributes[i].value = myPaintEOTF
        } else {
            attributes.append(ORAAttribute("\(prefix):eotf", myPaintEOTF))
        }
        return attributes
    }

    /// Whether `path` names an OpenRaster file (by its name).
    public static func isOpenRaster(_ path: String) -> Bool { path.lowercased().hasSuffix(".ora") }
}
