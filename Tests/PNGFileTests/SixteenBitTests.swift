import PNGFile
import Testing
import TestSupport

/// 16-bit files: sRGB unless they say otherwise, as browsers take them. Each file is built byte by
/// byte (`PNGBytes`), so the samples and chunks are exactly the ones named.
@Suite struct SixteenBitTests {
    /// The 8-bit value libpng rounds a 16-bit sample to.
    private func rounded(_ v: Int) -> UInt32 { UInt32((v * 255 + 32767) / 65535) }
    private func grey(_ g: UInt32, alpha: UInt32 = 255) -> UInt32 { alpha << 24 | g * 0x010101 }

    private func decodedRow(_ bytes: [UInt8]) throws -> [UInt32] { try PNGImage.decode(bytes).pixels }

    @Test func greyWithNoColourSpaceIsSRGB() throws {
        let file = PNGBytes.file16(colourType: 0, channels: 1, rows: [[0, 1000, 32896, 65535]])
        #expect(try decodedRow(file) == [grey(0), grey(4), grey(128), grey(255)], "libpng alone made 32896 186")
    }

    /// Every 16-bit value: rounded to the nearest 8-bit one, v · 255 / 65535, no curve (a shift,
    /// v >> 8, would be one less for 16256 of them, 1000 → 3 among them).
    @Test func everyGreyValueIsRoundedToEightBits() throws {
        let rows = (0..<256).map { y in (0..<256).map { x in UInt16(y * 256 + x) } }
        let image = try PNGImage.decode(PNGBytes.file16(colourType: 0, channels: 1, rows: rows))
        #expect(image.width == 256 && image.height == 256)
        expectSamePixels(image.pixels, (0..<65536).map { grey(rounded($0)) }, width: 256, "16-bit grey y · 256 + x")
    }

    /// Straight alpha, kept: every 8-bit grey under every 8-bit alpha comes back exactly (no
    /// premultiplying on the way, so even a colour under alpha 0 survives).
    @Test func greyAndAlphaKeepStraightAlpha() throws {
        let rows = (0..<256).map { a in (0..<256).flatMap { k in [UInt16(k * 257), UInt16(a * 257)] } }
        let image = try PNGImage.decode(PNGBytes.file16(colourType: 4, channels: 2, rows: rows))
        let expected = (0..<256).flatMap { a in (0..<256).map { k in grey(UInt32(k), alpha: UInt32(a)) } }
        expectSamePixels(image.pixels, expected, width: 256, "grey x · 257 under alpha y · 257")
        let odd = PNGBytes.file16(colourType: 4, channels: 2, rows: [[32896, 32896, 1000, 0, 0x4000, 0x8000]])
        #expect(try decodedRow(odd) == [grey(128, alpha: 128), grey(4, alpha: 0), grey(64, alpha: 128)])
    }

    @Test func rgbAndRGBA() throws {
        let rgb = PNGBytes.file16(colourType: 2, channels: 3, rows: [[0, 0, 77 * 257, 32896, 0, 65535, 0x1234, 0x5678, 0x9ABC]])
        #expect(try decodedRow(rgb) == [0xFF00_004D, 0xFF80_00FF, 0xFF12_569A], "libpng alone made 77 · 257 blue 148")
        let rgba = PNGBytes.file16(colourType: 6, channels: 4, rows: [[
            0, 0, 77 * 257, 65535,
            32896, 0, 65535, 32896,
            100 * 257, 50 * 257, 25 * 257, 0,
            10 * 257, 20 * 257, 30 * 257, 40 * 257,
        ]])
        #expect(try decodedRow(rgba) == [0xFF00_004D, 0x8080_00FF, 0x0064_3219, 0x280A_141E])
    }

    /// A file that says how it is encoded keeps libpng's conversion: gAMA 1.0 (linear) brightens
    /// 32896 to 186; gAMA 1/2.2 and an sRGB chunk leave it 128. An ICC profile, which libpng does
    /// not read, keeps its linear assumption; cHRM says nothing of the encoding (primaries only).
    @Test func aFileThatNamesItsEncodingKeepsLibpngsHandling() throws {
        func decoded(_ chunks: [UInt8]) throws -> [UInt32] {
            try decodedRow(PNGBytes.file16(colourType: 0, channels: 1, rows: [[32896, 65535, 0]], chunks: [chunks]))
        }
        #expect(try decoded(PNGBytes.gamma(100_000)) == [grey(186), grey(255), grey(0)])
        #expect(try decoded(PNGBytes.gamma(45455)) == [grey(128), grey(255), grey(0)])
        #expect(try decoded(PNGBytes.chunk("sRGB", [0])) == [grey(128), grey(255), grey(0)])
        #expect(try decoded(PNGBytes.chunk("iCCP", Array("grey".utf8) + [0, 0] + PNGBytes.zlib(greyProfile()))) == [grey(186), grey(255), grey(0)])
        let whitePointAndPrimaries: [UInt32] = [31270, 32900, 64000, 33000, 30000, 60000, 15000, 6000]
        #expect(try decoded(PNGBytes.chunk("cHRM", whitePointAndPrimaries.flatMap(PNGBytes.bigEndian))) == [grey(128), grey(255), grey(0)])
    }

    /// 8-bit files are as they were: grey, and a palette with transparency.
    @Test func eightBitFilesAreUnchanged() throws {
        let g = PNGBytes.file(width: 4, height: 1, depth: 8, colourType: 0, rows: [[0, 77, 128, 255]])
        #expect(try decodedRow(g) == [grey(0), grey(77), grey(128), grey(255)])
        let palette = PNGBytes.chunk("PLTE", [10, 20, 30, 200, 100, 50, 255, 255, 255]) + PNGBytes.chunk("tRNS", [255, 128])
        let p = PNGBytes.file(width: 3, height: 1, depth: 8, colourType: 3, rows: [[0, 1, 2]], chunks: [palette])
        #expect(try decodedRow(p) == [0xFF0A_141E, 0x80C8_6432, 0xFFFF_FFFF])
    }

    /// The smallest ICC profile header for a grey display device, with no tags.
    private func greyProfile() -> [UInt8] {
        var p = [UInt8](repeating: 0, count: 132)
        func put(_ bytes: [UInt8], at i: Int) { p.replaceSubrange(i..<(i + bytes.count), with: bytes) }
        put(PNGBytes.bigEndian(132), at: 0)
        put(PNGBytes.bigEndian(0x0210_0000), at: 8)                         // version 2.1
        put(Array("mntrGRAYXYZ ".utf8), at: 12)                             // class, colour space, PCS
        put(Array("acsp".utf8), at: 36)
        put(PNGBytes.bigEndian(63190) + PNGBytes.bigEndian(65536) + PNGBytes.bigEndian(54061), at: 68)   // D50
        return p
    }
}
