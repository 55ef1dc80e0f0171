/// Source-over of a straight-alpha colour onto a canvas pixel, in exact 8-bit integer maths.
///
/// One formula for the live compose and the bake into the canvas, so a stroke looks the same
/// pixel for pixel while drawn and after it ends. Integer-only, so every thread count and every
/// run gives the same bytes.
public enum Blend {
    /// x·y/255 rounded to nearest, exact for x, y in 0…255.
    @inline(__always) public static func mul255(_ x: UInt32, _ y: UInt32) -> UInt32 {
        let t = x &* y &+ 128
        return (t &+ (t >> 8)) >> 8
    }

    /// `color` at alpha `alpha` (0…255) over the pixel `dst` (0xAARRGGBB, colour already over
    /// the background; A = how painted). Paint accumulates: A' = α + A·(1 − α). An eraser
    /// (`paints` false) blends toward the background colour and takes paint away: A' = A·(1 − α).
    @inline(__always) public static func over(_ dst: UInt32, r: UInt32, g: UInt32, b: UInt32, alpha: UInt32, paints: Bool = true) -> UInt32 {
        let inv = 255 &- alpha
        let da = dst >> 24, dr = (dst >> 16) & 0xff, dg = (dst >> 8) & 0xff, db = dst & 0xff
        let oa = (paints ? alpha : 0) &+ mul255(da, inv)
        let or = mul255(r, alpha) &+ mul255(dr, inv)
        let og = mul255(g, alpha) &+ mul255(dg, inv)
        let ob = mul255(b, alpha) &+ mul255(db, inv)
        return oa << 24 | or << 16 | og << 8 | ob
    }
}
