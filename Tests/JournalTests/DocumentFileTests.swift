import Clock
import Compute
import Events
import Files
import Foundation
import Geometry
import Journal
import Kernels
import Paint
import OpenRaster
import PNGFile
import Testing
import TestSupport

/// What DocumentFile adds to an OpenRaster file for other programs.
@Suite struct DocumentFileTests {
    private func saved(_ extra: [ExtraAttribute]) throws -> [ExtraAttribute] {
        let folder = try ScratchFolder.make("document-file")
        var image = DocumentImage.picture([0xFF80_4020, 0x8000_00FF], size: Size(width: 2, height: 1), background: .white)
        image.extra = extra
        let path = folder + "/saved.ora"
        try DocumentFile.write(image, merged: PNGImage(width: 2, height: 1, pixels: [0xFF80_4020, 0xFF80_80FF]), to: path)
        return try DocumentFile.read(ora: path, maxSide: 64).image.extra
    }

    /// MyPaint 2.0 composes a file that does not say otherwise in linear light when it is in its
    /// 2.x mode, and a file it saved there says eotf 2.2: pinned to 1.0, MyPaint composes the
    /// stored values, as this program does, and shows the same pixels.
    @Test func savedFilesTellMyPaintToComposeTheStoredValues() throws {
        let fresh = try saved([])
        #expect(fresh.contains(ExtraAttribute(name: "xmlns:mypaint", value: "http://mypaint.org/ns/openraster")))
        #expect(fresh.contains(ExtraAttribute(name: "mypaint:eotf", value: "1.0")))

        let fromMyPaint = try saved([ExtraAttribute(name: "xmlns:mp", value: "http://mypaint.org/ns/openraster"),
                                     ExtraAttribute(name: "mp:eotf", value: "2.2"), ExtraAttribute(name: "mp:version", value: "2.0.1")])
        #expect(fromMyPaint.filter { $0.name.hasPrefix("mp:") || $0.name.hasPrefix("mypaint") || $0.name == "xmlns:mp" }
                == [ExtraAttribute(name: "xmlns:mp", value: "http://mypaint.org/ns/openraster"),
                    ExtraAttribute(name: "mp:eotf", value: "1.0"), ExtraAttribute(name: "mp:version", value: "2.0.1")])
    }

    /// The layers' pictures as their PNGs declare them are summed against the budget before any
    /// is decoded: one byte over it is refused, saying both; at it, the document opens.
    @Test func theLayersAreCheckedAgainstTheBudgetBeforeAnyIsDecoded() throws {
        let folder = try ScratchFolder.make("document-file")
        var image = DocumentImage.picture([0xFF80_4020, 0x8000_00FF], size: Size(width: 2, height: 1), background: .white)
        image.layers.append(image.layers[0])
        let path = folder + "/two.ora"
        try DocumentFile.write(image, merged: PNGImage(width: 2, height: 1, pixels: [0xFF80_4020, 0xFF80_80FF]), to: path)
        // Two layers of 2x1 pixels, 8 bytes each decoded; the background is a colour, not counted.
        #expect(throws: FileError(path: path, message: "too large: its layers would take 16 bytes decoded (width × height × 4 bytes each), "
                                  + "more than the 15 bytes a document may hold")) {
            try DocumentFile.read(ora: path, maxSide: 64, pixelBytes: 15)
        }
        let read = try DocumentFile.read(ora: path, maxSide: 64, pixelBytes: 16).image
        #expect(read.layers.count == 2 && read.background == .white)
        #expect(DocumentLimits.pixelBytes == 1 << 32, "the budget the docs state: 4 GiB")
    }
}

/// Groups saved as nested stacks and read back as they were: their names, isolation, modes,
/// opacity, visibility and attributes of other programs', what each holds, and the current
/// entry (a group may be current); a journal's snapshot is such a file, so it keeps them too.
@Suite struct GroupFileTests {
    @Test func groupsAreSavedAsNestedStacksAndReadBackWhole() throws {
        let size = Size(width: 3, height: 2)
        func layer(_ name: String, _ pixel: UInt32, depth: Int) -> DocumentImage.LayerImage {
            DocumentImage.LayerImage(attributes: LayerAttributes(name: name, opacity: 0.25, mode: .screen, depth: depth),
                                     bounds: Rect(x: 1, y: 0, width: 2, height: 2), pixels: Array(repeating: pixel, count: 4))
        }
        func group(_ name: String, _ isolation: Isolation, depth: Int, visible: Bool = true) -> DocumentImage.LayerImage {
            DocumentImage.LayerImage(attributes: LayerAttributes(name: name, visible: visible, opacity: 0.8, mode: .multiply,
                                                                 extra: [ExtraAttribute(name: "edit-locked", value: "true")],
                                                                 group: isolation, depth: depth),
                                     bounds: Rect(x: 0, y: 0, width: 0, height: 0), pixels: [])
        }
        let layers = [layer("bottom", 0xFF10_2030, depth: 0), layer("deep", 0x8040_0000, depth: 2), group("empty", .isolated, depth: 2),
                      group("inner", .isolated, depth: 1), layer("middle", 0xFF00_FF00, depth: 1), group("outer", .passThrough, depth: 0, visible: false),
                      layer("top", 0xFFFF_FFFF, depth: 0)]
        let image = DocumentImage(size: size, background: Color(r: 1, g: 2, b: 3), layers: layers, current: 3)
        let path = try ScratchFolder.make("groups") + "/groups.ora"
        try DocumentFile.write(image, merged: PNGImage(width: 3, height: 2, pixels: Array(repeating: 0xFF00_0000, count: 6)), to: path)
        let (read, notes) = try DocumentFile.read(ora: path, maxSide: 64)
        #expect(notes == [])
        #expect(read.current == 3 && read.background == image.background)
        #expect(read.layers.map(\.attributes) == image.layers.map(\.attributes))
        #expect(read.layers.map(\.pieces) == image.layers.map(\.pieces))
        // As other programs read it: stacks inside stacks, "isolate" or "auto".
        let xml = try unzipped(path, "stack.xml")
        #expect(xml.contains(#"<stack name="outer" opacity="0.8" visibility="hidden" composite-op="svg:multiply" isolation="auto" edit-locked="true">"#))
        #expect(xml.contains(#"<stack name="inner" opacity="0.8" visibility="visible" composite-op="svg:multiply" isolation="isolate" edit-locked="true" selected="true">"#))
        let tags = xml.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.hasPrefix("<stack") || $0.hasPrefix("</stack") || $0.hasPrefix("<layer") }
        #expect(tags.map { $0.split(separator: " ")[0] + ($0.contains("name=\"") ? " " + $0.split(separator: "\"")[1] : "") } == [
            "<stack>", "<layer top", "<stack outer", "<layer middle", "<stack inner", "<stack empty", "</stack>", "<layer deep", "</stack>",
            "</stack>", "<layer bottom", "<layer Background", "</stack>",
        ])
    }

    /// An entry of the archive, as unzip gives it.
    private func unzipped(_ path: String, _ entry: String) throws -> String {
        let unzip = Process(), pipe = Pipe()
        unzip.executableURL = URL(fileURLWithPath: "/usr/bin/unzip")
        unzip.arguments = ["-p", path, entry]
        unzip.standardOutput = pipe
        try unzip.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        unzip.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}

/// Layers reaching past the frame, at negative offsets too (as Krita writes them), are read
/// whole and saved back whole with their offsets; strokes far beyond the frame are saved on
/// their layers and read back.
@Suite struct LayersBeyondTheFrameFileTests {
    @Test func aLayerAtNegativeOffsetsIsOpenedAndSavedBackWhole() throws {
        let folder = try ScratchFolder.make("beyond")
        let path = folder + "/krita.ora", again = folder + "/again.ora"
        // A 24x16 document; its layer a 40x30 picture at (−10, −7): 10 px left, 7 up, and past
        // the right and bottom edges. Every pixel opaque and distinct, so that a lost one shows.
        let width = 40, height = 30
        let pixels = (0..<(width * height)).map { UInt32(0xFF00_0000) | UInt32($0 * 2_654_435) & 0x00FF_FFFF }
        let picture = PNGImage(width: width, height: height, pixels: pixels)
        let doc = ORADocument(size: Size(width: 24, height: 16), layers: [ORALayer(name: "Far", x: -10, y: -7, image: picture)])
        try OpenRaster.write(doc, merged: PNGImage(width: 24, height: 16, pixels: [UInt32](repeating: 0xFFFF_FFFF, count: 24 * 16)), to: path)

        let read = try DocumentFile.read(ora: path, maxSide: 64).image
        let layer = try #require(read.layers.first { $0.attributes.name == "Far" })
        #expect(layer.bounds == Rect(x: -10, y: -7, width: width, height: height), "read whole: \(layer.bounds)")
        #expect(layer.pieces.map(\.pixels) == [pixels], "opaque pixels premultiplied are themselves")
        #expect(read.frame == Rect(x: 0, y: 0, width: 24, height: 16), "the frame is the file's w×h")

        // Through a session (as the window opens it) and saved back.
        let session = Session(size: read.size, compute: ComputeContext(threads: 1))
        session.load(read)
        let image = session.documentImage()
        try DocumentFile.write(image, merged: PNGImage(width: 24, height: 16, pixels: session.snapshot().pixels), to: again)
        let saved = try OpenRaster.read(from: again, maxSide: 64).decoded()
        let far = try #require(saved.layers.first { $0.name == "Far" })
        #expect(far.x == -10 && far.y == -7, "saved at its offsets: \(far.x), \(far.y)")
        let back = try far.image()
        #expect(back.width == width && back.height == height && back.pixels == pixels, "every byte back at its place")
    }

    @Test func farStrokesAreSavedOnTheirLayersAndReadBack() throws {
        let folder = try ScratchFolder.make("beyond")
        let path = folder + "/far.ora"
        let session = Session(size: Size(width: 32, height: 32), compute: ComputeContext(threads: 1))
        let far = 1 << 20
        // The first layer's two strokes 2²⁰ px apart: saved in pieces.
        for (layer, x, y) in [(0, -far + 200, 10), (0, 3, 5), (1, 40 + far, -far)] {
            if layer > 0 { session.handle(.command(.layer(.new(name: "Second")))) }
            session.handle(.command(.brush(size: 6, color: Color(r: 200, g: 0, b: UInt8(layer * 100)))))
            session.handle(.pointerDown(StrokeSample(x: Double(x), y: Double(y), pressure: 0.5)))
            session.handle(.pointerUp(StrokeSample(x: Double(x + 30), y: Double(y + 5), pressure: 0.5)))
        }
        session.draw(FrameInfo(index: 0, timestamp: 0, targetTimestamp: 0), to: OffscreenPresenter(size: Size(width: 32, height: 32)))
        session.settle()
        let image = session.documentImage()
        try DocumentFile.write(image, merged: PNGImage(width: 32, height: 32, pixels: session.snapshot().pixels), to: path)
        let read = try DocumentFile.read(ora: path, maxSide: 64).image
        // Each painted pixel where it was (the file keeps the painted pixels' bounds, not the tiles').
        func painted(_ l: DocumentImage.LayerImage) -> [Int: [Int: UInt32]] {
            var out: [Int: [Int: UInt32]] = [:]
            for piece in l.pieces {
                let b = piece.bounds
                for y in b.ys {
                    for x in b.xs where piece.pixels[(y - b.minY) * b.width + x - b.minX] != 0 {
                        out[y, default: [:]][x] = piece.pixels[(y - b.minY) * b.width + x - b.minX]
                    }
                }
            }
            return out
        }
        #expect(read.layers.map(\.attributes) == image.layers.map(\.attributes), "two layers, as they were")
        for (i, l) in image.layers.enumerated() {
            let back = try #require(read.layers.first { $0.attributes.name == l.attributes.name }, "layer \(i)")
            #expect(!painted(l).isEmpty && painted(back) == painted(l), "layer \(i) at \(l.bounds), read back at \(back.bounds)")
        }
        #expect(image.layers[0].pieces.count == 2 && read.layers[0].pieces.count == 2, "the first layer in two pieces: \(image.layers.map { $0.pieces.map(\.bounds) })")
        #expect(image.layers[0].bounds.minX < -far + 201 && image.layers[1].bounds.minY < -far + 1)
    }

    /// A group marked as a layer in pieces that is not one any more (another program moved a
    /// piece onto another, or added one) is read as the group it is: nothing is merged wrongly.
    @Test func aMarkedGroupWhosePiecesOverlapOrMiscountIsReadAsAGroup() throws {
        let folder = try ScratchFolder.make("pieces")
        func piece(_ x: Int, _ colour: UInt32) -> ORALayer {
            var l = ORALayer(name: "piece", x: x, y: 0, image: PNGImage(width: 4, height: 4, pixels: Array(repeating: colour, count: 16)))
            l.depth = 1
            return l
        }
        let marked = [ORAAttribute("xmlns:quicksilver", "urn:x-quicksilver:openraster")]
        for (name, xs, count) in [("whole", [0, 20000], "2"), ("overlapping", [0, 2], "2"), ("miscounted", [0, 20000], "3")] {
            let path = folder + "/\(name).ora"
            let stack = ORALayer.stack(name: "Far", isolated: true, opacity: 0.5, extraAttributes: [ORAAttribute("quicksilver:pieces", count)])
            let doc = ORADocument(size: Size(width: 8, height: 8), layers: [piece(xs[0], 0xFF10_2030), piece(xs[1], 0xFF40_5060), stack],
                                  attributes: marked)
            try OpenRaster.write(doc, merged: PNGImage(width: 8, height: 8, pixels: Array(repeating: 0xFFFF_FFFF, count: 64)), to: path)
            let read = try DocumentFile.read(ora: path, maxSide: 64).image
            if name == "whole" {
                #expect(read.layers.count == 1 && read.layers[0].attributes.group == nil && read.layers[0].attributes.opacity == 0.5,
                        "one layer: \(read.layers.map(\.attributes))")
                #expect(read.layers[0][1, 1] == 0xFF10_2030 && read.layers[0][20001, 3] == 0xFF40_5060)
                #expect(!read.layers[0].attributes.extra.contains { $0.name == "quicksilver:pieces" }, "the mark is not kept as an attribute")
            } else {
                #expect(read.layers.count == 3 && read.layers[2].attributes.group == .isolated, "\(name): a group of two")
            }
        }
    }
}
