import CVector
import Foundation

/// The colour under a dab, for smudging: libmypaint 1.6's get_color, the average of the pixels a
/// round dab of hardness 0.5 covers, weighted by its mask, over 15-bit premultiplied tiles.
///
/// Two ways, as libmypaint has them: `paint` < 0 (a brush whose pigment mode is 0 throughout) sums
/// every pixel in integers tile by tile and divides once, premultiplied; `paint` ≥ 0 visits
/// every n-th pixel of each tile and a random share of the rest (drawn from `random`, the
/// sequence libmypaint's `rand()` gives), folding each into a running average of straight
/// colour, additive and, by `paint`, pigment. Tiles are visited rows first, as libmypaint does,
/// so the same surface gives the same colour.
public enum DabSampler {
    /// A colour with straight alpha, each 0…1.
    public struct Sample: Sendable, Equatable {
        public var r: Float, g: Float, b: Float, a: Float
        public init(r: Float, g: Float, b: Float, a: Float) { self.r = r; self.g = g; self.b = b; self.a = a }
    }

    /// The tiles a sample at (x, y) of `radius` reads: columns tx1...tx2, rows ty1...ty2.
    public static func tiles(x: Float, y: Float, radius: Float) -> (tx1: Int, ty1: Int, tx2: Int, ty2: Int) {
        let r = max(radius, 1) + 1
        func tileOf(_ v: Float) -> Int { Int((Double(Float(v).rounded(.down)) / 64).rounded(.down)) }
        return (tileOf(x - r), tileOf(y - r), tileOf(x + r), tileOf(y + r))
    }

    /// The colour under a dab at (x, y) of `radius`; `tile(tx, ty)` gives each tile's pixels
    /// (a transparent tile where there is none).
    /// `vectorBits` as `DabKernel.vectorBits` (less to compare the paths: the colour is the same).
    public static func sample(x: Float, y: Float, radius: Float, paint: Float, random: inout GlibcRandom,
                              vectorBits: Int = DabKernel.vectorBits, tile: (Int, Int) -> UnsafePointer<UInt16>) -> Sample {
        let radius = radius < 1 ? 1 : radius
        let mask = DabMask(x: x, y: y, radius: radius, hardness: 0.5, aspectRatio: 1, angle: 0)
        var sumWeight: Float = 0, sumR: Float = 0, sumG: Float = 0, sumB: Float = 0, sumA: Float = 0
        // Every pixel for small dabs; else every (7·radius)-th and a 1/(7·radius) share of the rest.
        let interval = UInt16(truncatingIfNeeded: radius <= 2 ? 1 : Int(radius * 7))
        let rate = 1 / (7 * radius)
        let threshold = Int32(clamping: Int64(rate * Float(Int32.max)))
        let (tx1, ty1, tx2, ty2) = tiles(x: x, y: y, radius: radius)
        for ty in ty1...ty2 {
            for tx in tx1...tx2 {
                let pixels = tile(tx, ty)
                if paint < 0 {
                    legacy(mask, pixels, tx, ty, &sumWeight, &sumR, &sumG, &sumB, &sumA)
                } else {
                    accumulate(mask, pixels, tx, ty, paint: paint, interval: interval, threshold: threshold, random: &random,
                               vectorBits: vectorBits, &sumWeight, &sumR, &sumG, &sumB, &sumA)
                }
            }
        }
        guard sumWeight > 0 else { return Sample(r: 0, g: 1, b: 0, a: 0) }
        sumA /= sumWeight
        if paint < 0 {
            sumR /= sumWeight
            sumG /= sumWeight
            sumB /= sumWeight
        }
        let a = clamp01(sumA)
        guard sumA > 0 else { return Sample(r: 0, g: 1, b: 0, a: a) }
        // Legacy sums are premultiplied: straightened here.
        let demul: Float = paint < 0 ? sumA : 1
        return Sample(r: clamp01(sumR / demul), g: clamp01(sumG / demul), b: clamp01(sumB / demul), a: a)
    }

    @inline(__always) static func clamp01(_ v: Float) -> Float { v > 1 ? 1 : (v < 0 ? 0 : v) }

    /// Every masked pixel of one tile, summed in integers (premultiplied), added to the sums.
    static func legacy(_ mask: DabMask, _ rgba: UnsafePointer<UInt16>, _ tx: Int, _ ty: Int,
                       _ sumWeight: inout Float, _ sumR: inout Float, _ sumG: inout Float, _ sumB: inout Float, _ sumA: inout Float) {
        var weight: UInt32 = 0, r: UInt32 = 0, g: UInt32 = 0, b: UInt32 = 0, a: UInt32 = 0
        let (lx, ly) = mask.local(tileX: tx, tileY: ty)
        let range = mask.tileRange(localX: lx, localY: ly)
        if range.x0 <= range.x1 && range.y0 <= range.y1 {
            for yp in range.y0...range.y1 {
                for xp in range.x0...range.x1 {
                    let opa = mask.opacity(xp: xp, yp: yp, localX: lx, localY: ly)
                    guard opa != 0 else { continue }
                    let p = rgba + (yp &* 64 &+ xp) &* 4
                    weight &+= opa
                    r &+= (opa &* UInt32(p[0])) >> 15
                    g &+= (opa &* UInt32(p[1])) >> 15
                    b &+= (opa &* UInt32(p[2])) >> 15
                    a &+= (opa &* UInt32(p[3])) >> 15
                }
            }
        }
        sumWeight += Float(weight)
        sumR += Float(r)
        sumG += Float(g)
        sumB += Float(b)
        sumA += Float(a)
    }

    /// libmypaint's get_color_pixels_accumulate over one tile: the running averages carried in
    /// the sums from tile to tile.
    static func accumulate(_ mask: DabMask, _ rgba: UnsafePointer<UInt16>, _ tx: Int, _ ty: Int, paint: Float, interval: UInt16,
                           threshold: Int32, random: inout GlibcRandom, vectorBits: Int,
                           _ sumWeight: inout Float, _ sumR: inout Float, _ sumG: inout Float, _ sumB: inout Float, _ sumA: inout Float) {
        var avgSpectral = Spectral.Curve()
        var avg = (sumR, sumG, sumB)
        if paint > 0 { avgSpectral = Spectral.curve(r: sumR, g: sumG, b: sumB) }
        var counter: UInt16 = 0
        let (lx, ly) = mask.local(tileX: tx, tileY: ty)
        let range = mask.tileRange(localX: lx, localY: ly)
        var cMask = DabRows.vectorMask(mask, lx: lx, ly: ly)
        // The pixels taken (their index in the tile, then their opacities), in order: picked,
        // then folded into the averages, each in C where the processor allows (`pick`, `fold`).
        // (A tile the dab misses still turns the averages to colour below.)
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 2 * 4096) { buffer in
            guard range.x0 <= range.x1 && range.y0 <= range.y1 else { return }
            let taken = buffer.baseAddress!, opacities = taken + 4096
            var count = Int(random.withState { state, front, rear in
                qs_sample_pick(&cMask, Int32(range.x0), Int32(range.y0), Int32(range.x1), Int32(range.y1), interval, threshold,
                               &counter, state, front, rear, taken, opacities, Int32(vectorBits))
            })
            if count < 0 {
                count = pick(mask, lx: lx, ly: ly, range: range, interval: interval, threshold: threshold, counter: &counter,
                             random: &random, taken: taken, opacities: opacities)
            }
            let folded = withUnsafeMutableBytes(of: &avgSpectral) { curve in
                withUnsafeMutableBytes(of: &avg) { rgb in
                    qs_sample_fold(rgba, taken, opacities, Int32(count), paint, Spectral.table,
                                   curve.baseAddress!.assumingMemoryBound(to: Float.self), rgb.baseAddress!.assumingMemoryBound(to: Float.self),
                                   &sumWeight, &sumA, Int32(vectorBits))
                }
            }
            if folded == 0 {
                fold(rgba, taken: taken, opacities: opacities, count: count, paint: paint, curve: &avgSpectral, avg: &avg,
                     sumWeight: &sumWeight, sumA: &sumA)
            }
        }
        let spec = Spectral.rgb(avgSpectral)
        // `spec * paint + (1.0 - paint) * avg`: the second product and the sum in double.
        let rest = 1 - Double(paint)
        sumR = Float(Double(spec.r * paint) + rest * Double(avg.0))
        sumG = Float(Double(spec.g * paint) + rest * Double(avg.1))
        sumB = Float(Double(spec.b * paint) + rest * Double(avg.2))
    }

    /// `accumulate`'s pick one pixel at a time (CVector's qs_sample_pick where the processor
    /// allows): each pixel of `range` the mask covers moves the counter on, and is taken when
    /// the counter was 0, else when the next random draw is below `threshold`. Writes the taken
    /// pixels' indices in the tile and their opacities; returns how many.
    static func pick(_ mask: DabMask, lx: Float, ly: Float, range: (x0: Int, y0: Int, x1: Int, y1: Int), interval: UInt16,
                     threshold: Int32, counter: inout UInt16, random: inout GlibcRandom, taken: UnsafeMutablePointer<UInt32>,
                     opacities: UnsafeMutablePointer<UInt32>) -> Int {
        var count = 0
        for yp in range.y0...range.y1 {
            for xp in range.x0...range.x1 {
                let opa = mask.opacity(xp: xp, yp: yp, localX: lx, localY: ly)
                guard opa != 0 else { continue }
                // (counter + 1) % interval, the counter being under the interval.
                defer { counter = interval == 0 || counter &+ 1 == interval ? 0 : counter &+ 1 }
                guard counter == 0 || random.next() < threshold else { continue }
                taken[count] = UInt32(yp &* 64 &+ xp)
                opacities[count] = opa
                count &+= 1
            }
        }
        return count
    }

    /// `accumulate`'s fold of the pixels taken into the running averages (CVector's
    /// qs_sample_fold where the processor allows, the same steps): the alpha and weight sums, by
    /// `paint` the pigment curve and the additive colour.
    static func fold(_ rgba: UnsafePointer<UInt16>, taken: UnsafePointer<UInt32>, opacities: UnsafePointer<UInt32>, count: Int,
                     paint: Float, curve: inout Spectral.Curve, avg: inout (Float, Float, Float), sumWeight: inout Float,
                     sumA: inout Float) {
        for k in 0..<count {
            let opa = opacities[k], p = rgba + Int(taken[k]) &* 4
            let pa = p[3]
            let alpha = Float(opa) * Float(pa) / Float(1 << 30)
            let alphaSums = alpha + sumA
            sumWeight += Float(opa) / 32768
            var facA: Float = 1, facB: Float = 1
            if alphaSums > 0 {
                facA = alpha / alphaSums
                facB = Float(1 - Double(facA))
            }
            if paint > 0 && pa > 0 {
                let s = Spectral.curve(r: Float(p[0]) / Float(pa), g: Float(p[1]) / Float(pa), b: Float(p[2]) / Float(pa))
                curve = Spectral.mix(s, facA, curve, facB)
            }
            if paint < 1 && pa > 0 {
                avg.0 = Float(p[0]) * facA / Float(pa) + avg.0 * facB
                avg.1 = Float(p[1]) * facA / Float(pa) + avg.1 * facB
                avg.2 = Float(p[2]) * facA / Float(pa) + avg.2 * facB
            }
            sumA += alpha
        }
    }
}
