/// Hexcone HSV → RGB (Foley and van Dam), all in 0…1.
public enum HSV {
    public static func rgb(h: Double, s: Double, v: Double) -> (r: Double, g: Double, b: Double) {
        guard s > 0 else { return (v, v, v) }
        let hh = (h - h.rounded(.down)) * 6
        let i = Int(hh.rounded(.down)) % 6, f = hh - hh.rounded(.down)
        let p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f))
        switch i {
        case 0: return (v, t, p)
        case 1: return (q, v, p)
        case 2: return (p, v, t)
        case 3: return (p, q, v)
        case 4: return (t, p, v)
        default: return (v, p, q)
        }
    }

    /// Hexcone HSV (each 0…1, clamped) → an opaque colour, each channel rounded to 8 bits.
    public static func color(h: Double, s: Double, v: Double) -> Color {
        let c = rgb(h: h, s: s, v: v)
        // + 0.5 and truncation: rounding a non-negative value without a call into libm (the
        // palette's gradients make one a pixel).
        func byte(_ x: Double) -> UInt8 { UInt8(min(max(x, 0), 1) * 255 + 0.5) }
        return Color(r: byte(c.r), g: byte(c.g), b: byte(c.b))
    }

    /// RGB → hexcone hue, saturation and value, each 0…1 (a grey has hue 0).
    public static func components(of color: Color) -> (h: Double, s: Double, v: Double) {
        let r = Double(color.r) / 255, g = Double(color.g) / 255, b = Double(color.b) / 255
        let mx = max(r, g, b), mn = min(r, g, b), d = mx - mn
        guard d > 0 else { return (0, 0, mx) }
        var h: Double
        if mx == r { h = (g - b) / d } else if mx == g { h = (b - r) / d + 2 } else { h = (r - g) / d + 4 }
        h /= 6
        if h < 0 { h += 1 }
        return (h, d / mx, mx)
    }
}
