import Files
import Foundation
import Geometry
import OpenRaster
import PNGFile
import Testing
import TestSupport

@Suite struct RoundTripTests {
    @Test func whatIsWrittenIsReadBackWhole() throws {
        let path = try ScratchFolder.make("ora") + "/picture.ora"
        let document = Samples.document()
        try OpenRaster.write(document, merged: Samples.merged, to: path)
        let read = try OpenRaster.read(from: path, maxSide: 4096).decoded()
        #expect(read.notes == [])
        #expect(read.size == document.size)
        #expect(read.attributes == document.attributes)
        #expect(read.layers.map(\.name) == ["Background", Samples.trickyName, "far away"])
        for (got, expected) in zip(read.layers, document.layers) {
            #expect(got == expected, "layer \(expected.name)")
        }
        #expect(read == document)
    }

    @Test func layersAreCroppedToTheirPixelsAndKeepTheirPlace() throws {
        let path = try ScratchFolder.make("ora") + "/cropped.ora"
        let content = Rect(minX: 5, minY: 6, maxX: 9, maxY: 10)
        let document = ORADocument(size: Size(width: 20, height: 20), layers: [
            ORALayer(name: "dot", x: 3, y: 4, image: Samples.image(width: 20, height: 20, filling: content, with: 0x80FF0000)),
            ORALayer(name: "empty", x: -2, y: 7, image: Samples.image(width: 20, height: 20, filling: .empty, with: 0)),
            ORALayer(name: "nothing at all", x: 1, y: 1, image: PNGImage(width: 0, height: 0, pixels: [])),
        ])
        try OpenRaster.write(document, merged: Samples.image(width: 20, height: 20, seed: 4, opaque: true), to: path)
        let read = try OpenRaster.read(from: path, maxSide: 64).decoded().layers
        #expect(try read[0].image() == Samples.image(width: 4, height: 4, filling: Rect(x: 0, y: 0, width: 4, height: 4), with: 0x80FF0000))
        #expect((read[0].x, read[0].y) == (8, 10))
        for layer in read[1...] {
            #expect(try layer.image() == PNGImage(width: 1, height: 1, pixels: [0]), "\(layer.name): one transparent pixel")
        }
        #expect((read[1].x, read[1].y) == (-2, 7))
        #expect((read[2].x, read[2].y) == (1, 1))
    }

    @Test func aDocumentWithNoLayersIsWrittenAndRead() throws {
        let path = try ScratchFolder.make("ora") + "/blank.ora"
        let document = ORADocument(size: Size(width: 7, height: 5), layers: [])
        try OpenRaster.write(document, merged: Samples.image(width: 7, height: 5, seed: 5, opaque: true), to: path)
        #expect(try OpenRaster.read(from: path, maxSide: 64) == document)
    }

    @Test func writeReplacesAFileAndWriteNewNeverDoes() throws {
        let folder = try ScratchFolder.make("ora")
        let path = folder + "/picture.ora"
        let first = ORADocument(size: Size(width: 4, height: 4), layers: [ORALayer(name: "one", image: Samples.image(width: 4, height: 4, seed: 6))])
        var second = first
        second.layers[0].name = "two"
        let merged = Samples.image(width: 4, height: 4, seed: 7, opaque: true)

        #expect(try OpenRaster.writeNew(first, merged: merged, to: path))
        #expect(try OpenRaster.writeNew(second, merged: merged, to: path) == false)
        #expect(try OpenRaster.read(from: path, maxSide: 64).layers[0].name == "one")
        try OpenRaster.write(second, merged: merged, to: path)
        #expect(try OpenRaster.read(from: path, maxSide: 64).layers[0].name == "two")
        // Nothing left behind: no temporary files beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["picture.ora"])
    }

    @Test func writingSaysWhatIsWrongInOneLine() throws {
        let folder = try ScratchFolder.make("ora")
        let document = Samples.document()
        func failure(_ document: ORADocument, merged: PNGImage = Samples.merged, to path: String) -> String? {
            do { try OpenRaster.write(document, merged: merged, to: path) } catch { return error.description }
            return nil
        }
        #expect(failure(document, merged: Samples.image(width: 3, height: 3, seed: 1), to: folder + "/a.ora")
                == folder + "/a.ora: mergedimage.png: 3x3, not the image's 40x30")
        var badName = document
        badName.layers[2].extraAttributes.append(ORAAttribute("two words", "x"))
        #expect(failure(badName, to: folder + "/b.ora") == folder + "/b.ora: stack.xml: layer \"far away\": attribute name \"two words\" is not an XML name")
        var undeclared = document
        undeclared.layers[2].extraAttributes.append(ORAAttribute("nowhere:x", "1"))
        #expect(failure(undeclared, to: folder + "/p.ora")
                == folder + "/p.ora: stack.xml: layer \"far away\": attribute nowhere:x has a namespace prefix declared nowhere")
        var empty = document
        empty.size = Size(width: 0, height: 30)
        #expect(failure(empty, to: folder + "/c.ora") == folder + "/c.ora: cannot write a 0x30 image")
        let missing = folder + "/no such folder/d.ora"
        do {
            try OpenRaster.write(document, merged: Samples.merged, to: missing)
            Issue.record("wrote into a missing folder")
        } catch {
            #expect(error.kind == .notFound)
            #expect(error.description == missing + ": cannot create a file in \(folder)/no such folder: No such file or directory")
        }
        #expect(FileManager.default.fileExists(atPath: folder + "/a.ora") == false)
    }
}
