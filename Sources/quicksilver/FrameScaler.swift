import Geometry

/// Fits a canvas into a video frame of another size: scaled to fit whole (the average of the
/// source pixels each frame pixel covers when shrinking, the nearest one when growing), centred,
/// the margin black. A frame of the canvas's own size is the canvas itself. Integer arithmetic:
/// the same canvas gives the same frame.
struct FrameScaler {
    let canvas: Size
    let output: Size
    /// For each output column and row: the source span [start, end) it averages, or an empty
    /// span for the black margin.
    private let columns: [Range<Int>]
    private let rows: [Range<Int>]

    init(canvas: Size, output: Size) {
        self.canvas = canvas
        self.output = output
        // The fitted size: the canvas scaled by min(ow/cw, oh/ch), rounded, at least a pixel.
        let wide = output.width * canvas.height <= output.height * canvas.width
        let fitted = wide
            ? Size(width: output.width, height: max(1, (canvas.height * output.width + canvas.width / 2) / canvas.width))
            : Size(width: max(1, (canvas.width * output.height + canvas.height / 2) / canvas.height), height: output.height)
        func spans(source: Int, fitted: Int, output: Int) -> [Range<Int>] {
            let margin = (output - fitted) / 2
            return (0..<output).map { o in
                let i = o - margin
                guard i >= 0, i < fitted else { return 0..<0 }
                let start = i * source / fitted
                let end = max(start + 1, (i + 1) * source / fitted)
                return start..<min(end, source)
            }
        }
        columns = spans(source: canvas.width, fitted: min(fitted.width, output.width), output: output.width)
        rows = spans(source: canvas.height, fitted: min(fitted.height, output.height), output: output.height)
    }

    /// The frame for `pixels` (0xAARRGGBB, the canvas's size), 0xAARRGGBB, opaque.
    func frame(_ pixels: [UInt32]) -> [UInt32] {
        if canvas == output { return pixels }
        var out = [UInt32](repeating: 0xFF00_0000, count: output.area)
        let cw = canvas.width
        for (y, rowSpan) in rows.enumerated() where !rowSpan.isEmpty {
            for (x, colSpan) in columns.enumerated() where !colSpan.isEmpty {
                var r = 0, g = 0, b = 0
                for sy in rowSpan {
                    let base = sy * cw
                    for sx in colSpan {
                        let p = Int(pixels[base + sx])
                        r &+= (p >> 16) & 0xFF; g &+= (p >> 8) & 0xFF; b &+= p & 0xFF
                    }
                }
                let n = rowSpan.count * colSpan.count
                out[y * output.width + x] = 0xFF00_0000 | UInt32((r + n / 2) / n) << 16 | UInt32((g + n / 2) / n) << 8 | UInt32((b + n / 2) / n)
            }
        }
        return out
    }
}
