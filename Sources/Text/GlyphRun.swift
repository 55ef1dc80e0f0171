/// One glyph's coverage as FreeType drew it: 8 bits a pixel (0 none, 255 all), row-major.
public struct GlyphImage: Equatable, Sendable {
    public let width: Int
    public let height: Int
    /// From the glyph's origin (its pen position on the baseline) to its top-left pixel: `left`
    /// pixels right and `top` pixels up.
    public let left: Int
    public let top: Int
    /// `width * height` values, the top row first.
    public let coverage: [UInt8]

    /// A glyph with no pixels (a space, or one FreeType refused).
    public static let empty = GlyphImage(width: 0, height: 0, left: 0, top: 0, coverage: [])

    public init(width: Int, height: Int, left: Int, top: Int, coverage: [UInt8]) {
        precondition(width >= 0 && height >= 0 && coverage.count == width * height)
        self.width = width; self.height = height; self.left = left; self.top = top; self.coverage = coverage
    }
}

/// A glyph of a `GlyphRun`, placed.
public struct PlacedGlyph: Equatable, Sendable {
    /// The font it comes from, an index into `TextEngine.fontFamilies` (0: the family's own).
    public let font: Int
    /// The glyph's id in that font; 0 is the font's missing-glyph box (.notdef).
    public let glyph: UInt32
    /// The UTF-8 offset in the string of the character it draws (the first, for a ligature).
    public let cluster: Int
    /// Its top-left pixel from the run's origin (where the string starts, on the baseline): y
    /// grows downwards, as the window's does.
    public let x: Int
    public let y: Int
    public let image: GlyphImage
}

/// A run's glyphs drawn together: their coverage combined as blending each in turn in one
/// colour would combine it (a + b − ab), in one rectangle placed from the run's origin.
public struct CoverageMask: Equatable, Sendable {
    /// Its top-left pixel from the run's origin on the baseline (y down; usually negative: the
    /// ascent is above the baseline).
    public let x: Int
    public let y: Int
    public let width: Int
    public let height: Int
    /// `width * height` values, the top row first.
    public let coverage: [UInt8]

    /// Coverage at column `col`, row `row` of the mask (not window coordinates).
    public subscript(col: Int, row: Int) -> UInt8 { coverage[row * width + col] }

    /// The glyphs' images combined; empty (0x0) when none has pixels.
    init(_ glyphs: [PlacedGlyph]) {
        let inked = glyphs.filter { $0.image.width > 0 && $0.image.height > 0 }
        guard let first = inked.first else {
            x = 0; y = 0; width = 0; height = 0; coverage = []
            return
        }
        var minX = first.x, minY = first.y, maxX = first.x + first.image.width, maxY = first.y + first.image.height
        for g in inked.dropFirst() {
            minX = min(minX, g.x); minY = min(minY, g.y)
            maxX = max(maxX, g.x + g.image.width); maxY = max(maxY, g.y + g.image.height)
        }
        let w = maxX - minX, h = maxY - minY
        var pixels = [UInt8](repeating: 0, count: w * h)
        pixels.withUnsafeMutableBufferPointer { out in
            for g in inked {
                g.image.coverage.withUnsafeBufferPointer { src in
                    for row in 0..<g.image.height {
                        let from = row * g.image.width, to = (g.y - minY + row) * w + (g.x - minX)
                        for col in 0..<g.image.width {
                            let s = UInt32(src[from + col]), d = UInt32(out[to + col])
                            out[to + col] = UInt8(s + d - (s * d + 127) / 255)
                        }
                    }
                }
            }
        }
        x = minX; y = minY; width = w; height = h; coverage = pixels
    }
}

/// A string's place at one size: the height of its line, how far it advances, and its glyphs,
/// each placed and drawn, and all of them as one mask. What the UI blends; made once by
/// `TextEngine.run` and kept while it is drawn again.
public struct GlyphRun: Sendable {
    public let text: String
    /// The pixel size it is drawn at (the UI's size times its scale).
    public let size: Double
    /// How far the pen moves across it, in pixels (where a following string would start).
    public let advance: Double
    public let line: LineMetrics
    /// In the order HarfBuzz placed them (left to right, also within a right-to-left script).
    public let glyphs: [PlacedGlyph]
    public let mask: CoverageMask
}

/// The vertical measures of a line of text at one size, in whole pixels, from the family's own
/// font (a fallback font's glyphs may reach a little beyond them).
public struct LineMetrics: Equatable, Sendable {
    /// From the baseline up to the top of the tallest letters and accents.
    public let ascent: Int
    /// From the baseline down to the bottom of descenders.
    public let descent: Int
    /// From one line's baseline to the next's.
    public let lineHeight: Int

    public init(ascent: Int, descent: Int, lineHeight: Int) {
        self.ascent = ascent; self.descent = descent; self.lineHeight = lineHeight
    }
}
