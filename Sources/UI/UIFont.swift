import Geometry
import Kernels
import Text

/// The UI's text: a real font through `Text` (fontconfig, HarfBuzz, FreeType), 11 px at UI
/// scale 1, so every name shows as written — lower case, accents, Cyrillic, Greek, and CJK where
/// an installed font has it. Where no font can be opened it falls back to the 5×7 bitmap `Font`
/// (capitals only), and says why once (`failure`).
///
/// One per window, used from the frame loop's thread only (`TextEngine` holds C pointers).
public final class UIFont {
    /// The text size at UI scale 1, in pixels.
    public static let size = 11.0
    let engine: TextEngine?
    /// Why no real font could be opened (the bitmap font is used instead), if so.
    public let failure: TextError?

    /// - Parameter family: a fontconfig family or pattern ("sans-serif"; tests name one).
    public init(family: String = "sans-serif") {
        do throws(TextError) {
            engine = try TextEngine(family: family)
            failure = nil
        } catch {
            engine = nil
            failure = error
        }
    }

    /// The bitmap font only: what the UI falls back to.
    public init(bitmapOnly: Void) {
        engine = nil
        failure = nil
    }

    /// How far `text` advances at `scale`, in window pixels.
    public func width(_ text: String, scale u: Double) -> Double {
        guard let engine else { return Double(Font.width(of: text)) * u }
        return engine.measure(text, size: Self.size * u)
    }

    /// From one line's top to the next's at `scale`.
    public func lineHeight(scale u: Double) -> Double {
        guard let engine else { return Double(Font.lineHeight) * u }
        return Double(engine.lineMetrics(size: Self.size * u).lineHeight)
    }

    /// Draws `text` with the top of its line at (x, y), in `color` over what is there.
    public func draw(_ text: String, x: Double, y: Double, scale u: Double, _ color: Color, on p: Painter) {
        guard let engine else {
            // The bitmap font's glyphs are 7 of its 10-pixel line: centred in it.
            return p.text(text, x: x, y: y + 1.5 * u, pixel: u, color)
        }
        let run = engine.run(text, size: Self.size * u)
        p.blend(run.mask, x: Int(x.rounded()), baseline: Int(y.rounded()) + run.line.ascent, color)
    }

    /// Draws `text` centred on (cx, cy): a button's label.
    public func draw(_ text: String, centredAt cx: Double, _ cy: Double, scale u: Double, _ color: Color, on p: Painter) {
        guard let engine else {
            return p.text(text, x: cx - Double(Font.width(of: text) - 1) * u / 2, y: cy - 3.5 * u, pixel: u, color)
        }
        let run = engine.run(text, size: Self.size * u)
        let baseline = cy + Double(run.line.ascent - run.line.descent) / 2
        p.blend(run.mask, x: Int((cx - run.advance / 2).rounded()), baseline: Int(baseline.rounded()), color)
    }
}

extension Painter {
    /// Blends `color` through an 8-bit coverage mask whose origin is at (x, baseline): the
    /// same per-pixel blend as every shape (`blend`), the coverage a byte.
    func blend(_ mask: CoverageMask, x: Int, baseline: Int, _ color: Color) {
        let left = x + mask.x, top = baseline + mask.y
        let r = Rect(x: left, y: top, width: mask.width, height: mask.height).intersection(clip)
        guard !r.isEmpty else { return }
        mask.coverage.withUnsafeBufferPointer { cov in
            for ty in r.ys {
                let row = (ty - top) * mask.width - left
                for tx in r.xs where cov[row + tx] != 0 {
                    blend(tx, ty, color, Double(cov[row + tx]) / 255)
                }
            }
        }
    }
}
