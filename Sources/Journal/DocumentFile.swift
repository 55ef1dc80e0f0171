import Files
import Geometry
import Kernels
import OpenRaster
import Paint
import PNGFile

/// Documents as files: OpenRaster (`.ora`: the layers, with names, visibility, opacity and
/// blend modes, as MyPaint, Krita and GIMP read them) and the pictures a document can start
/// from (a PNG; a journal's snapshot from before layers). The one place a `DocumentImage` meets
/// a file, for the journal's snapshots, `window FILE.ora`, Ctrl+Shift+S and `render -o OUT.ora`.
///
/// The background is saved as the bottom layer, named "Background" and marked with the
/// attribute `quicksilver:background`, so other programs show the same picture; reading such a
/// layer back makes it the background again. A file from elsewhere is all layers, over white.
public enum DocumentFile {
    /// The attribute that marks the layer holding the background.
    static let backgroundAttribute = "quicksilver:background"
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

    /// Reads an OpenRaster file. `notes` says what reading changed (nested stacks flattened).
    public static func read(ora path: String, maxSide: Int) throws(FileError) -> (image: DocumentImage, notes: [String]) {
        let doc: ORADocument
        do { doc = try OpenRaster.read(from: path, maxSide: maxSide) } catch { throw FileError(path: path, message: (error.entry.map { "\($0): " } ?? "") + error.message, kind: error.kind) }
        var layers = doc.layers
        var background = Color.white
        if let bottom = layers.first, let value = bottom.extraAttributes.first(where: { $0.name == backgroundAttribute })?.value,
           let color = Color(hex: value) {
            background = color
            layers.removeFirst()
        }
        var current = 0
        let images = layers.enumerated().map { i, l -> DocumentImage.LayerImage in
            if l.extraAttributes.contains(where: { $0.name == selectedAttribute && $0.value == "true" }) { current = i }
            let attributes = LayerAttributes(name: l.name, visible: l.visible, opacity: l.opacity,
                                             mode: BlendMode(rawValue: l.compositeOp) ?? .normal,
                                             extra: l.extraAttributes.filter { $0.name != selectedAttribute }.map { ExtraAttribute(name: $0.name, value: $0.value) })
            return DocumentImage.LayerImage(attributes: attributes, bounds: Rect(x: l.x, y: l.y, width: l.image.width, height: l.image.height),
                                            pixels: l.image.pixels.map(Premultiplied.from(straight:)))
        }
        var notes = doc.notes
        let unknown = Set(layers.map(\.compositeOp).filter { BlendMode(rawValue: $0) == nil })
        if !unknown.isEmpty { notes.append("blend modes this program does not know, shown as normal: \(unknown.sorted().joined(separator: ", "))") }
        var image = DocumentImage(size: doc.size, background: background, layers: images, current: current)
        image.extra = doc.attributes.map { ExtraAttribute(name: $0.name, value: $0.value) }
        return (image, notes)
    }

    /// Writes `image` as OpenRaster, with `merged` (what it shows) as its merged image and
    /// thumbnail. `replacing` false never overwrites a file (returns false instead).
    @discardableResult
    public static func write(_ image: DocumentImage, merged: PNGImage, to path: String, replacing: Bool = true) throws(FileError) -> Bool {
        let size = image.size
        let bg = UInt32(image.background.r) << 16 | UInt32(image.background.g) << 8 | UInt32(image.background.b)
        var layers = [ORALayer(name: "Background", x: 0, y: 0, opacity: 1, visible: true, compositeOp: BlendMode.normal.rawValue,
                               image: PNGImage(width: size.width, height: size.height, pixels: Array(repeating: 0xFF00_0000 | bg, count: size.area)),
                               extraAttributes: [ORAAttribute(backgroundAttribute, "\(image.background)")])]
        for (i, l) in image.layers.enumerated() {
            // An empty layer is still a layer: one transparent pixel holds its place.
            let empty = l.bounds.isEmpty
            let picture = empty ? PNGImage(width: 1, height: 1, pixels: [0])
                : PNGImage(width: l.bounds.width, height: l.bounds.height, pixels: l.pixels.map(Premultiplied.straight))
            var extra = l.attributes.extra.map { ORAAttribute($0.name, $0.value) }
            if i == image.current { extra.append(ORAAttribute(selectedAttribute, "true")) }
            layers.append(ORALayer(name: l.attributes.name, x: empty ? 0 : l.bounds.minX, y: empty ? 0 : l.bounds.minY,
                                   opacity: l.attributes.opacity, visible: l.attributes.visible, compositeOp: l.attributes.mode.rawValue,
                                   image: picture, extraAttributes: extra))
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
            throw FileError(path: path, message: (error.entry.map { "\($0): " } ?? "") + error.message, kind: error.kind)
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
