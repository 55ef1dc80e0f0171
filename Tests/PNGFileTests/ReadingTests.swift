import Foundation
import PNGFile
import Testing
import TestSupport

/// Reading PNG files of every kind: the bytes come through FileBytes, then are decoded as a
/// pasted picture is. Each failure is one line saying what is wrong (the caller names the file).
@Suite struct ReadingTests {
    private func folder() throws -> String { try ScratchFolder.make("png-read") }

    /// 300x300 pixels of noise, some translucent: a PNG of about 300 KB, more than a pipe holds.
    private func noise() -> PNGImage {
        var random: UInt32 = 99
        let pixels = (0..<(300 * 300)).map { i -> UInt32 in
            random = random &* 1_103_515_245 &+ 12345
            return (i % 7 == 0 ? 0x8000_0000 : 0xFF00_0000) | random >> 8
        }
        return PNGImage(width: 300, height: 300, pixels: pixels)
    }

    private func expectError(_ kind: PNGError.Kind, _ message: String, reading path: String, sourceLocation: SourceLocation = #_sourceLocation) {
        expectError(kind, message, sourceLocation: sourceLocation) { try PNGImage.read(from: path) }
    }

    private func expectError(_ kind: PNGError.Kind, _ message: String, sourceLocation: SourceLocation = #_sourceLocation,
                             _ body: () throws -> PNGImage) {
        let error = #expect(throws: PNGError.self, sourceLocation: sourceLocation) { try body() }
        #expect(error?.kind == kind, sourceLocation: sourceLocation)
        #expect(error?.message == message, sourceLocation: sourceLocation)
    }

    @Test func anEmptyFileAFolderGarbageAndAMissingFileSayWhatIsWrong() throws {
        let dir = try folder()
        try Data().write(to: URL(fileURLWithPath: dir + "/empty.png"))
        expectError(.empty, "empty file: not a PNG picture", reading: dir + "/empty.png")
        expectError(.file(.isFolder), "is a folder, not a file", reading: dir)
        try Data("shopping: milk\n".utf8).write(to: URL(fileURLWithPath: dir + "/notes.png"))
        expectError(.notPNG, "not a PNG file", reading: dir + "/notes.png")
        expectError(.file(.notFound), "cannot open: No such file or directory", reading: dir + "/missing.png")
        expectError(.empty, "empty file: not a PNG picture", reading: "/dev/null")
    }

    @Test func emptyOrForeignBytesAreNotAPicture() throws {
        expectError(.empty, "empty: no picture data") { try PNGImage.decode([]) }
        expectError(.notPNG, "not a PNG file") { try PNGImage.decode(Array("GIF89a".utf8)) }
        expectError(.notPNG, "not a PNG file") { try PNGImage.decode([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0B]) }
    }

    @Test func aFIFOWithNoWriterIsEmptyAtOnce() throws {
        let fifo = try folder() + "/fifo.png"
        try makeFIFO(fifo)
        let outcome = returning(within: 3, unblocking: fifo) { Result { () throws(PNGError) in try PNGImage.read(from: fifo) } }
        let result = try #require(outcome, "reading a FIFO with no writer did not end within 3 s")
        expectError(.empty, "empty file: not a PNG picture") { try result.get() }
    }

    @Test func aFIFOFedByAWriterDecodes() throws {
        let fifo = try folder() + "/fifo.png"
        try makeFIFO(fifo)
        let image = noise()
        let bytes = try image.encode()
        #expect(bytes.count > 1 << 16)
        try feed(bytes, toFIFO: fifo)
        let outcome = returning(within: 10, unblocking: fifo) { Result { () throws(PNGError) in try PNGImage.read(from: fifo) } }
        expectSame(try #require(outcome, "the read did not end within 10 s").get(), image)
    }

    /// /dev/stdin with a picture piped in: it names /proc/self/fd/0, the pipe.
    @Test func aPipeDecodes() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let image = noise()
        let bytes = try image.encode(), writeEnd = ends[1]
        Thread.detachNewThread { writeAll(bytes, to: writeEnd); close(writeEnd) }
        expectSame(try PNGImage.read(from: "/proc/self/fd/\(ends[0])"), image)
    }

    /// Cut off in its pixel data, and in its header.
    @Test func aCutOffFileSaysSo() throws {
        let bytes = try noise().encode()
        for size in [bytes.count / 2, 20] {
            let path = try folder() + "/cut.png"
            try Data(bytes.prefix(size)).write(to: URL(fileURLWithPath: path))
            expectError(.truncated, "cut off: the data ends before the picture does", reading: path)
        }
    }

    /// What a caller can act on, beside the words: a picture over the limit, over libpng's own
    /// limit, damaged, a file over 2 GiB, an image with nothing to encode.
    @Test func eachRefusalHasItsKind() throws {
        let rgb = PNGBytes.file(width: 3, height: 2, depth: 8, colourType: 2, rows: [[UInt8]](repeating: [UInt8](repeating: 9, count: 9), count: 2))
        expectError(.tooLarge, "3x2 pixels is larger than the 2x2 limit") { try PNGImage.decode(rgb, maxSide: 2) }
        let wide = PNGBytes.file(width: 2_000_000, height: 1, depth: 8, colourType: 0, rows: [[]])
        expectError(.tooLarge, "2000000x1 pixels is larger than the 16384x16384 limit") { try PNGImage.decode(wide, maxSide: 16384) }
        var damaged = rgb
        damaged[29] ^= 1   // IHDR's CRC
        expectError(.corrupt, "IHDR: CRC error") { try PNGImage.decode(damaged) }

        let huge = try folder() + "/huge.png"
        #expect(FileManager.default.createFile(atPath: huge, contents: nil))
        try #require(truncate(huge, off_t(PNGImage.maxFileBytes + 1)) == 0)
        expectError(.file(.tooLarge), "too large: more than 2048 MiB", reading: huge)

        #expect(#expect(throws: PNGError.self) { try PNGImage(width: 0, height: 0, pixels: []).encode() }
                == PNGError(.invalidImage, "cannot encode a 0x0 PNG of 0 pixels"))
    }
}
