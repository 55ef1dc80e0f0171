import Files
import Geometry
import Journal
import OpenRaster
import Paint
import PNGFile

/// OpenRaster documents from outside: the input is a stack.xml, put in a zip beside a mimetype
/// and two layer PNGs, data/a.png (4x4) and data/b.png (3x2), so that mutations reach the stack,
/// its names, attributes and sizes rather than the zip; when the input holds a line
/// `--png--`, what follows it is data/b.png instead, so that a PNG's declared size is fuzzed too.
/// The archive is read as the window opens a document (`DocumentFile.decode`), with a side
/// limit of 64 and a budget of 64 KiB of layers.
///
/// For every input: no crash or hang; a refusal names the file and is one line (no control or
/// line-breaking character, whatever the file said); a document read holds at most
/// `DocumentLimits.maxLayers` layers, names of at most `nameBytes` and attributes of at most
/// `attributeBytes`, each layer on the plane a document reaches (`Rect.plane`: layers reach past the canvas, kept whole) with a pixel for every place of its bounds,
/// within the budget, and notes of one line each; and what the reader gives, written again by
/// `OpenRaster.encode`, reads back with the same layers (names, opacity, visibility, composite-op,
/// attributes), or is refused in one line.
public enum ORATarget: FuzzTarget {
    public static let name = "ora"
    static let maxSide = 64
    static let budget = 64 << 10
    static let file = "fuzz.ora"
    static let separator: [UInt8] = Array("\n--png--\n".utf8)

    private static let smallPNGs: (a: [UInt8], b: [UInt8]) = {
        let a = PNGImage(width: 4, height: 4, pixels: (0..<16).map { 0x8000_0000 | UInt32($0) * 0x0011_0503 })
        let b = PNGImage(width: 3, height: 2, pixels: [0xFFFF_0000, 0, 0x40FF_FFFF, 0xFF00_FF00, 0x0100_0000, 0xFF00_00FF])
        return ((try? a.encode()) ?? [], (try? b.encode()) ?? [])
    }()

    /// The .ora file an input stands for.
    static func archive(of input: [UInt8]) -> [UInt8] {
        var stack = input, png = smallPNGs.b
        if let at = input.firstRange(of: separator) {
            stack = Array(input[..<at.lowerBound])
            png = Array(input[at.upperBound...])
        }
        return StoredZip.archive([("mimetype", Array("image/openraster".utf8)), ("stack.xml", stack),
                                  ("data/a.png", smallPNGs.a), ("data/b.png", png)])
    }

    /// What the window makes of an input: the names of the document's layers, bottom first, or
    /// the line that refuses it (for tests of the target itself).
    public static func opening(_ input: [UInt8]) -> Result<[String], FileError> {
        Result { () throws(FileError) in
            try DocumentFile.decode(ora: archive(of: input), name: file, maxSide: maxSide, pixelBytes: budget).image.layers.map(\.attributes.name)
        }
    }

    public static func check(_ bytes: UnsafeBufferPointer<UInt8>) -> FuzzFinding? {
        let archive = archive(of: Array(bytes))
        switch Result(catching: { () throws(FileError) in try DocumentFile.decode(ora: archive, name: file, maxSide: maxSide, pixelBytes: budget) }) {
        case .failure(let error):
            return refusal(error.description, "DocumentFile.decode")
        case .success(let (image, notes)):
            if let finding = opened(image, notes) { return finding }
        }
        return roundTrip(archive)
    }

    /// What the window would open, within the limits.
    private static func opened(_ image: DocumentImage, _ notes: [String]) -> FuzzFinding? {
        let plane = Rect.plane
        guard (0...maxSide).contains(image.size.width), (0...maxSide).contains(image.size.height) else {
            return FuzzFinding("a document of \(image.size.width)x\(image.size.height) read with the limit \(maxSide)")
        }
        guard image.layers.count <= DocumentLimits.maxLayers else { return FuzzFinding("\(image.layers.count) layers read") }
        var pixels = 0
        for (i, layer) in image.layers.enumerated() {
            guard layer.attributes.name.utf8.count <= DocumentLimits.nameBytes else {
                return FuzzFinding("layer \(i): a name of \(layer.attributes.name.utf8.count) bytes")
            }
            if let long = layer.attributes.extra.first(where: { $0.value.utf8.count > DocumentLimits.attributeBytes }) {
                return FuzzFinding("layer \(i): attribute \(long.name) of \(long.value.utf8.count) bytes kept")
            }
            for piece in layer.pieces {
                guard piece.pixels.count == piece.bounds.area, !piece.bounds.isEmpty, plane.intersection(piece.bounds) == piece.bounds else {
                    return FuzzFinding("layer \(i): \(piece.pixels.count) pixels in bounds \(piece.bounds), off the plane")
                }
                pixels += piece.pixels.count
            }
        }
        guard pixels * 4 <= budget else { return FuzzFinding("\(pixels * 4) bytes of layers kept, over the budget of \(budget)") }
        if let note = notes.first(where: { !isOneLine($0) }) { return FuzzFinding("a note of more than one line: \(note.debugDescription)") }
        return nil
    }

    /// The document as OpenRaster reads it, written again and read back.
    private static func roundTrip(_ archive: [UInt8]) -> FuzzFinding? {
        let read: ORADocument
        do throws(ORAError) { read = try OpenRaster.decode(archive, name: file, maxSide: maxSide).decoded() } catch {
            return refusal(named(error).description, "OpenRaster.decode")
        }
        let merged = PNGImage(width: read.size.width, height: read.size.height, pixels: Array(repeating: 0, count: read.size.area))
        let again: ORADocument
        do throws(ORAError) {
            again = try OpenRaster.decode(try OpenRaster.encode(read, merged: merged), name: file, maxSide: maxSide)
        } catch {
            return refusal(named(error).description, "writing what was read")
        }
        func kept(_ d: ORADocument) -> [String] {
            d.layers.map { "\($0.name.debugDescription) \($0.opacity) \($0.visible) \($0.compositeOp.debugDescription) \($0.extraAttributes)" }
        }
        guard kept(again) == kept(read) else {
            return FuzzFinding("written and read again, the layers differ: \(kept(read).prefix(4)) became \(kept(again).prefix(4))")
        }
        return nil
    }

    /// `error`, said of the file when it names none (a layer's, decoded after reading).
    private static func named(_ error: ORAError) -> ORAError {
        error.path.isEmpty ? ORAError(path: file, entry: error.entry, message: error.message, kind: error.kind) : error
    }

    private static func refusal(_ text: String, _ what: String) -> FuzzFinding? {
        guard text.hasPrefix(file + ": ") else { return FuzzFinding("\(what): a refusal that does not name the file: \(text.debugDescription)") }
        guard isOneLine(text) else { return FuzzFinding("\(what): a refusal of more than one line: \(text.debugDescription)") }
        return nil
    }

    /// No control, line-separating or bidi-overriding character.
    static func isOneLine(_ text: String) -> Bool {
        !text.unicodeScalars.contains { scalar in
            switch scalar.properties.generalCategory {
            case .control, .lineSeparator, .paragraphSeparator: true
            default: (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
            }
        }
    }
}
