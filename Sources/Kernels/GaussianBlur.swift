import Compute
import Foundation
import Geometry

/// A separable Gaussian blur of an 8-bit coverage image (255 = 1.0) into floats, over a region
/// only: it reads `radius` pixels around it (outside the image counts as 0).
///
/// Start at `rows(of:over:…)`: a threadgroup takes a band of rows and runs both passes through a
/// small ring of horizontally blurred rows that stays in cache, so no image-sized intermediate
/// goes to memory. Both passes are one convolution loop (`convolve`), the symmetric kernel folded,
/// that keeps a run of outputs in registers while it adds up the taps. Every pixel sums the same products in the same tap
/// order wherever it falls, so the result is bit-identical for any thread count and any region.
public struct GaussianBlur: Sendable {
    public let sigma: Float
    public let radius: Int
    /// Weights for offsets −radius…radius, summing to 1.
    public let weights: [Float]

    /// σ with a 3σ radius.
    public init(sigma: Float) {
        self.sigma = sigma
        radius = Int((3 * sigma).rounded(.up))
        let raw = (-radius...radius).map { k in Float(exp(-Double(k * k) / (2 * Double(sigma) * Double(sigma)))) }
        let total = raw.reduce(0, +)
        weights = raw.map { $0 / total }
    }

    /// Blurs `source` over `region` into `output`. Returns the region written (clipped to the
    /// image).
    @discardableResult
    public func run(_ source: Texture<UInt8>, over region: Rect, into output: Texture<Float>, on compute: ComputeContext) -> Rect {
        rows(of: source, over: region.intersection(output.bounds), on: compute) { y, _ in output.row(y) } finish: { _, _, _ in }
    }

    /// Blurs `source` over `region` a row at a time, handing each blurred row to `body(y, row,
    /// xs)` (`row[x]` for x in `xs`) while it is still in cache; the row is gone afterwards.
    /// Rows arrive on worker threads, each exactly once. Returns the region blurred.
    @discardableResult
    public func run(_ source: Texture<UInt8>, over region: Rect, on compute: ComputeContext,
                    eachRow body: @escaping @Sendable (_ y: Int, _ row: UnsafeMutablePointer<Float>, _ xs: Range<Int>) -> Void) -> Rect {
        rows(of: source, over: region, on: compute, destination: { _, line in line }, finish: body)
    }

    /// Blurs and thresholds in one go (MercurialPaint's blur → threshold): `mask` gets 255 where
    /// the blurred value is above 0.5, else 0, over `region`. Returns the region written.
    @discardableResult
    public func runThresholded(_ source: Texture<UInt8>, over region: Rect, into mask: Texture<UInt8>, on compute: ComputeContext) -> Rect {
        run(source, over: region.intersection(mask.bounds), on: compute) { y, row, xs in
            Threshold.row(row, into: mask.row(y), xs: xs)
        }
    }

    /// Both passes, a band of rows per threadgroup: each source row's horizontal blur goes into
    /// a ring of `taps` rows (written twice, at slot k and k + taps, so any `taps` consecutive rows
    /// sit at a fixed stride), and each output row is the vertical sum over that ring, in cache.
    /// The output row goes where `destination(y, line)` points (`line` is the group's own row
    /// buffer), then `finish(y, row, xs)` may consume it. Returns `region` clipped.
    private func rows(of source: Texture<UInt8>, over region: Rect, on compute: ComputeContext,
                      destination: @escaping @Sendable (Int, UnsafeMutablePointer<Float>) -> UnsafeMutablePointer<Float>,
                      finish: @escaping @Sendable (Int, UnsafeMutablePointer<Float>, Range<Int>) -> Void) -> Rect {
        let out = region.intersection(source.bounds)
        guard !out.isEmpty else { return .empty }
        // The kernel is symmetric: `convolve` takes its centre and one side (w[0] the centre).
        let radius = self.radius, half = Array(weights[radius...]), taps = weights.count, width = out.width
        let halfOver255 = half.map { $0 / 255 }
        // A source row's bytes as floats with `radius` columns either side (0 outside the image),
        // so every horizontal output is the same straight sum: no edge cases in the loop.
        let from = max(out.minX - radius, 0), to = min(out.maxX + radius, source.width)
        let padded = width + 2 * radius, lead = from - (out.minX - radius)
        // One band per worker: each band recomputes `2·radius` horizontal rows of its
        // neighbours', so few tall bands waste least.
        let bandRows = max(2 * radius, (out.height + compute.threadCount - 1) / compute.threadCount)
        compute.dispatchRows(over: out, rows: bandRows) { group in
            let g = group.threadPositions
            let ring = UnsafeMutablePointer<Float>.allocate(capacity: 2 * taps * width)
            let bytes = UnsafeMutablePointer<Float>.allocate(capacity: padded)
            let line = UnsafeMutablePointer<Float>.allocate(capacity: source.width)
            defer { ring.deallocate(); bytes.deallocate(); line.deallocate() }
            bytes.initialize(repeating: 0, count: padded)
            // Row `y` of the source lives at slot (y mod taps) of the ring, and again `taps` later.
            func slot(_ y: Int) -> UnsafeMutablePointer<Float> { ring + ((y % taps + taps) % taps) * width }
            half.withUnsafeBufferPointer { w in
                halfOver255.withUnsafeBufferPointer { ws in
                    var next = g.minY - radius
                    for y in g.ys {
                        // Source rows y − radius … y + radius; those outside the image are 0.
                        while next <= y + radius {
                            let slot = slot(next)
                            if next >= 0 && next < source.height {
                                let src = source.row(next)
                                for x in from..<to { bytes[lead &+ x &- from] = Float(src[x]) }
                                Self.convolve(bytes + radius, tapStride: 1, weights: ws, count: width, into: slot)
                            } else {
                                slot.update(repeating: 0, count: width)
                            }
                            (slot + taps * width).update(from: slot, count: width)
                            next += 1
                        }
                        let dst = destination(y, line)
                        Self.convolve(slot(y - radius) + radius * width, tapStride: width, weights: w, count: width, into: dst + out.minX)
                        finish(y, dst, out.minX..<out.maxX)
                    }
                }
            }
        }
        return out
    }

    /// dst[j] = w[0]·src[j] + Σ w[k]·(src[j − k·tapStride] + src[j + k·tapStride]) for j in
    /// 0..<count and k from 1: a symmetric kernel folded, so half the multiplies.
    ///
    /// Thirty-two outputs at a time stay in registers across all taps (eight independent sums,
    /// enough to hide the add latency), then eight, then one; each path adds the same products in
    /// the same order, so where a pixel falls in a row never changes its value.
    @inline(__always)
    private static func convolve(_ src: UnsafePointer<Float>, tapStride: Int, weights w: UnsafeBufferPointer<Float>,
                                 count: Int, into dst: UnsafeMutablePointer<Float>) {
        var j = 0
        while j &+ 32 <= count {
            let c = UnsafeRawPointer(src + j)
            var a = SIMD16(repeating: w[0]) * c.loadUnaligned(as: SIMD16<Float>.self)
            var b = SIMD16(repeating: w[0]) * c.loadUnaligned(fromByteOffset: 64, as: SIMD16<Float>.self)
            for k in 1..<w.count {
                let lo = UnsafeRawPointer(src + (j &- k &* tapStride)), hi = UnsafeRawPointer(src + (j &+ k &* tapStride))
                let weight = SIMD16<Float>(repeating: w[k])
                a += weight * (lo.loadUnaligned(as: SIMD16<Float>.self) + hi.loadUnaligned(as: SIMD16<Float>.self))
                b += weight * (lo.loadUnaligned(fromByteOffset: 64, as: SIMD16<Float>.self) + hi.loadUnaligned(fromByteOffset: 64, as: SIMD16<Float>.self))
            }
            let q = UnsafeMutableRawPointer(dst + j)
            q.storeBytes(of: a, as: SIMD16<Float>.self)
            q.storeBytes(of: b, toByteOffset: 64, as: SIMD16<Float>.self)
            j &+= 32
        }
        while j &+ 8 <= count {
            var a = SIMD8(repeating: w[0]) * UnsafeRawPointer(src + j).loadUnaligned(as: SIMD8<Float>.self)
            for k in 1..<w.count {
                let lo = UnsafeRawPointer(src + (j &- k &* tapStride)), hi = UnsafeRawPointer(src + (j &+ k &* tapStride))
                a += SIMD8(repeating: w[k]) * (lo.loadUnaligned(as: SIMD8<Float>.self) + hi.loadUnaligned(as: SIMD8<Float>.self))
            }
            UnsafeMutableRawPointer(dst + j).storeBytes(of: a, as: SIMD8<Float>.self)
            j &+= 8
        }
        while j < count {
            var a = w[0] * src[j]
            for k in 1..<w.count { a += w[k] * (src[j &- k &* tapStride] + src[j &+ k &* tapStride]) }
            dst[j] = a
            j &+= 1
        }
    }
}

/// Binary threshold: 255 where the value is above 0.5, else 0 (MercurialPaint's luma > 0.5; a
/// coverage image is its own luma).
public enum Threshold {
    /// The threshold of one value.
    @inlinable @inline(__always) public static func level(_ v: Float) -> UInt8 { v > 0.5 ? 255 : 0 }

    public static func run(_ source: Texture<Float>, over region: Rect, into mask: Texture<UInt8>, on compute: ComputeContext) {
        compute.dispatchRows(over: region.intersection(source.bounds).intersection(mask.bounds)) { group in
            for y in group.threadPositions.ys { row(source.row(y), into: mask.row(y), xs: group.threadPositions.xs) }
        }
    }

    /// One row, sixteen values at a time: a lane of the comparison's mask is all ones (−1),
    /// whose low byte is 255.
    @inline(__always)
    static func row(_ src: UnsafeMutablePointer<Float>, into dst: UnsafeMutablePointer<UInt8>, xs: Range<Int>) {
        var x = xs.lowerBound
        while x &+ 16 <= xs.upperBound {
            let above = UnsafeRawPointer(src + x).loadUnaligned(as: SIMD16<Float>.self) .> 0.5
            UnsafeMutableRawPointer(dst + x).storeBytes(of: SIMD16<UInt8>(truncatingIfNeeded: unsafeBitCast(above, to: SIMD16<Int32>.self)),
                                                        as: SIMD16<UInt8>.self)
            x &+= 16
        }
        while x < xs.upperBound { dst[x] = level(src[x]); x &+= 1 }
    }
}
