/// The W3C spec's non-separable blend functions, which mix whole colours: hue, saturation,
/// color and luminosity, built from its Lum, ClipColor, SetLum, Sat and SetSat, on eight pixels
/// at once (each of the spec's ifs a select per lane).
enum NonSeparable {
    /// Lum(C) = 0.299·R + 0.587·G + 0.114·B: the BT.601 luma weights that Krita's HSY modes use.
    /// The spec rounds them to 0.3, 0.59, 0.11, which moves saturated colours by up to 4 levels
    /// (cyan in color mode on yellow: red 162 with the spec's, 158 with these and in Krita).
    @inline(__always) static func lum(_ c: Colours) -> Lanes { 0.299 * c.r + 0.587 * c.g + 0.114 * c.b }

    @inline(__always) static func minimum(_ c: Colours) -> Lanes { lanesMin(c.r, lanesMin(c.g, c.b)) }
    @inline(__always) static func maximum(_ c: Colours) -> Lanes { lanesMax(c.r, lanesMax(c.g, c.b)) }

    /// l + (C − l)·k for each channel.
    @inline(__always) static func toward(_ l: Lanes, _ c: Colours, _ k: Lanes) -> Colours {
        Colours(r: l + (c.r - l) * k, g: l + (c.g - l) * k, b: l + (c.b - l) * k)
    }

    /// Brings a colour whose channels left 0…1 back inside, keeping its luminosity and hue.
    ///
    /// Where the spec's luminosity is 0 (or 1) its colour is black (or white), but in Float a
    /// grey's luminosity can land a hair outside while its channels do too, and l − n (or x − l)
    /// is then 0: such a colour is taken straight to its luminosity instead of dividing by 0.
    @inline(__always) static func clipColor(_ c: Colours) -> Colours {
        let l = lum(c), n = minimum(c), x = maximum(c)
        let one = Lanes(repeating: 1)
        // Where a branch is not taken its factor is 1, which leaves the colour.
        let low = below(n, .zero), high = below(one, x)
        let kLow = select(low, select(below(.zero, l), l / select(low, l - n, one), .zero), one)
        var c = toward(l, c, kLow)
        let kHigh = select(high, select(below(l, one), (one - l) / select(high, x - l, one), .zero), one)
        c = toward(l, c, kHigh)
        return Colours(r: lanesMax(lanesMin(c.r, one), .zero), g: lanesMax(lanesMin(c.g, one), .zero),
                        b: lanesMax(lanesMin(c.b, one), .zero))
    }

    /// `c` with its luminosity made `l`.
    @inline(__always) static func setLum(_ c: Colours, _ l: Lanes) -> Colours {
        let d = l - lum(c)
        return clipColor(Colours(r: c.r + d, g: c.g + d, b: c.b + d))
    }

    /// Sat(C) = max − min.
    @inline(__always) static func sat(_ c: Colours) -> Lanes { maximum(c) - minimum(c) }

    /// `c` with its saturation made `s`: the largest channel becomes s, the smallest 0, the middle
    /// one keeps its place between them (a grey becomes black). The spec sorts the channels to do
    /// this; scaling every channel by (C − min)·s / (max − min) gives the same three values.
    @inline(__always) static func setSat(_ c: Colours, _ s: Lanes) -> Colours {
        let n = minimum(c), x = maximum(c)
        let coloured = below(n, x)
        let k = select(coloured, s / select(coloured, x - n, Lanes(repeating: 1)), .zero)
        return Colours(r: (c.r - n) * k, g: (c.g - n) * k, b: (c.b - n) * k)
    }
}

enum HueBlend: BlendFunction {
    /// SetLum(SetSat(Cs, Sat(Cb)), Lum(Cb)).
    @inline(__always) static func mix(_ cb: Colours, _ cs: Colours) -> Colours {
        NonSeparable.setLum(NonSeparable.setSat(cs, NonSeparable.sat(cb)), NonSeparable.lum(cb))
    }
}

enum SaturationBlend: BlendFunction {
    /// SetLum(SetSat(Cb, Sat(Cs)), Lum(Cb)).
    @inline(__always) static func mix(_ cb: Colours, _ cs: Colours) -> Colours {
        NonSeparable.setLum(NonSeparable.setSat(cb, NonSeparable.sat(cs)), NonSeparable.lum(cb))
    }
}

enum ColorBlend: BlendFunction {
    /// SetLum(Cs, Lum(Cb)).
    @inline(__always) static func mix(_ cb: Colours, _ cs: Colours) -> Colours {
        NonSeparable.setLum(cs, NonSeparable.lum(cb))
    }
}

enum LuminosityBlend: BlendFunction {
    /// SetLum(Cb, Lum(Cs)).
    @inline(__always) static func mix(_ cb: Colours, _ cs: Colours) -> Colours {
        NonSeparable.setLum(cb, NonSeparable.lum(cs))
    }
}
