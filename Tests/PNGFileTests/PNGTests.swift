import CDeflate
import Files
import Foundation
@testable import PNGFile
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

    /// Bands of rows that suit each of the encoder's filters come back exactly, and each filter
    /// is used: None (values near zero, further apart than they are from it), Sub (a steep gradient along the row, unrelated to
    /// the row above), Up (a row of noise repeated), Paeth (the sum of a random walk along x and
    /// one along y, where the best neighbour changes from pixel to pixel). Noise makes the data
    /// need more than one IDAT chunk.
    @Test(arguments: [true, false]) func everyFilterAndSeveralChunksRoundTrip(opaque: Bool) throws {
        let width = 2000, height = 1000
        var random: UInt32 = 12345
        func noise() -> UInt32 { random = random &* 1_103_515_245 &+ 12345; return random >> 8 }
        // Steps of 1…8 either way within 0…127: never still (no row of the y walk repeats the
        // one above) and the sums never wrap past 255 (Paeth predicts values, not their bytes).
        func walk(_ n: Int) -> [UInt32] {
            var v: UInt32 = 64
            return (0..<n).map { _ in
                let step = noise() % 8 + 1
                v = (noise() % 2 == 0 && v + step <= 127) || v < step ? v + step : v - step
                return v
            }
        }
        let fx = walk(width), gy = walk(height)
        var pixels: [UInt32] = []
        for y in 0..<height {
            let band = y / 250
            for x in 0..<width {
                let rgb: UInt32
                switch band {
                case 0: rgb = [0x00, 0x03, 0xFD][Int(noise() % 3)] * 0x010101
                case 1: rgb = y % 2 == 0 ? noise() : pixels[pixels.count - width] & 0xFFFFFF
                case 2: rgb = UInt32((x * 5 + y * 97) & 0xff) * 0x010101
                default: rgb = (fx[x] + gy[y]) * 0x010101
                }
                pixels.append(0xFF00_0000 | rgb)
            }
        }
        // One translucent pixel makes the PNG RGBA.
        if !opaque { pixels[pixels.count - 1] = 0x8012_3456 }
        let image = PNGImage(width: width, height: height, pixels: pixels)
        let path = try tempDir() + "/filters.png"
        try image.write(to: path)
        let read = try PNGImage.read(from: path)
        expectSame(read, image)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let (chunks, data) = self.chunks(bytes)
        #expect(chunks.first == "IHDR" && chunks.last == "IEND" && chunks.filter { $0 == "IDAT" }.count >= 2, "\(chunks)")
        #expect(bytes[25] == (opaque ? 2 : 6), "colour type: RGB when every pixel is opaque")
        // The filter byte that starts each scanline, band by band.
        let lineBytes = width * (opaque ? 3 : 4) + 1
        let scanlines = try inflate(data, size: height * lineBytes)
        let filters = (0..<4).map { band in Set((band * 250 + 1..<(band + 1) * 250).map { scanlines[$0 * lineBytes] }) }
        #expect(filters[0] == [0] && filters[1].contains(2) && filters[2] == [1] && filters[3] == [4],
                "None, Up (the repeated rows), Sub, Paeth: \(filters)")
    }

    /// A row like the one above filters to zeros by Up, or by None where it is all zero bytes
    /// (transparent), as the filters' sums choose (the encoder skips the sums for such rows).
    @Test func rowsLikeTheOneAboveTakeUpOrNoneWhenZero() throws {
        let width = 40
        let clear = [UInt32](repeating: 0, count: width), white = [UInt32](repeating: 0xFFFF_FFFF, count: width)
        let ramp = (0..<width).map { 0x8000_0000 | UInt32($0 * 6) * 0x010101 }
        let rows = [clear, clear, white, white, white, ramp, ramp, clear, clear]
        let image = PNGImage(width: width, height: rows.count, pixels: rows.flatMap { $0 })
        let bytes = try image.encode()
        expectSame(try PNGImage.decode(bytes), image)
        let lineBytes = width * 4 + 1
        let scanlines = try inflate(chunks(bytes).data, size: rows.count * lineBytes)
        let filters = (0..<rows.count).map { scanlines[$0 * lineBytes] }
        #expect(filters == [0, 0, filters[2], 2, 2, filters[5], 2, 0, 0], "\(filters)")
        for y in [1, 3, 4, 6, 8] {
            #expect(scanlines[(y * lineBytes + 1)..<((y + 1) * lineBytes)].allSatisfy { $0 == 0 }, "row \(y)")
        }
    }

    /// A PNG's chunk types in order, and its IDAT chunks' data joined.
    private func chunks(_ bytes: [UInt8]) -> (types: [String], data: [UInt8]) {
        var types: [String] = [], data: [UInt8] = [], at = 8
        while at + 8 <= bytes.count {
            let length = bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self)
            types.append(type)
            if type == "IDAT" { data += bytes[(at + 8)..<(at + 8 + length)] }
            at += 12 + length
        }
        return (types, data)
    }

    /// A stream at and past the size where it is made in two parts (zlib's, ended by a flush,
    /// then libdeflate's, the checksums combined) inflates to its data by libdeflate and by zlib,
    /// both checking the Adler-32; so does one just under it, made whole.
    @Test(arguments: [ZlibStream.splitBytes - 1, ZlibStream.splitBytes, 3 * ZlibStream.splitBytes + 7])
    func aStreamMadeInTwoPartsInflatesWhole(size: Int) throws {
        var random: UInt32 = 99
        // Runs of repeated bytes and noise, so that both parts hold matches and literals.
        var data = [UInt8](), byte: UInt8 = 0
        while data.count < size {
            random = random &* 1_103_515_245 &+ 12345
            if random >> 31 == 0 { byte = UInt8(truncatingIfNeeded: random >> 16) }
            data += [UInt8](repeating: byte, count: min(size - data.count, Int(random >> 8 & 31) + 1))
        }
        let stream = try #require(data.withUnsafeBytes { ZlibStream.compress($0, level: 6) })
        #expect(try inflate(stream, size: size) == data)
        var out = [UInt8](repeating: 0, count: size), length = uLongf(size)
        let result = out.withUnsafeMutableBufferPointer { o in stream.withUnsafeBufferPointer { uncompress(o.baseAddress, &length, $0.baseAddress, uLong($0.count)) } }
        #expect(result == Z_OK && Int(length) == size && out == data, "zlib's inflate: \(result)")
    }

    /// The zlib stream `data` inflated, `size` bytes.
    private func inflate(_ data: [UInt8], size: Int) throws -> [UInt8] {
        let d = try #require(libdeflate_alloc_decompressor())
        defer { libdeflate_free_decompressor(d) }
        var out = [UInt8](repeating: 0, count: size), actual = 0
        let result = data.withUnsafeBytes { i in
            out.withUnsafeMutableBytes { o in libdeflate_zlib_decompress(d, i.baseAddress, i.count, o.baseAddress, o.count, &actual) }
        }
        #expect(result == LIBDEFLATE_SUCCESS && actual == size)
        return out
    }

    @Test func aWriteIntoAMissingFolderFailsAndLeavesNothing() throws {
        let dir = try tempDir()
        #expect(throws: FileError.self) { try PNGImage(width: 1, height: 1, pixels: [0xFF00_0000]).write(to: dir + "/missing/c.png") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == [])
    }

    @Test(.disabled(if: getuid() == 0, "root ignores folder permissions"))
    func failedWriteLeavesTheOldFileAndNoTemporary() throws {
        let dir = try tempDir()
        let path = dir + "/c.png"
        try PNGImage(width: 1, height: 1, pixels: [0xFF12_3456]).write(to: path)
        chmod(dir, 0o500)
        defer { chmod(dir, 0o700) }
        #expect(throws: FileError.self) { try PNGImage(width: 1, height: 1, pixels: [0xFF00_0000]).write(to: path) }
        #expect(try PNGImage.read(from: path).pixels == [0xFF12_3456])
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["c.png"])
    }

    /// Found by make fuzz: libpng allocates and zeroes the length a chunk before the image data
    /// claims before it reads the chunk, so 40 bytes whose text chunk claimed 2 GB took 2 GB and
    /// seconds before it found the data missing. Files and pasted bytes are refused first.
    @Test func aChunkClaimingMoreThanThePNGHasIsRefusedBeforeLibpngReadsIt() throws {
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            let crc = body.withUnsafeBytes { libdeflate_crc32(0, $0.baseAddress, $0.count) }
            return [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: data.count >> $0) } + body
                + [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: crc >> $0) }
        }
        let header = PNGImage.signature + chunk("IHDR", [0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0])
        let png = header + [0x7E, 0, 0, 0] + Array("tEXtComment\0hi".utf8)
        let path = try tempDir() + "/claims.png"
        try Data(png).write(to: URL(fileURLWithPath: path))
        let refusal = "cut off: the data ends before the picture does"
        #expect(#expect(throws: PNGError.self) { try PNGImage.decode(png) } == PNGError(.truncated, refusal))
        #expect(#expect(throws: PNGError.self) { try PNGImage.read(from: path) } == PNGError(.truncated, refusal))
        // After the image data libpng stops reading: a chunk cut short there is no matter, as before.
        let image = PNGImage(width: 2, height: 1, pixels: [0xFF00_0000, 0xFFFF_FFFF])
        let cut = try image.encode().dropLast(12) + [0, 0, 0, 100] + Array("tEXt".utf8)
        #expect(try PNGImage.decode(Array(cut)) == image)
    }

    @Test func readingGarbageIsAnError() throws {
        let path = try tempDir() + "/bad.png"
        try Data("not a png".utf8).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: PNGError.self) { try PNGImage.read(from: path) }
        #expect(error == PNGError(.notPNG, "not a PNG file"))
    }
}
