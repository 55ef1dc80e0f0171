import CDeflate
import Dispatch
import Foundation

/// PNG bytes, written here rather than through libpng's defaults, which spend most of an export
/// choosing filters and compressing with zlib at level 6.
///
/// Each scanline gets the filter, of None, Sub, Up and Paeth, whose filtered bytes have the
/// least sum of absolute values (libpng's heuristic, without Average, which saved under 0.2 % on
/// the pictures measured): a drawing's flat colours mostly stay unfiltered, which compresses
/// best, while a pasted photograph's rows take Paeth or Sub. The scanlines are compressed at
/// level 6 into one zlib stream, a large one on two cores (`ZlibStream`). The README's figures
/// say what that trades.
enum PNGEncoder {
    /// libdeflate's level: 6 is its default, near zlib 9 in size, faster than zlib 1.
    static let level: Int32 = 6

    /// The PNG of `image`: 8-bit RGB when every pixel is opaque, else RGBA.
    static func encode(_ image: PNGImage) throws(PNGError) -> [UInt8] {
        guard image.width > 0, image.height > 0, image.pixels.count == image.width * image.height else {
            throw PNGError(.invalidImage, "cannot encode a \(image.width)x\(image.height) PNG of \(image.pixels.count) pixels")
        }
        let opaque = image.pixels.allSatisfy { $0 >> 24 == 0xff }
        let scanlines = filtered(image, opaque: opaque)
        guard let compressed = scanlines.withUnsafeBytes({ ZlibStream.compress($0, level: level) }) else {
            throw PNGError(.encodingFailed, "cannot encode PNG: compression failed (out of memory)")
        }

        var png = PNGImage.signature
        var header: [UInt8] = []
        header.appendBigEndian(UInt32(image.width))
        header.appendBigEndian(UInt32(image.height))
        header += [8, opaque ? 2 : 6, 0, 0, 0]   // 8 bits, RGB or RGBA, deflate, adaptive filters, no interlace
        appendChunk("IHDR", header, to: &png)
        // IDAT chunks of at most 1 MiB: what every reader handles.
        var start = 0
        repeat {
            let end = min(compressed.count, start + (1 << 20))
            appendChunk("IDAT", compressed[start..<end], to: &png)
            start = end
        } while start < compressed.count
        appendChunk("IEND", [], to: &png)
        return png
    }

    /// Every scanline, its filter byte first. Bands of rows are filtered in parallel: a row's
    /// filter depends only on it and the row above, so the bytes are the same for any split.
    private static func filtered(_ image: PNGImage, opaque: Bool) -> [UInt8] {
        let channels = opaque ? 3 : 4, rowBytes = image.width * channels, lineBytes = rowBytes + 1
        let bands = max(1, min(ProcessInfo.processInfo.activeProcessorCount, image.height / 64))
        return image.pixels.withUnsafeBufferPointer { pixels in
            [UInt8](unsafeUninitializedCapacity: image.height * lineBytes) { out, count in
                let source = UncheckedSendable(pixels.baseAddress!), target = UncheckedSendable(out.baseAddress!)
                DispatchQueue.concurrentPerform(iterations: bands) { band in
                    let rows = (image.height * band / bands)..<(image.height * (band + 1) / bands)
                    let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: 2 * rowBytes)
                    defer { scratch.deallocate() }
                    var previous = scratch + rowBytes, current = scratch
                    if rows.lowerBound == 0 {
                        previous.update(repeating: 0, count: rowBytes)
                    } else {
                        unpack(source.value + (rows.lowerBound - 1) * image.width, count: image.width, opaque: opaque, into: previous)
                    }
                    // Whether the row in `previous` is all zero bytes, once asked.
                    var previousIsZero: Bool?
                    for y in rows {
                        let row = source.value + y &* image.width, out = target.value + y &* lineBytes
                        // A row like the one above (a drawing's blank rows, a quarter of a
                        // brush's picture) filters to zeros by Up, which the choice below
                        // takes (Up leaves 0, None and Sub more), unless the row is all zero,
                        // where None comes first: the same bytes, without unpacking or summing.
                        if y > 0, memcmp(row, row - image.width, image.width &* 4) == 0 {
                            let zero = previousIsZero ?? UnsafeBufferPointer(start: previous, count: rowBytes).allSatisfy { $0 == 0 }
                            previousIsZero = zero
                            out[0] = zero ? 0 : 2
                            (out + 1).update(repeating: 0, count: rowBytes)
                            continue
                        }
                        unpack(row, count: image.width, opaque: opaque, into: current)
                        filter(current, above: previous, bytes: rowBytes, channels: channels, into: out)
                        swap(&previous, &current)
                        previousIsZero = nil
                    }
                }
                count = image.height * lineBytes
            }
        }
    }

    /// A row of 0xAARRGGBB pixels as R, G, B (and A) bytes.
    @inline(__always)
    private static func unpack(_ pixels: UnsafePointer<UInt32>, count: Int, opaque: Bool, into row: UnsafeMutablePointer<UInt8>) {
        if opaque {
            for x in 0..<count {
                let p = pixels[x], o = x &* 3
                row[o] = UInt8(truncatingIfNeeded: p >> 16); row[o &+ 1] = UInt8(truncatingIfNeeded: p >> 8); row[o &+ 2] = UInt8(truncatingIfNeeded: p)
            }
        } else {
            for x in 0..<count {
                let p = pixels[x], o = x &* 4
                row[o] = UInt8(truncatingIfNeeded: p >> 16); row[o &+ 1] = UInt8(truncatingIfNeeded: p >> 8)
                row[o &+ 2] = UInt8(truncatingIfNeeded: p); row[o &+ 3] = UInt8(truncatingIfNeeded: p >> 24)
            }
        }
    }

    /// Writes the filter byte and the row filtered by the filter (None 0, Sub 1, Up 2, Paeth 4)
    /// whose bytes, read as signed, have the least sum of magnitudes.
    @inline(__always)
    private static func filter(_ row: UnsafePointer<UInt8>, above: UnsafePointer<UInt8>, bytes: Int, channels: Int,
                               into out: UnsafeMutablePointer<UInt8>) {
        let (none, sub, up) = sums(row, above: above, bytes: bytes, channels: channels)
        let body = out + 1
        // Paeth costs more to try: only where the others leave much (a photograph's rows; a
        // drawing's are mostly near zero already). Tried, it is written in place, kept if best.
        var paeth = Int.max
        if min(none, sub, up) >= bytes / 4 { paeth = paethFiltered(row, above: above, bytes: bytes, channels: channels, into: body) }
        let best = min(none, sub, up, paeth)
        let head = min(channels, bytes)
        if none == best {
            out[0] = 0
            body.update(from: row, count: bytes)
        } else if sub == best {
            out[0] = 1
            body.update(from: row, count: head)
            for i in head..<bytes { body[i] = row[i] &- row[i &- channels] }
        } else if up == best {
            out[0] = 2
            for i in 0..<bytes { body[i] = row[i] &- above[i] }
        } else {
            out[0] = 4
        }
    }

    /// A filtered byte's magnitude read as signed: 0…128.
    @inline(__always)
    private static func magnitude(_ v: UInt8) -> Int { Int(v < 128 ? v : 0 &- v) }

    /// The sums of magnitudes the None, Sub and Up filters leave of a row, sixteen bytes at a
    /// time: the same sums as byte by byte, so the same filters and bytes. Only lane-wise
    /// operators (shift, xor, add, mask), which the compiler keeps in vector registers; most
    /// of a save's time went here, byte by byte.
    @inline(__always)
    private static func sums(_ row: UnsafePointer<UInt8>, above: UnsafePointer<UInt8>, bytes: Int, channels: Int)
        -> (none: Int, sub: Int, up: Int) {
        var none = 0, sub = 0, up = 0
        let head = min(channels, bytes)
        for i in 0..<head {
            none &+= magnitude(row[i]); sub &+= magnitude(row[i]); up &+= magnitude(row[i] &- above[i])
        }
        let r = UnsafeRawPointer(row), a = UnsafeRawPointer(above)
        var i = head
        while i &+ 16 <= bytes {
            // 255 rounds of at most 256 fit a 16-bit lane.
            var n = Pairs(), s = Pairs(), u = Pairs(), rounds = 0
            while i &+ 16 <= bytes, rounds < 255 {
                let v = r.loadUnaligned(fromByteOffset: i, as: Bytes.self)
                n &+= pairs(magnitudes(v))
                s &+= pairs(magnitudes(v &- r.loadUnaligned(fromByteOffset: i &- channels, as: Bytes.self)))
                u &+= pairs(magnitudes(v &- a.loadUnaligned(fromByteOffset: i, as: Bytes.self)))
                i &+= 16
                rounds &+= 1
            }
            none &+= total(n); sub &+= total(s); up &+= total(u)
        }
        while i < bytes {
            let v = row[i]
            none &+= magnitude(v); sub &+= magnitude(v &- row[i &- channels]); up &+= magnitude(v &- above[i])
            i &+= 1
        }
        return (none, sub, up)
    }

    private typealias Bytes = SIMD16<UInt8>
    private typealias Pairs = SIMD8<UInt16>

    /// Sixteen bytes' magnitudes read as signed: with s its sign bit, (d xor −s) + s.
    @inline(__always)
    private static func magnitudes(_ d: Bytes) -> Bytes {
        let s = d &>> 7
        return (d ^ (0 &- s)) &+ s
    }

    /// The bytes summed in pairs into 16-bit lanes (at most 256 a lane a round, so 255 rounds
    /// fit a lane).
    @inline(__always)
    private static func pairs(_ m: Bytes) -> Pairs {
        let w = unsafeBitCast(m, to: Pairs.self)
        return (w & 0x00FF) &+ (w &>> 8)
    }

    /// A lane sum, widened first: eight lanes of up to 65,280 overflow 16 bits.
    private static func total(_ v: Pairs) -> Int { Int(SIMD8<UInt32>(truncatingIfNeeded: v).wrappedSum()) }

    /// The row filtered by Paeth into `body`, returning the sum of its magnitudes, sixteen
    /// bytes at a time: the encoder's predictor reads the unfiltered row, so no byte waits for
    /// the one before. The same steps as `paethPredictor` in 16-bit lanes, so the same bytes.
    /// (Byte by byte it was a tenth of a short `render`, drawings' stroked rows taking it.)
    @inline(__always)
    private static func paethFiltered(_ row: UnsafePointer<UInt8>, above: UnsafePointer<UInt8>, bytes: Int, channels: Int,
                                      into body: UnsafeMutablePointer<UInt8>) -> Int {
        typealias Wide = SIMD16<Int16>
        @inline(__always) func wide(_ p: UnsafeRawPointer, _ at: Int) -> Wide {
            Wide(truncatingIfNeeded: p.loadUnaligned(fromByteOffset: at, as: Bytes.self))
        }
        @inline(__always) func abs(_ v: Wide) -> Wide {
            let s = v &>> 15
            return (v ^ s) &- s
        }
        var sum = 0
        let head = min(channels, bytes)
        for i in 0..<head {
            body[i] = row[i] &- paethPredictor(0, above[i], 0)
            sum &+= magnitude(body[i])
        }
        let r = UnsafeRawPointer(row), a = UnsafeRawPointer(above), out = UnsafeMutableRawPointer(body)
        var i = head
        while i &+ 16 <= bytes {
            var n = Pairs(), rounds = 0
            while i &+ 16 <= bytes, rounds < 255 {
                let left = wide(r, i &- channels), up = wide(a, i), upLeft = wide(a, i &- channels)
                let pa = abs(up &- upLeft), pb = abs(left &- upLeft), pc = abs(left &+ up &- upLeft &- upLeft)
                let predicted = upLeft.replacing(with: up, where: pb .<= pc).replacing(with: left, where: (pa .<= pb) .& (pa .<= pc))
                let f = r.loadUnaligned(fromByteOffset: i, as: Bytes.self) &- Bytes(truncatingIfNeeded: predicted)
                out.storeBytes(of: f, toByteOffset: i, as: Bytes.self)
                n &+= pairs(magnitudes(f))
                i &+= 16
                rounds &+= 1
            }
            sum &+= total(n)
        }
        while i < bytes {
            body[i] = row[i] &- paethPredictor(row[i &- channels], above[i], above[i &- channels])
            sum &+= magnitude(body[i])
            i &+= 1
        }
        return sum
    }

    /// PNG's Paeth predictor: of left, above and upper left, the one nearest left + above − upper left.
    @inline(__always)
    private static func paethPredictor(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 {
        let pa = abs(Int(b) &- Int(c)), pb = abs(Int(a) &- Int(c)), pc = abs(Int(a) &+ Int(b) &- 2 &* Int(c))
        return pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
    }

    /// A chunk: its length, type, data and the CRC-32 of type and data.
    private static func appendChunk(_ type: String, _ data: some Collection<UInt8>, to png: inout [UInt8]) {
        png.appendBigEndian(UInt32(data.count))
        let start = png.count
        png += Array(type.utf8)
        png += data
        let crc = png[start...].withContiguousStorageIfAvailable { libdeflate_crc32(0, $0.baseAddress, $0.count) }
            ?? Array(png[start...]).withUnsafeBytes { libdeflate_crc32(0, $0.baseAddress, $0.count) }
        png.appendBigEndian(crc)
    }
}

private extension Array where Element == UInt8 {
    mutating func appendBigEndian(_ v: UInt32) { append(contentsOf: [UInt8(v >> 24), UInt8(v >> 16 & 0xff), UInt8(v >> 8 & 0xff), UInt8(v & 0xff)]) }
}

/// A pointer handed to the worker threads, each writing rows no other touches.
private struct UncheckedSendable<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
