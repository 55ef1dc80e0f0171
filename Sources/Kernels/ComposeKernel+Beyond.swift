import Geometry

/// The canvas beyond the document's frame in a turned view. Upright, the window shows it by
/// composing the window rects outside the frame's over the desk and dimming them; turned, the
/// frame's window rect is only its bounding box, so the frame is cut where each canvas row
/// crosses it instead, before the view samples the rows.
extension ComposeKernel {
    /// What the canvas beyond `frame` shows: `kernel` (the layers over the desk), dimmed.
    public final class Beyond: Sendable {
        public let kernel: ComposeKernel
        public let frame: Rect
        public init(kernel: ComposeKernel, frame: Rect) { self.kernel = kernel; self.frame = frame }
    }

    /// Canvas row `y` over `xs` into `dst` (indexed by canvas x) as the window shows it: the
    /// composed canvas inside the frame and, with `beyond`, the layers over the desk, dimmed,
    /// outside it.
    @inline(__always)
    func composeShownRow(_ y: Int, xs: Range<Int>, into dst: UnsafeMutablePointer<UInt32>) {
        guard let beyond else { return composeRow(y, xs: xs, into: dst) }
        let f = beyond.frame
        let inside = y >= f.minY && y < f.maxY ? xs.clamped(to: f.minX..<max(f.minX, f.maxX)) : xs.lowerBound..<xs.lowerBound
        func outside(_ part: Range<Int>) {
            guard !part.isEmpty else { return }
            beyond.kernel.composeRow(y, xs: part, into: dst)
            Self.dim(dst, xs: part)
        }
        guard !inside.isEmpty else { return outside(xs) }
        outside(xs.lowerBound..<inside.lowerBound)
        composeRow(y, xs: inside, into: dst)
        outside(inside.upperBound..<xs.upperBound)
    }

    /// Each pixel of `row` over `xs` blended halfway toward the desk: each channel's mean
    /// rounded down, without carries between channels, so the desk itself stays the desk.
    @inline(__always)
    static func dim(_ row: UnsafeMutablePointer<UInt32>, xs: Range<Int>) {
        let desk = Self.desk & 0x00FF_FFFF
        for x in xs {
            let p = row[x] & 0x00FF_FFFF
            row[x] = 0xFF00_0000 | ((p & desk) &+ (((p ^ desk) & 0x00FE_FEFE) >> 1))
        }
    }
}
