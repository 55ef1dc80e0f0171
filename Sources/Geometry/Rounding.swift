extension Double {
    /// `rounded(.down)` without a call into libm: the baseline x86-64 target has no rounding
    /// instruction, so each `rounded` is a library call, and a dab takes several. Exact for every
    /// value: through the conversion to an integer where that is exact (|x| < 2⁵²), libm beyond
    /// and for NaN. (A zero's sign may differ; the result is meant for an integer.)
    @inlinable @inline(__always) public var roundedDown: Double {
        guard abs(self) < 0x1p52 else { return rounded(.down) }
        let t = Double(Int64(self))  // toward zero
        return t > self ? t - 1 : t
    }

    /// `rounded(.up)`, as `roundedDown`.
    @inlinable @inline(__always) public var roundedUp: Double {
        guard abs(self) < 0x1p52 else { return rounded(.up) }
        let t = Double(Int64(self))
        return t < self ? t + 1 : t
    }

    /// `rounded()` (halves away from zero), as `roundedDown`: the fraction left by truncation
    /// is exact, so comparing it with ½ decides as libm does.
    @inlinable @inline(__always) public var roundedToNearest: Double {
        guard abs(self) < 0x1p52 else { return rounded() }
        let t = Double(Int64(self)), f = self - t
        return f >= 0.5 ? t + 1 : f <= -0.5 ? t - 1 : t
    }

    /// `Int(rounded())` for |x| < 2⁵², straight from the truncation (no conversion back and
    /// forth): a dab's stamp is chosen by three of these.
    @inlinable @inline(__always) public var roundedToNearestInt: Int {
        let t = Int(self), f = self - Double(t)
        return f >= 0.5 ? t &+ 1 : f <= -0.5 ? t &- 1 : t
    }
}
