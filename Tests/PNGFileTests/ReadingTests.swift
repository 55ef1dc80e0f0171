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

    private func expectMessage(_ message: String, reading path: String, sourceLocation: SourceLocation = #_sourceLocation) {
        expectMessage(message, sourceLocation: sourceLocation) { try PNGImage.read(from: path) }
    }

    private func expectMessage(_ message: String, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> PNGImage) {
        let error = #expect(throws: PNGError.self, sourceLocation: sourceLocation) { try body() }
        #expect(error?.message == message, sourceLocation: sourceLocation)
    }

    @Test func anEmptyFileAFolderGarbageAndAMissingFileSayWhatIsWrong() throws {
        let dir = try folder()
        try Data().write(to: URL(fileURLWithPath: dir + "/empty.png"))
        expectMessage("empty file: not a PNG picture", reading: dir + "/empty.png")
        expectMessage("is a folder, not a file", reading: dir)
        try Data("shopping: milk\n".utf8).write(to: URL(fileURLWithPath: dir + "/notes.png"))
        expectMessage("not a PNG file", reading: dir + "/notes.png")
        expectMessage("cannot open: No such file or directory", reading: dir + "/missing.png")
        expectMessage("empty file: not a PNG picture", reading: "/dev/null")
    }

    @Test func emptyOrForeignBytesAreNotAPicture() throws {
        expectMessage("empty: no picture data") { try PNGImage.decode([]) }
        expectMessage("not a PNG file") { try PNGImage.decode(Array("GIF89a".utf8)) }
        expectMessage("not a PNG file") { try PNGImage.decode([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0B]) }
    }

    @Test func aFIFOWithNoWriterIsEmptyAtOnce() throws {
        let fifo = try folder() + "/fifo.png"
        try makeFIFO(fifo)
        let outcome = returning(within: 3, unblocking: fifo) { Result { () throws(PNGError) in try PNGImage.read(from: fifo) } }
        let result = try #require(outcome, "reading a FIFO with no writer did not end within 3 s")
        expectMessage("empty file: not a PNG picture") { try result.get() }
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
            expectMessage("cut off: the data ends before the picture does", reading: path)
        }
    }
}
