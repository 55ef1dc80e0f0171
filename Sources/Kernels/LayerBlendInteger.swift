import CVector

/// The integer path of `LayerBlend`: normal, which runs every frame under a live stroke.
///
/// Eight pixels at a time in the lane layout of `ComposeKernel.blendRow`: masking 0xAARRGGBB
/// with 0x00FF00FF leaves B and R in the two 16-bit halves of each pixel, shifting by 8 first
/// leaves G and A, so one 16-bit multiply serves two channels (16-bit multiplies exist on every
/// x86-64, 32-bit ones do not).
extension LayerBlend {
    typealias Lanes16 = SIMD16<UInt16>
    typealias Alphas = (UInt64, UInt64, UInt64, UInt64)

    /// Source-over: co = cs + cb·(255 − αs)/255 for all four bytes (αo included).
    static func normalRow(_ src: UnsafePointer<UInt32>, onto dst: UnsafeMutablePointer<UInt32>, count: Int, opacity: UInt32) {
        let low = SIMD8<UInt32>(repeating: 0x00FF_00FF), alphas = SIMD8<UInt32>(repeating: 0xFF00_0000)
        let full = Lanes16(repeating: 255)
        var i = 0
        while i &+ 8 <= count {
            let s = scaled8(UnsafeRawPointer(src + i).loadUnaligned(as: SIMD8<UInt32>.self), opacity)
            let a = unsafeBitCast(s & alphas, to: Alphas.self)
            // A layer is mostly bare or solid: runs of eight that need no multiply are common.
            if a.0 | a.1 | a.2 | a.3 == 0 { i &+= 8; continue }
            if a.0 & a.1 & a.2 & a.3 == 0xFF00_0000_FF00_0000 {
                UnsafeMutableRawPointer(dst + i).storeBytes(of: s, as: SIMD8<UInt32>.self)
                i &+= 8
                continue
            }
            // 255 − αs in both halves of each pixel, with shifts only.
            let inv = full &- unsafeBitCast((s &>> 24) | ((s &>> 8) & 0x00FF_0000), to: Lanes16.self)
            let d = UnsafeRawPointer(dst + i).loadUnaligned(as: SIMD8<UInt32>.self)
            let br = unsafeBitCast(d & low, to: Lanes16.self), ga = unsafeBitCast((d &>> 8) & low, to: Lanes16.self)
            let keptBR = unsafeBitCast(mul255(br, inv), to: SIMD8<UInt32>.self)
            let keptGA = unsafeBitCast(mul255(ga, inv), to: SIMD8<UInt32>.self)
            // The sums stay within each byte: cs ≤ αs and cb·(255 − αs)/255 ≤ 255 − αs.
            UnsafeMutableRawPointer(dst + i).storeBytes(of: s &+ (keptBR | keptGA &<< 8), as: SIMD8<UInt32>.self)
            i &+= 8
        }
        while i < count {
            let s = opacity == 255 ? src[i] : scaled(src[i], opacity)
            dst[i] = s &+ scaled(dst[i], 255 &- (s >> 24))
            i &+= 1
        }
    }

    /// `scaled` on eight pixels.
    @inline(__always) static func scaled8(_ s: SIMD8<UInt32>, _ opacity: UInt32) -> SIMD8<UInt32> {
        guard opacity != 255 else { return s }
        let low = SIMD8<UInt32>(repeating: 0x00FF_00FF), o = Lanes16(repeating: UInt16(opacity))
        let br = mul255(unsafeBitCast(s & low, to: Lanes16.self), o)
        let ga = mul255(unsafeBitCast((s &>> 8) & low, to: Lanes16.self), o)
        return unsafeBitCast(br, to: SIMD8<UInt32>.self) | unsafeBitCast(ga, to: SIMD8<UInt32>.self) &<< 8
    }

    /// `Blend.mul255` on sixteen lanes: x·y + 128 < 2¹⁶ for x, y ≤ 255.
    @inline(__always) static func mul255(_ x: Lanes16, _ y: Lanes16) -> Lanes16 {
        let t = x &* y &+ 128
        return Lanes16(lowHalf: div255(t.lowHalf), highHalf: div255(t.highHalf))
    }

    /// (t + t / 256) / 256, the rounding of `Blend.mul255`, as (t · 257) / 2¹⁶: the same for
    /// every 16-bit t (Blinn), and one high-half multiply (`pmulhuw`) where the shifts and adds
    /// were four instructions (CVector: Swift's own widening stays a call in a large kernel).
    @inline(__always) static func div255(_ t: SIMD8<UInt16>) -> SIMD8<UInt16> { qs_mulhi257(t) }
}
