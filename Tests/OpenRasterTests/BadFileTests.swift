import Foundation
import OpenRaster
import PNGFile
import Testing
import TestSupport

/// Every file that is refused is refused in one line: the file, the entry where there is one,
/// and what is wrong.
@Suite struct BadFileTests {
    private let folder: String
    init() throws { folder = try ScratchFolder.make("ora") }

    private static let layer = Samples.image(width: 4, height: 4, seed: 41)
    private static let layerPNG = ORATool.Entry.png("data/a.png", width: 4, height: 4, pixels: layer.pixels)

    /// A zip of `entries` named `name`, read; its error's line, or nil when it reads.
    private func failure(_ name: String, _ entries: [ORATool.Entry], declare: [String: Int] = [:], maxSide: Int = 64,
                         maxTotalBytes: Int = OpenRaster.defaultMaxTotalBytes) throws -> String? {
        let path = folder + "/" + name
        try ORATool.make(entries, declare: declare, at: path)
        return failure(reading: path, maxSide: maxSide, maxTotalBytes: maxTotalBytes)
    }

    private func failure(reading path: String, maxSide: Int = 64, maxTotalBytes: Int = OpenRaster.defaultMaxTotalBytes) -> String? {
        do throws(ORAError) {
            // Each layer decoded too, as a reader of the document does, one at a time (a
            // layer's error names its entry; the file is the reader's to name).
            let document = try OpenRaster.read(from: path, maxSide: maxSide, maxTotalBytes: maxTotalBytes)
            do { _ = try document.decoded() } catch { throw ORAError(path: path, entry: error.entry, message: error.message) }
            return nil
        } catch {
            #expect(!error.description.contains("\n"), "one line: \(error.description)")
            return error.description
        }
    }

    /// An .ora file with `stack` as its stack.xml and data/a.png.
    private func failure(_ name: String, stack: String, maxSide: Int = 64) throws -> String? {
        try failure(name, [.mimetype, .text("stack.xml", stack), Self.layerPNG], maxSide: maxSide)
    }

    private func layerStack(_ layer: String, w: Int = 4, h: Int = 4) -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<image w=\"\(w)\" h=\"\(h)\">\n<stack>\n\(layer)\n</stack>\n</image>\n"
    }

    @Test func whatIsNoOpenRasterFile() throws {
        let text = folder + "/text.ora", empty = folder + "/empty.ora"
        try Data("just some text, long enough to look for a zip's end in".utf8).write(to: URL(fileURLWithPath: text))
        try Data().write(to: URL(fileURLWithPath: empty))
        #expect(failure(reading: text) == text + ": not an OpenRaster file: not a zip archive")
        #expect(failure(reading: empty) == empty + ": empty file: not an OpenRaster file")
        #expect(failure(reading: folder + "/missing.ora") == folder + "/missing.ora: cannot open: No such file or directory")
        #expect(failure(reading: folder) == folder + ": is a folder, not a file")
        #expect(try failure("nomime.ora", [.text("stack.xml", layerStack("")), Self.layerPNG])
                == folder + "/nomime.ora: not an OpenRaster file: no mimetype entry")
        #expect(try failure("zip.ora", [.text("mimetype", "application/zip", stored: true), .text("stack.xml", layerStack(""))])
                == folder + "/zip.ora: mimetype: \"application/zip\", not image/openraster: not an OpenRaster file")
        #expect(try failure("nostack.ora", [.mimetype, Self.layerPNG]) == folder + "/nostack.ora: no stack.xml in the archive")
    }

    @Test func aDamagedZipIsRefused() throws {
        let path = folder + "/cut.ora"
        try ORATool.make([.mimetype, .text("stack.xml", layerStack("<layer name='A' src='data/a.png'/>")), Self.layerPNG], at: path)
        let whole = try Data(contentsOf: URL(fileURLWithPath: path))
        // Cut off before the central directory, or by one byte: said to be cut, not "not a zip".
        for kept in [whole.count / 2, whole.count - 1] {
            try whole.prefix(kept).write(to: URL(fileURLWithPath: path))
            #expect(failure(reading: path) == path + ": cut off: the zip archive ends before the directory of its entries", "\(kept) bytes")
        }
        // One byte of a layer's deflated data changed: zlib or the CRC finds it.
        var damaged = [UInt8](whole)
        let at = try #require(whole.range(of: Data("data/a.png".utf8))).upperBound + 20
        damaged[at] ^= 0xFF
        try Data(damaged).write(to: URL(fileURLWithPath: path))
        let message = try #require(failure(reading: path))
        #expect(message.hasPrefix(path + ": data/a.png: damaged: "), "\(message)")
    }

    @Test func malformedStackXMLIsRefusedWithItsLine() throws {
        let cases: [(String, String)] = [
            ("<image w='4' h='4'>\n<stack>\n</image>", "stack.xml:3: </image> closes <stack> (line 2)"),
            ("<image w='4' h='4'>\n<stack>", "stack.xml:2: cut off: <stack> (line 2) is never closed"),
            ("<image w='4' h='4'><stack/></image>\n<image/>", "stack.xml:2: more after the root element </image>"),
            ("<image w='4' w='4'/>", "stack.xml:1: <image> has two w attributes"),
            ("<image w=4 h=4/>", "stack.xml:1: an attribute value must be quoted"),
            ("<image w='4' h='4'>\n<stack><layer name='&nbsp;' src='data/a.png'/></stack></image>", "stack.xml:2: unknown entity &nbsp;"),
            ("<image w='4' h='4' name='a & b'/>", "stack.xml:1: & that starts no reference (write &amp;)"),
            ("<?xml version='1.0' encoding='ISO-8859-1'?><image w='4' h='4'/>", "stack.xml:1: encoding ISO-8859-1 is not read (UTF-8 only)"),
            ("<image w='4' h='4' name='\u{1}'/>", "stack.xml:1: character U+1 is not allowed in XML"),
            ("", "stack.xml:1: no root element"),
            // Entities declared in a DOCTYPE ("a billion laughs") are never read.
            ("<?xml version='1.0'?>\n<!DOCTYPE image [<!ENTITY a 'aaaaaaaaaa'><!ENTITY b '&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;'>]>\n<image w='&b;' h='1'/>",
             "stack.xml:2: a DOCTYPE with declarations is not read"),
            ("<layers/>", "stack.xml:1: the root element is <layers>, not <image>"),
            ("<image h='4'/>", "stack.xml:1: <image> has no w"),
            ("<image w='four' h='4'/>", "stack.xml:1: <image> w \"four\" is not a whole number"),
            ("<image w='0' h='4'/>", "stack.xml:1: <image> w 0 is out of range"),
            (layerStack("<layer name='A'/>"), "stack.xml:4: <layer> \"A\" has no src"),
            (layerStack("<layer name='A' src='data/a.png' x='1.5'/>"), "stack.xml:4: <layer> x \"1.5\" is not a whole number"),
            (layerStack("<layer name='A' src='data/a.png' opacity='half'/>"), "stack.xml:4: <layer> \"A\" opacity \"half\" is not a number"),
        ]
        for (index, (xml, expected)) in cases.enumerated() {
            #expect(try failure("xml\(index).ora", stack: xml) == folder + "/xml\(index).ora: " + expected)
        }
        let deep = "<image w='4' h='4'>" + String(repeating: "<stack>", count: 300) + String(repeating: "</stack>", count: 300) + "</image>"
        #expect(try failure("deep.ora", stack: deep) == folder + "/deep.ora: stack.xml:1: elements nested deeper than 256")
    }

    @Test func aSrcThatLeadsOutOfTheArchiveIsRefused() throws {
        for src in ["../a.png", "data/../../a.png", "/etc/passwd", "\\\\server\\a.png", "C:/a.png", "file:///etc/passwd"] {
            let escaped = src.replacingOccurrences(of: "&", with: "&amp;")
            #expect(try failure("escape.ora", stack: layerStack("<layer name='A' src='\(escaped)'/>"))
                    == folder + "/escape.ora: stack.xml:4: src \(ORAText.quoted(src)) leads out of the archive", "\(src)")
        }
        #expect(try failure("nofile.ora", stack: layerStack("<layer name='A' src='./'/>"))
                == folder + "/nofile.ora: stack.xml:4: src \"./\" names no file")
    }

    @Test func aLayerWhosePNGIsMissingOrUnreadableIsRefused() throws {
        #expect(try failure("missing.ora", stack: layerStack("<layer name='A' src='data/b.png'/>"))
                == folder + "/missing.ora: data/b.png: named by layer \"A\" but not in the archive")
        let notPNG = ORATool.Entry.text("data/b.png", "GIF89a, honestly")
        #expect(try failure("gif.ora", [.mimetype, .text("stack.xml", layerStack("<layer name='A' src='data/b.png'/>")), notPNG])
                == folder + "/gif.ora: data/b.png: not a PNG file")
        let png = try Self.layer.encode()
        let cut = ORATool.Entry.bytes("data/b.png", Array(png.prefix(png.count - 20)))
        #expect(try failure("cut.ora", [.mimetype, .text("stack.xml", layerStack("<layer name='A' src='data/b.png'/>")), cut])
                == folder + "/cut.ora: data/b.png: cut off: the data ends before the picture does")
    }

    @Test func picturesLargerThanTheLimitAreRefused() throws {
        #expect(try failure("wide.ora", stack: layerStack("", w: 65, h: 4))
                == folder + "/wide.ora: stack.xml:2: 65x4 pixels is larger than the 64x64 limit")
        let tall = ORATool.Entry.png("data/t.png", width: 1, height: 65, pixels: Array(repeating: 0xFF00_0000, count: 65))
        #expect(try failure("tall.ora", [.mimetype, .text("stack.xml", layerStack("<layer name='T' src='data/t.png'/>")), tall])
                == folder + "/tall.ora: data/t.png: 1x65 pixels is larger than the 64x64 limit")
    }

    /// Zip bombs: sizes are checked as declared before anything is inflated, and an entry that
    /// inflates to more than it declares is stopped there.
    @Test func entriesTooLargeForTheLimitsAreRefusedBeforeTheyAreInflated() throws {
        let stack = ORATool.Entry.text("stack.xml", layerStack("<layer name='A' src='data/a.png'/>"))
        // 8 bytes a pixel of 65x64, 1/32 more and a MiB: the most a 64x64 layer's PNG can need.
        let limit = 8 * 65 * 64 + 8 * 65 * 64 / 32 + (1 << 20)
        #expect(try failure("bomb.ora", [.mimetype, stack, .zeros("data/a.png", 50_000_000, stored: false)])
                == folder + "/bomb.ora: data/a.png: 50000000 bytes uncompressed, more than the \(limit)-byte limit")
        #expect(try failure("bigxml.ora", [.mimetype, .zeros("stack.xml", 17 << 20, stored: false)])
                == folder + "/bigxml.ora: stack.xml: 17825792 bytes uncompressed, more than the 16777216-byte limit")
        #expect(try failure("lying.ora", [.mimetype, stack, .zeros("data/a.png", 5_000_000, stored: false)], declare: ["data/a.png": 1000])
                == folder + "/lying.ora: data/a.png: holds more bytes than the 1000 it declares")
        // The total: stack.xml, the PNG (its bytes), then its pixels (64 bytes) go over 200 bytes.
        let total = try #require(try failure("total.ora", [.mimetype, stack, Self.layerPNG], maxTotalBytes: 200))
        #expect(total.hasPrefix(folder + "/total.ora: data/a.png: too large: the archive's entries would inflate to "), "\(total)")
        #expect(total.hasSuffix(" bytes in all, more than the 200-byte limit"), "\(total)")
    }
}
