import Compute

/// The colour-buffer-to-image kernel (the aptpod demo's `computeTexture2d`), made to compose.
///
/// Output pixel = canvas pixel with the live stroke (colour × max(committed, tail) coverage)
/// blended over it. Rows with no stroke coverage are straight copies. Run it over the damaged
/// region only; run it with `output` = `canvas` to bake a finished stroke into the canvas.
public struct ComposeKernel: Sendable {
    public var canvas: Texture<UInt32>
    public var output: Texture<UInt32>
    /// The live stroke: its colour, coverage masks (canvas-sized) and where they may be non-zero.
    public var stroke: Stroke?

    public struct Stroke: Sendable {
        public var color: Color
        public var committed: Texture<UInt8>
        public var tail: Texture<UInt8>
        public var bounds: Rect
        public init(color: Color, committed: Texture<UInt8>, tail: Texture<UInt8>, bounds: Rect) {
            self.color = color; self.committed = committed; self.tail = tail; self.bounds = bounds
        }
    }

    public init(canvas: Texture<UInt32>, output: Texture<UInt32>, stroke: Stroke?) {
        self.canvas = canvas; self.output = output; self.stroke = stroke
    }

    /// Composes `region` (clipped to the canvas and the output) across the compute context.
    public func run(over region: Rect, on compute: ComputeContext) {
        let r = region.intersection(canvas.bounds).intersection(output.bounds)
        compute.dispatch(over: r) { group in self.execute(group) }
    }

    /// One threadgroup: `group.threadPositions` is already cut to the grid.
    public func execute(_ group: Threadgroup) {
        let g = group.threadPositions
        let blended = stroke.map { g.intersection($0.bounds) } ?? .empty
        for y in g.ys {
            let src = canvas.row(y), dst = output.row(y)
            if let stroke, y >= blended.minY, y < blended.maxY {
                if src != dst {
                    (dst + g.minX).update(from: src + g.minX, count: blended.minX - g.minX)
                    (dst + blended.maxX).update(from: src + blended.maxX, count: g.maxX - blended.maxX)
                }
                Self.blendRow(src: src, dst: dst, committed: stroke.committed.row(y), tail: stroke.tail.row(y),
                              xs: blended.xs, color: stroke.color)
            } else if src != dst {
                (dst + g.minX).update(from: src + g.minX, count: g.width)
            }
        }
    }

    @inline(__always)
    static func blendRow(src: UnsafeMutablePointer<UInt32>, dst: UnsafeMutablePointer<UInt32>,
                         committed: UnsafeMutablePointer<UInt8>, tail: UnsafeMutablePointer<UInt8>,
                         xs: Range<Int>, color: Color) {
        let r = UInt32(color.r), gg = UInt32(color.g), b = UInt32(color.b), a = UInt32(color.a)
        for x in xs {
            let coverage = UInt32(max(committed[x], tail[x]))
            dst[x] = Blend.over(src[x], r: r, g: gg, b: b, alpha: Blend.mul255(a, coverage))
        }
    }
}
