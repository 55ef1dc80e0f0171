import Geometry
import PNGFile

/// An OpenRaster archive's bytes into a document: the mimetype checked, stack.xml read
/// (`StackReader`), each layer's PNG inflated and checked as far as it can be without decoding
/// it (its declared size, and that its data can hold that), within the limits a zip bomb would
/// break. No layer is decoded here: `ORALayer.image()` does that, one layer at a time.
enum ORAReader {
    static let mimetype = "image/openraster"

    /// The most bytes one layer's PNG may inflate to when no side exceeds `maxSide`: a 16-bit RGBA
    /// PNG stored with no compression, a filter byte a row, with room for zlib's and chunks' framing.
    static func maxLayerBytes(maxSide: Int) -> Int {
        let side = min(max(maxSide, 1), 1 << 20)
        let raw = 8 * (side + 1) * side
        return raw + raw / 32 + (1 << 20)
    }

    static func decode(_ bytes: [UInt8], maxSide: Int, maxTotalBytes: Int) throws(ORAError) -> ORADocument {
        guard !bytes.isEmpty else { throw ORAError(message: "empty file: not an OpenRaster file") }
        return try ZipReader.open(bytes) { zip throws(ORAError) in
            guard let mimetypeEntry = zip.entry(named: "mimetype") else {
                throw ORAError(message: "not an OpenRaster file: no mimetype entry")
            }
            let found = try zip.read(mimetypeEntry, limit: 256)
            // Exactly the type, as the spec says; a newline after it is forgiven.
            let text = String(decoding: found.reversed().drop { $0 == 0x0A || $0 == 0x0D }.reversed(), as: UTF8.self)
            guard text == mimetype else {
                throw ORAError(entry: "mimetype", message: "\(ORAText.quoted(text)), not \(mimetype): not an OpenRaster file")
            }
            guard let stackEntry = zip.entry(named: "stack.xml") else { throw ORAError(message: "no stack.xml in the archive") }
            var budget = Budget(limit: maxTotalBytes)
            try budget.take(stackEntry.size, for: stackEntry.name)
            let stack = try StackReader.read(try zip.read(stackEntry, limit: DocumentLimits.stackXMLBytes), maxSide: maxSide)
            var layers: [ORALayer] = []
            var dropped: [String] = []
            // Each entry is inflated once, however many layers name it.
            var pngs: [String: ORALayer.Pixels] = [:]
            for layer in stack.layers.reversed() {
                if layer.kind != .layer {
                    layers.append(ORALayer.stack(name: layer.name, isolated: layer.kind == .stack(isolated: true), depth: layer.depth,
                                                 opacity: layer.opacity, visible: layer.visible, compositeOp: layer.compositeOp,
                                                 extraAttributes: keptAttributes(layer.extraAttributes, in: zip, dropped: &dropped)))
                    continue
                }
                guard let entry = zip.entry(named: layer.src) else {
                    throw ORAError(entry: layer.src, message: "named by layer \(ORAText.quoted(layer.name)) but not in the archive")
                }
                let pixels: ORALayer.Pixels
                if let known = pngs[entry.name] {
                    pixels = known
                } else {
                    try budget.take(entry.size, for: entry.name)
                    let png = try zip.read(entry, limit: maxLayerBytes(maxSide: maxSide))
                    let size: (width: Int, height: Int)
                    do throws(PNGError) { size = try PNGImage.declaredSize(of: png, maxSide: maxSide) } catch {
                        throw ORAError(entry: entry.name, message: error.message)
                    }
                    pixels = .png(png, width: size.width, height: size.height, entry: entry.name)
                    pngs[entry.name] = pixels
                }
                var read = ORALayer(name: layer.name, x: layer.x, y: layer.y, opacity: layer.opacity, visible: layer.visible,
                                    compositeOp: layer.compositeOp, pixels: pixels,
                                    extraAttributes: keptAttributes(layer.extraAttributes, in: zip, dropped: &dropped))
                read.depth = layer.depth
                layers.append(read)
            }
            let attributes = keptAttributes(stack.attributes, in: zip, dropped: &dropped)
            var notes = stack.notes
            if !dropped.isEmpty {
                var seen: Set<String> = []
                notes.append("not kept, with the other files of the archive they name: "
                             + dropped.filter { seen.insert($0).inserted }.map { ORAText.oneLine($0, cut: 64) }.joined(separator: ", "))
            }
            return ORADocument(size: stack.size, layers: layers, attributes: attributes, notes: notes)
        }
    }

    /// `attributes` without those whose value names another entry of the archive (MyPaint's
    /// strokemaps, background tile and settings): only the layers' PNGs are carried over, and a
    /// saved file whose attribute names an entry it lacks is one MyPaint refuses to open.
    /// The names of the attributes left out are added to `dropped`.
    static func keptAttributes(_ attributes: [ORAAttribute], in zip: ZipReader, dropped: inout [String]) -> [ORAAttribute] {
        attributes.filter { attribute in
            let value = attribute.value.hasPrefix("./") ? String(attribute.value.dropFirst(2)) : attribute.value
            guard !attribute.name.hasPrefix("xmlns:"), !value.isEmpty, zip.entry(named: value) != nil else { return true }
            dropped.append(attribute.name)
            return false
        }
    }

    /// The product of the factors, or Int.max when it overflows.
    static func product(_ factors: Int...) -> Int {
        factors.reduce(1) { product, factor in
            let (result, overflow) = product.multipliedReportingOverflow(by: factor)
            return overflow ? .max : result
        }
    }

    /// What a read may hold in memory, all told: the entries inflated (stack.xml and the
    /// layers' PNGs, each once).
    struct Budget {
        let limit: Int
        var used = 0

        mutating func take(_ bytes: Int, for entry: String) throws(ORAError) {
            let (sum, overflow) = used.addingReportingOverflow(bytes)
            used = overflow ? .max : sum
            guard used <= limit else {
                throw ORAError(entry: entry, message: "too large: the archive's entries would inflate to \(used) bytes in all, more than the \(limit)-byte limit")
            }
        }
    }
}
