import Glibc

/// Peak signal-to-noise ratio between two pictures of the same size, over their red, green and
/// blue channels (0xAARRGGBB pixels, alpha ignored): 10·log10(255² / mean squared error), in dB;
/// infinite when they are equal. docs/brushes.md holds a brush to 40 dB against libmypaint.
public enum PSNR {
    public static func decibels(_ a: [UInt32], _ b: [UInt32]) -> Double {
        precondition(a.count == b.count, "pictures of different sizes")
        var sum: UInt64 = 0
        for i in a.indices {
            let p = a[i], q = b[i]
            for shift in [16, 8, 0] as [UInt32] {
                let d = Int((p >> shift) & 0xff) - Int((q >> shift) & 0xff)
                sum += UInt64(d * d)
            }
        }
        guard sum > 0 else { return .infinity }
        let mse = Double(sum) / Double(a.count * 3)
        return 10 * log10(255 * 255 / mse)
    }
}
