import Compute
import Geometry

extension ComposeKernel {
    /// The live stroke: its colour, coverage masks (tiled, without edges) and where they may be
    /// non-zero.
    public struct Stroke: Sendable {
        public var color: Color
        public var committed: TiledMask
        public var tail: TiledMask
        public var bounds: Rect
        /// False for an eraser: coverage takes alpha away (destination-out).
        public var paints: Bool
        public init(color: Color, committed: TiledMask, tail: TiledMask, bounds: Rect, paints: Bool = true) {
            self.color = color; self.committed = committed; self.tail = tail; self.bounds = bounds; self.paints = paints
        }
        /// The colour the blend adds: none for an eraser, which always takes away at full strength.
        public var blendColor: Color { paints ? color : Color(r: 0, g: 0, b: 0) }
    }

    /// `blendRow` over `xs` of row `y` with `stroke`'s coverage, read a tile of each mask at a
    /// time (`src` and `dst` indexed by canvas x, as `blendRow`'s). Where neither mask has a
    /// tile, or neither tile's row may be set, `src` is copied to `dst` (nothing when they are one).
    @inline(__always)
    public static func blendStroke(_ stroke: Stroke, row y: Int, xs: Range<Int>, src: UnsafeMutablePointer<UInt32>, dst: UnsafeMutablePointer<UInt32>) {
        var c = stroke.committed.reader(row: y), t = stroke.tail.reader(row: y)
        guard !c.isEmpty || !t.isEmpty else {
            if src != dst { (dst + xs.lowerBound).update(from: src + xs.lowerBound, count: xs.count) }
            return
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { buffer in
            let zero = buffer.baseAddress!
            zero.initialize(repeating: 0, count: 64)
            var x = xs.lowerBound
            while x < xs.upperBound {
                let tx = x >> 6, start = tx << 6, end = Swift.min(xs.upperBound, start &+ 64)
                let cp = c.pointerIfSet(column: tx), tp = t.pointerIfSet(column: tx)
                if cp == nil, tp == nil {
                    if src != dst { (dst + x).update(from: src + x, count: end &- x) }
                } else {
                    // Indexed by canvas x: each tile's row moved back by the tile's corner.
                    blendRow(src: src, dst: dst, committed: (cp ?? zero) - start, tail: (tp ?? zero) - start, xs: x..<end,
                             color: stroke.blendColor, paints: stroke.paints)
                }
                x = end
            }
        }
    }
}
