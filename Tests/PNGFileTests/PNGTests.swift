import Files
import Foundation
import PNGFile
import Testing

@Suite struct PNGTests {
    private func tempDir() throws -> String {
        let dir = NSTemporaryDirectory() + "qs-png-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

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
