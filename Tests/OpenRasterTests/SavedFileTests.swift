import Geometry
import OpenRaster
import PNGFile
import Testing
import TestSupport

/// A saved file as another program sees it: read back by Support/ora_tool.py, with Python's own
/// zipfile, ElementTree and a PNG decoder on zlib.
@Suite struct SavedFileTests {
    @Test func aSavedFileIsWhatTheSpecAsksForByAnIndependentReader() throws {
        let path = try ScratchFolder.make("ora") + "/picture.ora"
        let document = Samples.document()
        try OpenRaster.write(document, merged: Samples.merged, to: path)
        let file = try ORATool.inspect(path)

        // mimetype first, stored, with no extra field: "image/openraster" at byte 38, where
        // sniffers look for it.
        #expect(file.entries.map(\.name) == ["mimetype", "stack.xml", "data/layer0.png", "data/layer1.png", "data/layer2.png",
                                             "Thumbnails/thumbnail.png", "mergedimage.png"])
        #expect(file.entries[0] == ORATool.Inspection.Entry(name: "mimetype", compress: "stored", extra: 0, flags: 0))
        #expect(file.first.signature == "504b0304")
        #expect(file.first.name == "mimetype" && file.first.extra == 0 && file.first.data == "image/openraster")
        #expect(file.entries[1].compress == "deflated")

        // stack.xml: <image version w h + its other attributes>, one <stack>, layers top first.
        // ElementTree knows namespaces: it names a prefixed attribute by its namespace, and
        // keeps the declaration to itself.
        let image = file.stack
        #expect(image.tag == "image")
        #expect(image.attributes == [["version", "0.0.5"], ["w", "40"], ["h", "30"], ["xres", "300"], ["yres", "300"]])
        #expect(image.children.map(\.tag) == ["stack"])
        let layers = image.children[0].children
        #expect(layers.map(\.tag) == ["layer", "layer", "layer"])
        #expect(layers[0].attributes == [["name", "far away"], ["src", "data/layer2.png"], ["x", "100"], ["y", "200"], ["opacity", "0.0"],
                                         ["visibility", "visible"], ["composite-op", "svg:screen"], ["edit-locked", "true"]])
        #expect(layers[1].attributes == [["name", Samples.trickyName], ["src", "data/layer1.png"], ["x", "5"], ["y", "-3"], ["opacity", "0.35"],
                                         ["visibility", "hidden"], ["composite-op", "svg:multiply"],
                                         ["selected", "true"], ["{urn:example:quicksilver}note", "a<b>&\"c\" 'd' é"]])
        #expect(layers[2].attribute("name") == "Background")
        #expect(layers[2].attribute("src") == "data/layer0.png")

        // Each PNG decodes to the pixels written.
        for (index, layer) in document.layers.enumerated() {
            let png = try #require(file.pngs["data/layer\(index).png"])
            let image = try layer.image()
            expectSamePixels(png.pixels, image.pixels, width: image.width, "data/layer\(index).png")
            #expect((png.width, png.height) == (image.width, image.height))
        }
        let merged = try #require(file.pngs["mergedimage.png"])
        expectSamePixels(merged.pixels, Samples.merged.pixels, width: 40, "mergedimage.png")
        #expect((merged.width, merged.height) == (40, 30))
        // A picture that fits 256x256 is its own thumbnail.
        #expect(file.pngs["Thumbnails/thumbnail.png"]?.pixels == Samples.merged.pixels)
    }

    @Test func theThumbnailFits256AndAveragesByCoverage() throws {
        let folder = try ScratchFolder.make("ora")
        // A checkerboard of black and white: each 2x2 box of it is grey 128.
        let board = PNGImage(width: 512, height: 300, pixels: (0..<(512 * 300)).map { ($0 % 512 + $0 / 512) % 2 == 0 ? 0xFF00_0000 : 0xFFFF_FFFF })
        // Half of each box opaque blue, half transparent red: blue at half alpha, no red.
        let halves = PNGImage(width: 256, height: 512, pixels: (0..<(256 * 512)).map { $0 % 2 == 0 ? 0xFF00_00FF : 0x00FF_0000 })
        for (name, merged, size, pixel) in [("board", board, Size(width: 256, height: 150), UInt32(0xFF80_8080)),
                                            ("halves", halves, Size(width: 128, height: 256), UInt32(0x8000_00FF))] {
            let path = folder + "/\(name).ora"
            try OpenRaster.write(ORADocument(size: Size(width: merged.width, height: merged.height), layers: []), merged: merged, to: path)
            let thumbnail = try #require(try ORATool.inspect(path).pngs["Thumbnails/thumbnail.png"])
            #expect(Size(width: thumbnail.width, height: thumbnail.height) == size, "\(name)")
            #expect(thumbnail.pixels.allSatisfy { $0 == pixel }, "\(name): every pixel 0x\(String(pixel, radix: 16))")
        }
    }
}
