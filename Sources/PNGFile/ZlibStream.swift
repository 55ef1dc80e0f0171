import CDeflate
import Dispatch

/// The zlib stream (RFC 1950) of a PNG's scanlines, compressed on two cores at once when it is
/// large: compressing was the longest part of a save that nothing else ran beside.
///
/// A zlib stream is a header, DEFLATE blocks and the Adler-32 of what they hold, and the blocks
/// may be made in pieces (as pigz does): the first part by zlib's deflate, ended with a sync
/// flush, which closes its last block with an empty stored block on a byte boundary, so that
/// the second part's blocks, made by libdeflate (which cannot flush, only finish), follow it
/// byte for byte; the two checksums are combined. The second part cannot refer back into the
/// first, which costs a few hundred bytes. Where the data is cut depends only on its length,
/// so the bytes are the same on any number of cores.
enum ZlibStream {
    /// Data under this many bytes is one libdeflate call: a second thread is not worth its start.
    static let splitBytes = 1 << 19

    /// zlib's share of the data: at the same level its deflate takes about 2.3 times as long as
    /// libdeflate's on drawings (docs/performance.md), so that both parts end together.
    static let zlibShare = 0.33

    /// `data` compressed at `level` (1…9), or nil when a compressor cannot be had (out of memory).
    static func compress(_ data: UnsafeRawBufferPointer, level: Int32) -> [UInt8]? {
        guard data.count >= splitBytes else { return whole(data, level: level) }
        let cut = Int(Double(data.count) * zlibShare)
        let parts = Parts(data)
        DispatchQueue.concurrentPerform(iterations: 2) { part in
            if part == 0 { parts.first = flushed(parts.data[..<cut], level: level) } else { parts.second = finished(parts.data[cut...], level: level) }
        }
        guard let a = parts.first, let b = parts.second else { return nil }
        let adler = adler32_combine(a.adler, b.adler, off_t(data.count - cut))
        var stream: [UInt8] = [0x78, 0x9C]   // deflate, a 32 KiB window, the default level's flag
        stream.reserveCapacity(2 + a.bytes.count + b.bytes.count + 4)
        stream += a.bytes
        stream += b.bytes
        stream += [UInt8(adler >> 24 & 0xFF), UInt8(adler >> 16 & 0xFF), UInt8(adler >> 8 & 0xFF), UInt8(adler & 0xFF)]
        return stream
    }

    /// The whole stream by libdeflate.
    private static func whole(_ data: UnsafeRawBufferPointer, level: Int32) -> [UInt8]? {
        libdeflate(data, level: level, bound: libdeflate_zlib_compress_bound, compress: libdeflate_zlib_compress)
    }

    /// `data` compressed by libdeflate at `level` through `compress` (a zlib stream, or raw
    /// DEFLATE), into at most `bound` bytes; nil when that fails.
    private static func libdeflate(_ data: UnsafeRawBufferPointer, level: Int32,
                                   bound: (OpaquePointer?, Int) -> Int,
                                   compress: (OpaquePointer?, UnsafeRawPointer?, Int, UnsafeMutableRawPointer?, Int) -> Int) -> [UInt8]? {
        guard let compressor = libdeflate_alloc_compressor(level) else { return nil }
        defer { libdeflate_free_compressor(compressor) }
        // Uninitialised: the pages past the compressed size are never touched.
        let bytes = [UInt8](unsafeUninitializedCapacity: bound(compressor, data.count)) { c, count in
            count = compress(compressor, data.baseAddress, data.count, c.baseAddress, c.count)
        }
        return bytes.isEmpty ? nil : bytes
    }

    /// A part's DEFLATE blocks and the Adler-32 of its data.
    private struct Part: Sendable {
        var bytes: [UInt8]
        var adler: UInt
    }

    /// The data and its two parts, each written by its own thread, read after both have ended.
    private final class Parts: @unchecked Sendable {
        let data: UnsafeRawBufferPointer
        var first: Part?, second: Part?
        init(_ data: UnsafeRawBufferPointer) { self.data = data }
    }

    /// The first part: zlib's raw DEFLATE, ended by a sync flush instead of a final block.
    private static func flushed(_ part: Slice<UnsafeRawBufferPointer>, level: Int32) -> Part? {
        let data = UnsafeRawBufferPointer(rebasing: part)
        var z = z_stream()
        guard deflateInit2_(&z, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { deflateEnd(&z) }
        // The bound for a finished stream, and room for the flush's empty block and its header.
        let bound = Int(deflateBound(&z, uLong(data.count))) + 64
        var ok = false
        let bytes = [UInt8](unsafeUninitializedCapacity: bound) { out, count in
            z.next_in = UnsafeMutablePointer(mutating: data.baseAddress?.assumingMemoryBound(to: Bytef.self))
            z.avail_in = uInt(data.count)
            z.next_out = out.baseAddress
            z.avail_out = uInt(out.count)
            ok = deflate(&z, Z_SYNC_FLUSH) == Z_OK && z.avail_in == 0 && z.avail_out > 0
            count = ok ? out.count - Int(z.avail_out) : 0
        }
        return ok ? Part(bytes: bytes, adler: UInt(libdeflate_adler32(1, data.baseAddress, data.count))) : nil
    }

    /// The second part: libdeflate's raw DEFLATE, its last block final.
    private static func finished(_ part: Slice<UnsafeRawBufferPointer>, level: Int32) -> Part? {
        let data = UnsafeRawBufferPointer(rebasing: part)
        guard let bytes = libdeflate(data, level: level, bound: libdeflate_deflate_compress_bound, compress: libdeflate_deflate_compress) else {
            return nil
        }
        return Part(bytes: bytes, adler: UInt(libdeflate_adler32(1, data.baseAddress, data.count)))
    }
}
