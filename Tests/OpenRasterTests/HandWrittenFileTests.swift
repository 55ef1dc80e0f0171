import Geometry
import OpenRaster
import PNGFile
import Testing
import TestSupport

/// .ora files built by Python's zipfile the way other painting programs write them, read here.
@Suite struct HandWrittenFileTests {
    private func png(_ name: String, _ image: PNGImage) -> ORATool.Entry {
        .png(name, width: image.width, height: image.height, pixels: image.pixels)
    }

    /// Krita's way: a DOCTYPE, xres and yres, a named root stack, attributes of its own on the
    /// layers, a group (a nested stack) with an offset, opacity, a blend mode and isolation, and a
    /// hidden layer in it. The group is an entry above what it holds, its offset added to theirs.
    @Test func aKritaStyleFileWithAGroupIsReadAsAGroup() throws {
        let folder = try ScratchFolder.make("ora")
        let path = folder + "/krita.ora"
        let ink = Samples.image(width: 6, height: 5, seed: 11), shade = Samples.image(width: 4, height: 4, seed: 12)
        let sketch = Samples.image(width: 3, height: 7, seed: 13), background = Samples.image(width: 32, height: 24, seed: 14, opaque: true)
        let stack = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE image>
            <image xres="300" mime="image/openraster" w="32" yres="300" h="24" name="Unnamed" version="0.0.3">
             <stack name="root" x="0" opacity="1" visibility="visible" y="0">
              <layer x="1" opacity="1" visibility="visible" y="2" name="Ink" composite-op="svg:src-over" src="data/layer4.png" selected="true"/>
              <stack x="10" opacity="0.5" visibility="visible" y="5" name="Group" composite-op="svg:multiply" isolation="isolate">
               <layer x="2" opacity="0.8" visibility="visible" y="3" name="Shade" composite-op="svg:overlay" src="data/layer3.png" selected="false"/>
               <layer x="0" opacity="1" visibility="hidden" y="0" name="Sketch" composite-op="svg:src-over" src="data/layer2.png" selected="false"/>
              </stack>
              <layer x="0" opacity="1" visibility="visible" y="0" name="Background" composite-op="svg:src-over" src="data/layer1.png" selected="false"/>
             </stack>
            </image>
            """
        try ORATool.make([.mimetype, .text("stack.xml", stack), png("data/layer1.png", background), png("data/layer2.png", sketch),
                          png("data/layer3.png", shade), png("data/layer4.png", ink),
                          png("mergedimage.png", background), png("Thumbnails/thumbnail.png", background)], at: path)

        let read = try OpenRaster.read(from: path, maxSide: 1024).decoded()
        #expect(read.size == Size(width: 32, height: 24))
        #expect(read.attributes == [ORAAttribute("xres", "300"), ORAAttribute("mime", "image/openraster"), ORAAttribute("yres", "300"),
                                    ORAAttribute("name", "Unnamed")])
        let selected = { (value: String) in [ORAAttribute("selected", value)] }
        func inGroup(_ layer: ORALayer) -> ORALayer {
            var layer = layer
            layer.depth = 1
            return layer
        }
        #expect(read.layers == [
            ORALayer(name: "Background", image: background, extraAttributes: selected("false")),
            inGroup(ORALayer(name: "Sketch", x: 10, y: 5, visible: false, image: sketch, extraAttributes: selected("false"))),
            inGroup(ORALayer(name: "Shade", x: 12, y: 8, opacity: 0.8, compositeOp: "svg:overlay", image: shade, extraAttributes: selected("false"))),
            ORALayer.stack(name: "Group", isolated: true, opacity: 0.5, compositeOp: "svg:multiply"),
            ORALayer(name: "Ink", x: 1, y: 2, image: ink, extraAttributes: selected("true")),
        ])
        #expect(read.notes == [])

        // Open → save keeps Krita's attributes, the layers' and the image's.
        let saved = folder + "/saved.ora"
        try OpenRaster.write(read, merged: background, to: saved)
        let image = try ORATool.inspect(saved).stack
        #expect(image.attributes == [["version", "0.0.5"], ["w", "32"], ["h", "24"], ["xres", "300"], ["mime", "image/openraster"],
                                     ["yres", "300"], ["name", "Unnamed"]])
        let layers = image.children[0].children
        #expect(layers.map { $0.attribute("name") } == ["Ink", "Group", "Background"])
        #expect(layers.map { $0.attribute("selected") } == ["true", nil, "false"])
        #expect(layers[1].tag == "stack" && layers[1].attribute("isolation") == "isolate" && layers[1].attribute("opacity") == "0.5"
                && layers[1].attribute("composite-op") == "svg:multiply")
        #expect(layers[1].children.map { $0.attribute("name") } == ["Shade", "Sketch"])
        #expect(try OpenRaster.read(from: saved, maxSide: 1024).decoded().layers == read.layers)
    }

    /// MyPaint's way: single quotes, its own attribute naming another entry, a layer off the
    /// top-left corner, a src with "./", a hidden group (declaring a namespace one of its layers
    /// uses), and a <text> element, which is skipped.
    @Test func aMyPaintStyleFileIsRead() throws {
        let folder = try ScratchFolder.make("ora")
        let path = folder + "/mypaint.ora"
        let paint = Samples.image(width: 9, height: 4, seed: 21), note = Samples.image(width: 2, height: 2, seed: 22)
        let stack = """
            <?xml version='1.0' encoding='UTF-8'?>
            <!-- written by hand, as MyPaint writes -->
            <image w='20' h='10' version='0.0.5'>
              <stack>
                <text x='1' y='1' name='Title'>Hello &amp; welcome</text>
                <stack name='Hidden group' visibility='hidden' x='-1' y='-1' xmlns:mp='urn:example:mypaint'>
                  <layer name='Note' src='data/note.png' x='3' y='3' mp:locked='true'/>
                </stack>
                <layer name='Paint' src='./data/paint.png' x='-4' y='7' opacity='0.75' composite-op='svg:screen'
                       mypaint_strokemap_v2='data/paint_strokemap.dat' />
              </stack>
            </image>
            """
        try ORATool.make([.mimetype, .text("stack.xml", stack), png("data/paint.png", paint), png("data/note.png", note),
                          png("mergedimage.png", Samples.image(width: 20, height: 10, seed: 23, opaque: true))], at: path)

        let read = try OpenRaster.read(from: path, maxSide: 1024).decoded()
        #expect(read.size == Size(width: 20, height: 10))
        var held = ORALayer(name: "Note", x: 2, y: 2, image: note, extraAttributes: [ORAAttribute("mp:locked", "true")])
        held.depth = 1
        #expect(read.layers == [
            ORALayer(name: "Paint", x: -4, y: 7, opacity: 0.75, compositeOp: "svg:screen", image: paint,
                     extraAttributes: [ORAAttribute("mypaint_strokemap_v2", "data/paint_strokemap.dat")]),
            held,
            ORALayer.stack(name: "Hidden group", isolated: false, visible: false, extraAttributes: [ORAAttribute("xmlns:mp", "urn:example:mypaint")]),
        ])
        #expect(read.attributes == [ORAAttribute("xmlns:mp", "urn:example:mypaint")])
        #expect(read.notes == ["skipped 1 <text> element (not raster layers)"])

        // Saved again, the namespace is declared where a reader that knows them looks.
        let saved = folder + "/saved.ora"
        try OpenRaster.write(read, merged: Samples.image(width: 20, height: 10, seed: 24, opaque: true), to: saved)
        let layers = try ORATool.inspect(saved).stack.children[0].children
        #expect(layers[0].children.map { $0.attribute("{urn:example:mypaint}locked") } == ["true"])
    }

    /// MyPaint 2.0's way (what `lib.document` saves): its namespace on <image>, a settings file,
    /// a strokemap per layer and its background saved twice, as a layer and as a tile. The
    /// attributes naming those entries are not kept, for the entries are not: MyPaint refuses a
    /// file whose attribute names an entry it lacks ("There is no item named
    /// 'data/layer-00-strokemap.dat' in the archive"), which open → save wrote before.
    @Test func attributesNamingOtherEntriesAreNotKept() throws {
        let folder = try ScratchFolder.make("ora")
        let path = folder + "/mypaint2.ora"
        let paint = Samples.image(width: 5, height: 4, seed: 41), paper = Samples.image(width: 16, height: 8, seed: 42, opaque: true)
        let stack = """
            <image xmlns:mypaint="http://mypaint.org/ns/openraster" w="16" h="8" mypaint:eotf="1.0" \
            mypaint:json-settings="data/mypaint-settings.json" mypaint:version="2.0.1" version="0.0.5">
              <stack opacity="1.0" visibility="visible" composite-op="mypaint:spectral-wgm" isolation="isolate">
                <layer name="Paint" x="3" y="2" opacity="1.0" selected="true" visibility="visible" composite-op="svg:multiply" \
            src="data/layer-00.png" mypaint:strokemap="data/layer-00-strokemap.dat" mypaint:note="data/none.dat" />
                <layer name="background" x="0" y="0" opacity="1.0" visibility="visible" composite-op="svg:src-over" \
            src="data/background-01.png" mypaint:background-tile="./data/background-01-tile.png" />
              </stack>
            </image>
            """
        try ORATool.make([.mimetype, .text("stack.xml", stack), png("data/layer-00.png", paint), .bytes("data/layer-00-strokemap.dat", [0]),
                          png("data/background-01.png", paper), png("data/background-01-tile.png", paper),
                          .text("data/mypaint-settings.json", "{}"), png("mergedimage.png", paper)], at: path)

        let read = try OpenRaster.read(from: path, maxSide: 64).decoded()
        // An attribute naming an entry the archive does not hold is not a reference to drop.
        #expect(read.layers.map(\.extraAttributes) == [[], [ORAAttribute("selected", "true"), ORAAttribute("mypaint:note", "data/none.dat")]])
        #expect(read.layers.map(\.name) == ["background", "Paint"])
        #expect(read.attributes == [ORAAttribute("xmlns:mypaint", "http://mypaint.org/ns/openraster"), ORAAttribute("mypaint:eotf", "1.0"),
                                    ORAAttribute("mypaint:version", "2.0.1")])
        #expect(read.notes == ["not kept, with the other files of the archive they name: mypaint:background-tile, mypaint:strokemap, mypaint:json-settings"])

        // Saved again: no attribute names an entry the saved archive lacks.
        let saved = folder + "/saved.ora"
        try OpenRaster.write(read, merged: paper, to: saved)
        let inspection = try ORATool.inspect(saved)
        let names = Set(inspection.entries.map(\.name))
        let values = ([inspection.stack] + inspection.stack.children[0].children).flatMap { $0.attributes.map { $0[1] } }
        #expect(values.filter { $0.hasPrefix("data/") && !names.contains($0) } == ["data/none.dat"])
    }

    /// The mimetype need not be first, nor stored, for a file to be read; a newline after it is
    /// forgiven; an entry the stack does not name is ignored.
    @Test func aLooselyPackedFileIsStillRead() throws {
        let path = try ScratchFolder.make("ora") + "/loose.ora"
        let layer = Samples.image(width: 2, height: 3, seed: 31)
        try ORATool.make([.text("stack.xml", "<image w='2' h='3'><stack><layer src='l.png' name='only'/></stack></image>"),
                          .text("mimetype", "image/openraster\n"), png("l.png", layer), .text("README", "unrelated")], at: path)
        let read = try OpenRaster.read(from: path, maxSide: 16).decoded()
        #expect(read.layers == [ORALayer(name: "only", image: layer)])
        #expect(read.notes == [])
    }

    /// The root stack's offset, opacity and visibility apply to every layer too.
    @Test func theRootStacksPlacementAppliesToEveryLayer() throws {
        let path = try ScratchFolder.make("ora") + "/root.ora"
        let layer = Samples.image(width: 2, height: 2, seed: 32)
        let stack = "<image w='8' h='8'><stack x='3' y='-2' opacity='0.5' visibility='hidden'>"
            + "<layer src='a.png' name='a' x='1' y='1' opacity='0.5'/><layer src='a.png' name='b'/></stack></image>"
        try ORATool.make([.mimetype, .text("stack.xml", stack), png("a.png", layer)], at: path)
        let read = try OpenRaster.read(from: path, maxSide: 16).decoded()
        #expect(read.layers == [ORALayer(name: "b", x: 3, y: -2, opacity: 0.5, visible: false, image: layer),
                                ORALayer(name: "a", x: 4, y: -1, opacity: 0.25, visible: false, image: layer)])
        #expect(read.notes == [])
    }
}
