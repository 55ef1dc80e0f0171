/// MercurialPaint's random function: the classic integer-hash noise, in 32-bit wrapping
/// arithmetic, giving a value in (0, 1] that depends only on its three arguments.
public enum MercurialRandom {
    /// n = x + y·57 + z·241; n = (n << 13) ^ n;
    /// v = (n·(n·n·15731 + 789221) + 1376312589) & 0x7fffffff; ((1 − v / 1073741824) + 1) / 2.
    @inlinable
    public static func rand(_ x: Int32, _ y: Int32, _ z: Int32) -> Float {
        var n = x &+ y &* 57 &+ z &* 241
        n = (n &<< 13) ^ n
        let v = (n &* (n &* n &* 15731 &+ 789_221) &+ 1_376_312_589) & 0x7fff_ffff
        return ((1 - Float(v) / 1_073_741_824) + 1) / 2
    }
}
