/// An sRGB colour with straight (non-premultiplied) alpha, 8 bits a channel.
public struct Color: Sendable, Hashable, CustomStringConvertible {
    public var r: UInt8, g: UInt8, b: UInt8, a: UInt8
    public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255) { self.r = r; self.g = g; self.b = b; self.a = a }

    public static let white = Color(r: 255, g: 255, b: 255)
    public static let black = Color(r: 0, g: 0, b: 0)

    /// Parses "#rrggbb" or "#rrggbbaa" (hex digits in either case); nil for anything else.
    public init?(hex: String) {
        let digits = Array(hex.utf8)
        guard digits.first == UInt8(ascii: "#"), digits.count == 7 || digits.count == 9 else { return nil }
        var bytes: [UInt8] = []
        var i = 1
        while i < digits.count {
            guard let hi = Self.nibble(digits[i]), let lo = Self.nibble(digits[i + 1]) else { return nil }
            bytes.append(hi << 4 | lo)
            i += 2
        }
        self.init(r: bytes[0], g: bytes[1], b: bytes[2], a: bytes.count == 4 ? bytes[3] : 255)
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// "#rrggbb", or "#rrggbbaa" when not opaque.
    public var description: String {
        let hex = [r, g, b] + (a == 255 ? [] : [a])
        return "#" + hex.map { String($0, radix: 16).leftPadded(to: 2) }.joined()
    }

    /// The pixel as the X visual and export store it: 0xAARRGGBB (B, G, R, A in memory).
    public var pixel: UInt32 { UInt32(a) << 24 | UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b) }

    public init(pixel p: UInt32) {
        self.init(r: UInt8(truncatingIfNeeded: p >> 16), g: UInt8(truncatingIfNeeded: p >> 8),
                  b: UInt8(truncatingIfNeeded: p), a: UInt8(truncatingIfNeeded: p >> 24))
    }
}

extension String {
    fileprivate func leftPadded(to n: Int) -> String { String(repeating: "0", count: max(0, n - count)) + self }
}
