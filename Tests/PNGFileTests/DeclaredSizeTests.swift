import Foundation
import PNGFile
import Testing
import TestSupport

/// What a PNG declares is checked before anything is allocated for it: a header that claims more
/// pixels than the image data can hold, and a stream that is no PNG or runs on past what its
/// header allows.
@Suite struct DeclaredSizeTests {
    private func folder() throws -> String { try ScratchFolder.make("png-declared") }

    /// 508 bytes that say 16384x16384 RGBA, a gigabyte: 451 bytes of compressed data can give at
    /// most 465 KB (deflate's best is 1032 to 1).
    static let liar: [UInt8] = {
        var random: UInt32 = 7
        let noise = (0..<451).map { _ -> UInt8 in random = random &* 1_103_515_245 &+ 12345; return UInt8(random >> 24) }
        let header = PNGBytes.bigEndian(16384) + PNGBytes.bigEndian(16384) + [8, 6, 0, 0, 0]
        return PNGImage.signature + PNGBytes.chunk("IHDR", header) + PNGBytes.chunk("IDAT", noise) + PNGBytes.chunk("IEND", [])
    }()

    private func expectError(_ kind: PNGError.Kind, _ message: String, sourceLocation: SourceLocation = #_sourceLocation,
                             _ body: () throws -> Any) {
        let error = #expect(throws: PNGError.self, sourceLocation: sourceLocation) { _ = try body() }
        #expect(error?.kind == kind, sourceLocation: sourceLocation)
        #expect(error?.message == message, sourceLocation: sourceLocation)
    }

    /// libpng allocated the gigabyte first and then said "Not enough image data"; now the header
    /// and the data's length refuse it, before the pixels exist.
    @Test func aPNGWhoseDataCannotHoldItsPictureIsRefusedBeforeItIsAllocated() throws {
        #expect(Self.liar.count == 508)
        let said = "cut off: its 451 bytes of image data cannot hold the 16384x16384 pixels its header declares"
        expectError(.truncated, said) { try PNGImage.decode(Self.liar, maxSide: 16384) }
        expectError(.truncated, said) { try PNGImage.declaredSize(of: Self.liar, maxSide: 16384) }
        let path = try folder() + "/liar.png"
        try Data(Self.liar).write(to: URL(fileURLWithPath: path))
        expectError(.truncated, said) { try PNGImage.read(from: path, maxSide: 16384) }
        // Interlaced, the passes' rows are counted (a little more than the plain rows).
        var interlaced = Self.liar
        interlaced[28] = 1
        interlaced.replaceSubrange(29..<33, with: PNGBytes.chunk("IHDR", Array(interlaced[16..<29])).suffix(4))
        expectError(.truncated, said) { try PNGImage.decode(interlaced, maxSide: 16384) }
    }

    /// What compresses as well as deflate can is still read: a solid picture, ~1000 to 1.
    @Test func aPictureThatCompressesToAlmostNothingIsRead() throws {
        let solid = PNGImage(width: 2048, height: 1024, pixels: Array(repeating: 0xFF20_4060, count: 2048 * 1024))
        let bytes = try solid.encode()
        #expect(bytes.count < 16_000)
        #expect(try PNGImage.declaredSize(of: bytes) == (2048, 1024))
        #expect(try PNGImage.decode(bytes) == solid)
    }

    /// /dev/zero (here through a link named like a picture) is no PNG: said after eight bytes,
    /// where 2 GB were read before.
    @Test func aDeviceThatNeverEndsIsRefusedAtOnce() throws {
        let link = try folder() + "/zero.png"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/zero")
        let started = Date()
        expectError(.notPNG, "not a PNG file") { try PNGImage.read(from: link) }
        #expect(Date().timeIntervalSince(started) < 5)
    }

    /// A stream that starts as a 1x1 PNG and runs on is read no further than a 1x1 PNG can need.
    @Test func aStreamIsReadNoFurtherThanItsHeaderAllows() throws {
        signal(SIGPIPE, SIG_IGN)   // the writer finds its reader gone
        let fifo = try folder() + "/long.png"
        try makeFIFO(fifo)
        let png = PNGBytes.file(width: 1, height: 1, depth: 8, colourType: 6, rows: [[1, 2, 3, 4]])
        try feed(Array(png.prefix(33)) + [UInt8](repeating: 0, count: 20 << 20), toFIFO: fifo)
        let limit = PNGImage.maxFileBytes(width: 1, height: 1)
        #expect(limit < 17 << 20)
        let outcome = returning(within: 10, unblocking: fifo) { Result { () throws(PNGError) in try PNGImage.read(from: fifo) } }
        let result = try #require(outcome, "the read did not end within 10 s")
        expectError(.file(.tooLarge), "too large: more than the \(limit) bytes a 1x1 PNG can need") { try result.get() }
    }
}
