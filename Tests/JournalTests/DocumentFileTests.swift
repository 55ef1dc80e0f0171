import Files
import Geometry
import Journal
import Paint
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
