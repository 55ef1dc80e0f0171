import CVector

/// The dab kernel's hot path four pixels at a time: the mask of a dab that is not anti-aliased
/// (radius 3 and up) and pigment source-over (`DabPaint.Kind.pigment`, what every stock MyPaint 2
/// brush paints with), each lane computing exactly what `DabMask.opacity` and
/// `DabPaint.applyPigment` compute for its pixel, in the same operations, so the bytes are the same.
///
/// SSE2 (the x86-64 baseline) converts floats to integers only one at a time; where C converts a
/// float (or double) that is known to be non-negative and below 2²², the lanes here round it with
/// a magic number instead (`DabLanes.truncated`), which gives the same integer.
enum DabRows {
    typealias F4 = SIMD4<Float>
    typealias U4 = SIMD4<UInt32>
    typealias D4 = SIMD4<Double>

    /// The mask's opacities (0…1<<15) at pixels x…x+3 of row y, for a dab that is not anti-aliased.
    @inline(__always) static func opacities(_ m: DabMask, x: Int, y: Int, lx: Float, ly: Float) -> U4 {
        let yy = Float(y) + 0.5 - ly
        let xx = F4(Float(x), Float(x + 1), Float(x + 2), Float(x + 3)) + 0.5 - lx
        let yyr = (yy * m.cs - xx * m.sn) * m.aspectRatio
        let xxr = yy * m.sn + xx * m.cs
        let rr = (yyr * yyr + xxr * xxr) * m.oneOverRadius2
        let below = rr .<= m.hardness
        var opa = F4(repeating: m.segment2Offset).replacing(with: m.segment1Offset, where: below)
        opa += rr * F4(repeating: m.segment2Slope).replacing(with: m.segment1Slope, where: below)
        let v = (opa * 32768).replacing(with: 0, where: rr .> 1 .| .!(opa .> 0))
        return DabLanes.u32(DabLanes.truncated(v.replacing(with: 65535, where: v .> 65535)))
    }

    /// Pigment source-over on the four pixels at `p` (16 values) where `mask` is not 0.
    @inline(__always) static func pigment(_ paint: DabPaint, mask: U4, at p: UnsafeMutablePointer<UInt16>) {
        let raw = UnsafeMutableRawPointer(p).loadUnaligned(as: SIMD16<UInt16>.self)
        let r = U4(UInt32(raw[0]), UInt32(raw[4]), UInt32(raw[8]), UInt32(raw[12]))
        let g = U4(UInt32(raw[1]), UInt32(raw[5]), UInt32(raw[9]), UInt32(raw[13]))
        let b = U4(UInt32(raw[2]), UInt32(raw[6]), UInt32(raw[10]), UInt32(raw[14]))
        let a = U4(UInt32(raw[3]), UInt32(raw[7]), UInt32(raw[11]), UInt32(raw[15]))
        let opacity = U4(repeating: max(paint.paintNormalOpacity, 150))
        let opaA = (mask &* opacity) &>> 15, opaB = 32768 &- opaA
        let outA = opaA &+ ((opaB &* a) &>> 15)
        // Where the pixel is transparent: plain source-over.
        let c = paint.color
        var nr = (opaA &* c.r &+ opaB &* r) &>> 15
        var ng = (opaA &* c.g &+ opaB &* g) &>> 15
        var nb = (opaA &* c.b &+ opaB &* b) &>> 15
        let painted = a .!= 0
        if any(painted .& (mask .!= 0)) {
            let faA = DabLanes.float(opaA) / DabLanes.float(outA)
            let faB = F4(1 - D4(faA))
            let fa = DabLanes.float(a)
            let mixed = DabLanes.mix(paint.logCurve, faA, r: DabLanes.float(r) / fa, g: DabLanes.float(g) / fa, b: DabLanes.float(b) / fa, faB)
            let fOut = DabLanes.float(outA)
            nr = nr.replacing(with: DabLanes.roundedHalfUp(mixed.r * fOut), where: painted)
            ng = ng.replacing(with: DabLanes.roundedHalfUp(mixed.g * fOut), where: painted)
            nb = nb.replacing(with: DabLanes.roundedHalfUp(mixed.b * fOut), where: painted)
        }
        let on = mask .!= 0
        var out = raw
        for i in 0..<4 where on[i] {
            out[4 * i] = UInt16(truncatingIfNeeded: nr[i])
            out[4 * i + 1] = UInt16(truncatingIfNeeded: ng[i])
            out[4 * i + 2] = UInt16(truncatingIfNeeded: nb[i])
            out[4 * i + 3] = UInt16(truncatingIfNeeded: outA[i])
        }
        UnsafeMutableRawPointer(p).storeBytes(of: out, as: SIMD16<UInt16>.self)
    }

    /// The dab's mask as DabRows.c takes it (its centre in the tile's own coordinates).
    static func vectorMask(_ m: DabMask, lx: Float, ly: Float) -> qs_dab_mask {
        qs_dab_mask(lx: lx, ly: ly, cs: m.cs, sn: m.sn, aspect_ratio: m.aspectRatio, one_over_radius2: m.oneOverRadius2,
                    hardness: m.hardness, segment1_offset: m.segment1Offset, segment1_slope: m.segment1Slope,
                    segment2_offset: m.segment2Offset, segment2_slope: m.segment2Slope, antialiased: m.antialiased ? 1 : 0,
                    r_aa_start: m.rAAStart, rad_area_one: DabMask.radAreaOne, radius: m.radius)
    }

    /// The dab as DabRows.c takes it: its passes (`DabPaint.passesInC`) and their colour.
    static func vectorDab(_ s: DabStamp, lx: Float, ly: Float) -> qs_dab {
        let p = s.paint, log = p.logCurve
        return qs_dab(mask: vectorMask(s.mask, lx: lx, ly: ly), normal_pass: p.passNormal ? 1 : 0, paint_pass: p.passPaintNormal ? 1 : 0,
                      normal_opacity: p.normalOpacity, paint_opacity: p.paintNormalOpacity, color_a: p.colorA15,
                      r: p.color.r, g: p.color.g, b: p.color.b,
                      log_curve: (log[0], log[1], log[2], log[3], log[4], log[5], log[6], log[7], log[8], log[9]),
                      spectral: Spectral.table)
    }
}
