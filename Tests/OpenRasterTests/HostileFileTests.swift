import Foundation
import Geometry
import OpenRaster
import PNGFile
import Testing
import TestSupport

/// Files a hostile but fair tester made: small ones that claim much (layers, pixels, a name of
/// megabytes), values that would break an error into lines, and damage once said misleadingly.
/// Each is refused in one line that says what is wrong, or read within `DocumentLimits`.
@Suite struct HostileFileTests {
    private let folder: String
    init() throws { folder = try ScratchFolder.make("ora-hostile") }

    private static let layer = Samples.image(width: 4, height: 4, seed: 51)
    private static let layerPNG = ORATool.Entry.png("data/a.png", width: 4, height: 4, pixels: layer.pixels)

    private func stack(_ layers: String, w: Int = 4, h: Int = 4, image: String = "") -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<image w=\"\(w)\" h=\"\(h)\"\(image)>\n<stack>\n\(layers)\n</stack>\n</image>\n"
    }

    private func make(_ name: String, _ entries: [ORATool.Entry], declare: [String: Int] = [:]) throws -> String {
        let path = folder + "/" + name
        try ORATool.make(entries, declare: declare, at: path)
        return path
    }

    /// The document read (and each layer decoded), or its error's one line.
    private func read(_ path: String, maxSide: Int = 64) -> Result<ORADocument, ORAError> {
        do throws(ORAError) {
            let document = try OpenRaster.read(from: path, maxSide: maxSide)
            do { return .success(try document.decoded()) } catch { throw ORAError(path: path, entry: error.entry, message: error.message) }
        } catch {
            #expect(!error.description.contains("\n") && !error.description.contains("\r"), "one line: \(error.description)")
            return .failure(error)
        }
    }

    private func failure(_ path: String, maxSide: Int = 64) -> String? {
        if case .failure(let error) = read(path, maxSide: maxSide) { return error.description }
        return nil
    }

    @Test func tenThousandLayersAreRefusedAtTheFirstOneTooMany() throws {
        // Each layer on a line of its own, all naming one PNG: a file of about 1 KB.
        let layers = Array(repeating: "<layer src=\"data/a.png\"/>", count: 10_000).joined(separator: "\n")
        let path = try make("many.ora", [.mimetype, .text("stack.xml", stack(layers, w: 16384, h: 16384)), Self.layerPNG])
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0 < 2000)
        // Layer 4098 (a document's 4096, and the background this program saves) is on line 4101.
        #expect(failure(path, maxSide: 16384) == path + ": stack.xml:4101: more layers than the 4096 a document may hold")
        // 4097 are read: what this program writes for a document of 4096 layers.
        let most = Array(repeating: "<layer src=\"data/a.png\"/>", count: OpenRaster.maxLayers).joined(separator: "\n")
        let full = try make("most.ora", [.mimetype, .text("stack.xml", stack(most)), Self.layerPNG])
        let document = try OpenRaster.read(from: full, maxSide: 64)
        #expect(document.layers.count == 4097 && document.pixelBytes == 4097 * 64)
    }

    /// 15 MiB of name: cut to the 1024 bytes a replay's `set name` takes, whole characters, and
    /// said; a long attribute of another program's is left out, and said.
    @Test func aNameOfMegabytesIsCutAndALongAttributeLeftOut() throws {
        let long = String(repeating: "n", count: 15 << 20)
        let accented = String(repeating: "a", count: 1023) + "é"   // the é would end at byte 1025
        let value = String(repeating: "v", count: 5000)
        let layers = "<layer name=\"\(long)\" src=\"data/a.png\"/>\n<layer name=\"\(accented)\" src=\"data/a.png\" krita:note=\"\(value)\" selected=\"true\"/>"
        let path = try make("names.ora", [.mimetype, .text("stack.xml", stack(layers, image: " xmlns:krita=\"urn:k\"")), Self.layerPNG])
        let document = try read(path).get()
        #expect(document.layers.map { $0.name.utf8.count } == [1023, 1024])
        #expect(document.layers[1].name == String(repeating: "n", count: 1024))
        #expect(document.layers[0].extraAttributes == [ORAAttribute("selected", "true")])
        #expect(document.notes == [
            "2 layer names longer than 1024 bytes cut to their first 1024 (\"\(String(repeating: "n", count: 40))…\", 15728640 bytes)",
            "left out, longer than 4096 bytes: krita:note",
        ])
    }

    /// A layer PNG of 16384x16384 pixels in a few hundred bytes, a gigabyte decoded: refused when
    /// the file is read, before any layer is decoded.
    @Test func aLayerWhosePNGLiesAboutItsSizeIsRefusedBeforeDecoding() throws {
        var random: UInt32 = 3
        let noise = (0..<300).map { _ -> UInt8 in random = random &* 1_103_515_245 &+ 12345; return UInt8(random >> 24) }
        let png = PNGImage.signature + ORATestPNG.chunk("IHDR", ORATestPNG.bigEndian(16384) + ORATestPNG.bigEndian(16384) + [8, 6, 0, 0, 0])
            + ORATestPNG.chunk("IDAT", noise) + ORATestPNG.chunk("IEND", [])
        let path = try make("liar.ora", [.mimetype, .text("stack.xml", stack("<layer src='data/a.png'/>", w: 16384, h: 16384)), .bytes("data/a.png", png)])
        #expect(failure(path, maxSide: 16384)
                == path + ": data/a.png: cut off: its 300 bytes of image data cannot hold the 16384x16384 pixels its header declares")
        // Its declared size, for a caller's budget, without decoding it.
        let honest = try make("honest.ora", [.mimetype, .text("stack.xml", stack("<layer src='data/a.png'/>")), Self.layerPNG])
        let read = try OpenRaster.read(from: honest, maxSide: 64)
        #expect(read.layers[0].size == Size(width: 4, height: 4) && read.pixelBytes == 64)
        guard case .png = read.layers[0].pixels else { Issue.record("decoded already"); return }
    }

    /// Groups nested 64 deep are read; one more is refused, naming where.
    @Test func groupsNestedTooDeepAreRefused() throws {
        func nested(_ n: Int) -> String {
            String(repeating: "<stack>", count: n) + "<layer src='data/a.png'/>" + String(repeating: "</stack>", count: n)
        }
        let fits = try make("deep.ora", [.mimetype, .text("stack.xml", stack(nested(64))), Self.layerPNG])
        #expect(try read(fits).get().layers.map(\.depth).max() == 64)
        let deeper = try make("deeper.ora", [.mimetype, .text("stack.xml", stack(nested(65))), Self.layerPNG])
        #expect(failure(deeper) == deeper + ": stack.xml:4: groups nested deeper than the 64 a document may hold")
    }

    /// What the file says is quoted and escaped: a `&#10;` in a name, a src, the mimetype or a
    /// composite-op never breaks the line.
    @Test func valuesFromTheFileAreEscapedInEveryMessage() throws {
        let newline = "a&#10;b&#13;c&#9;d"
        let missing = try make("name.ora", [.mimetype, .text("stack.xml", stack("<layer name='\(newline)' src='data/\(newline).png'/>")), Self.layerPNG])
        #expect(failure(missing) == missing + ": data/a\\nb\\rc\\td.png: named by layer \"a\\nb\\rc\\td\" but not in the archive")
        let out = try make("src.ora", [.mimetype, .text("stack.xml", stack("<layer src='../\(newline)'/>")), Self.layerPNG])
        #expect(failure(out) == out + ": stack.xml:4: src \"../a\\nb\\rc\\td\" leads out of the archive")
        let mime = try make("mime.ora", [.text("mimetype", "image/\nopenraster\u{2028}", stored: true), .text("stack.xml", stack(""))])
        #expect(failure(mime) == mime + ": mimetype: \"image/\\nopenraster\\u{2028}\", not image/openraster: not an OpenRaster file")
        let opacity = try make("opacity.ora", [.mimetype, .text("stack.xml", stack("<layer src='data/a.png' opacity='\(newline)'/>")), Self.layerPNG])
        #expect(failure(opacity) == opacity + ": stack.xml:4: <layer> opacity \"a\\nb\\rc\\td\" is not a number")
        let group = "<stack name='G&#10;1' opacity='2' isolation='isolate'><layer src='data/a.png' composite-op='x&#10;y'/></stack>"
        let notes = try read(try make("op.ora", [.mimetype, .text("stack.xml", stack(group)), Self.layerPNG])).get().notes
        #expect(notes.contains("<stack> \"G\\n1\" opacity 2 read as 1.0"), "\(notes)")
        #expect(notes.allSatisfy { !$0.contains("\n") })
        // Long values are cut, with "…".
        let longName = String(repeating: "z", count: 300)
        let cut = try make("long.ora", [.mimetype, .text("stack.xml", stack("<layer name='\(longName)' src='data/none.png'/>")), Self.layerPNG])
        #expect(failure(cut) == cut + ": data/none.png: named by layer \"\(String(repeating: "z", count: 40))…\" but not in the archive")
    }

    @Test func quotingEscapesWhatWouldBreakALine() {
        #expect(ORAText.quoted("a\"b\\c") == "\"a\\\"b\\\\c\"")
        #expect(ORAText.quoted("x\u{0}\u{7F}\u{85}\u{2029}\u{202E}y") == "\"x\\u{0}\\u{7F}\\u{85}\\u{2029}\\u{202E}y\"")
        #expect(ORAText.quoted(String(repeating: "é", count: 41)) == "\"" + String(repeating: "é", count: 40) + "…\"")
        #expect(ORAText.oneLine("data\\a\n.png") == "data\\a\\n.png")
    }

    /// Damage said as it is: two entries of one name; a path through ".." that stays inside is
    /// read; an entry whose compressed bytes cannot inflate to what it declares.
    @Test func damageIsSaidAsItIs() throws {
        let duplicate = try make("twice.ora", [.mimetype, .text("stack.xml", stack("<layer src='data/a.png'/>")), Self.layerPNG, Self.layerPNG])
        #expect(failure(duplicate) == duplicate + ": damaged zip archive: it holds two entries named \"data/a.png\"")

        let inside = try make("inside.ora", [.mimetype, .text("stack.xml", stack("<layer name='r' src='data/../data/./a.png'/>")), Self.layerPNG])
        #expect(try read(inside).get().layers == [ORALayer(name: "r", image: Self.layer)])
        #expect(failure(try make("above.ora", [.mimetype, .text("stack.xml", stack("<layer src='data/../../a.png'/>")), Self.layerPNG]))
                == folder + "/above.ora: stack.xml:4: src \"data/../../a.png\" leads out of the archive")

        // 1000 bytes of zeros, deflated to a dozen, declaring 50 MB: no deflate stream does that.
        let bomb = try make("bomb.ora", [.mimetype, .text("stack.xml", stack("<layer src='data/a.png'/>", w: 16384, h: 16384)),
                                         .zeros("data/a.png", 1000, stored: false)], declare: ["data/a.png": 50_000_000])
        let said = try #require(failure(bomb, maxSide: 16384))
        #expect(said.hasPrefix(bomb + ": data/a.png: damaged: its ") && said.hasSuffix(" compressed bytes cannot inflate to the 50000000 it declares"), "\(said)")
    }
}

/// PNG chunks by hand (PNGFileTests has its own; test targets share no code but TestSupport).
enum ORATestPNG {
    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
    }

    static func bigEndian(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xff), UInt8(v >> 8 & 0xff), UInt8(v & 0xff)] }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        return ~crc
    }
}
