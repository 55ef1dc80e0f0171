import Files
import Foundation
import PNGFile
import Testing
import TestSupport

@Suite struct PNGTests {
    private func tempDir() throws -> String { try ScratchFolder.make("png") }

    @Test func opaqueRoundTrip() throws {
        let pixels: [UInt32] = (0..<(7 * 5)).map { 0xFF00_0000 | UInt32($0 * 7919 & 0xFFFFFF) }
        let image = PNGImage(width: 7, height: 5, pixels: pixels)
        let path = try tempDir() + "/a.png"
        try image.write(to: path)
        #expect(try PNGImage.read(from: path) == image)
        // The file really is a PNG: the signature bytes.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(Array(bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    }

    @Test func translucentRoundTrip() throws {
        let image = PNGImage(width: 2, height: 1, pixels: [0x80FF_0000, 0x0000_0000])
        let path = try tempDir() + "/b.png"
        try image.write(to: path)
        #expect(try PNGImage.read(from: path).pixels == image.pixels)
    }

    /// Rows that suit each of the encoder's filters (a gradient: Sub; a row repeated: Up; flat:
    /// None), and noise big enough to need more than one IDAT chunk, come back exactly.
    @Test(arguments: [true, false]) func everyFilterAndSeveralChunksRoundTrip(opaque: Bool) throws {
        let width = 1280, height = 1000
        var random: UInt32 = 12345
        func noise() -> UInt32 { random = random &* 1_103_515_245 &+ 12345; return random >> 8 }
        var pixels: [UInt32] = []
        for y in 0..<height {
            for x in 0..<width {
                let alpha: UInt32 = opaque ? 0xFF00_0000 : UInt32((x &+ y) & 0xff) << 24
                switch y % 4 {
                case 0: pixels.append(alpha | UInt32(x & 0xff) << 16 | UInt32(x * 3 & 0xff) << 8 | UInt32(y & 0xff))
                case 1: pixels.append(alpha | noise())
                case 2: pixels.append(pixels[pixels.count - width])
                default: pixels.append(alpha | (y > height / 2 ? noise() : 0x336699))
                }
            }
        }
        let image = PNGImage(width: width, height: height, pixels: pixels)
        let path = try tempDir() + "/filters.png"
        try image.write(to: path)
        let read = try PNGImage.read(from: path)
        #expect(read == image, "\(read.difference(from: image) ?? "")")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        var chunks: [String] = [], at = 8
        while at + 8 <= bytes.count {
            let length = bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) }
            chunks.append(String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self))
            at += 12 + length
        }
        #expect(chunks.first == "IHDR" && chunks.last == "IEND" && chunks.filter { $0 == "IDAT" }.count >= 2, "\(chunks)")
        #expect(bytes[25] == (opaque ? 2 : 6), "colour type: RGB when every pixel is opaque")
    }

    @Test func failedWriteLeavesTheOldFileAndNoTemporary() throws {
        let dir = try tempDir()
        let path = dir + "/c.png"
        try PNGImage(width: 1, height: 1, pixels: [0xFF12_3456]).write(to: path)
        #expect(throws: FileError.self) { try PNGImage(width: 1, height: 1, pixels: [0xFF00_0000]).write(to: dir + "/missing/c.png") }
        chmod(dir, 0o500)
        defer { chmod(dir, 0o700) }
        if getuid() != 0 { // root ignores folder permissions
            #expect(throws: FileError.self) { try PNGImage(width: 1, height: 1, pixels: [0xFF00_0000]).write(to: path) }
        }
        #expect(try PNGImage.read(from: path).pixels == [0xFF12_3456])
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["c.png"])
    }

    @Test func readingGarbageIsAnError() throws {
        let path = try tempDir() + "/bad.png"
        try Data("not a png".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: PNGError.self) { try PNGImage.read(from: path) }
    }
}
