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
}
