import CText

/// How much work an engine has done since it was made: what its caches save shows here (a
/// label drawn again is neither shaped nor rasterised again).
public struct TextCounters: Equatable, Sendable {
    /// Glyph images FreeType drew.
    public var rasterisations = 0
    /// Strings HarfBuzz shaped (one per string and size, however many items it holds).
    public var shapings = 0
    /// Runs composed from shaped glyphs and glyph images into a `GlyphRun`.
    public var runsBuilt = 0

    public init(rasterisations: Int = 0, shapings: Int = 0, runsBuilt: Int = 0) {
        self.rasterisations = rasterisations; self.shapings = shapings; self.runsBuilt = runsBuilt
    }
}

/// Strings in a font family at any pixel size: measured, shaped and drawn into coverage, with
/// a fallback font for each character the family lacks. The UI's one way to text: it asks for a
/// `GlyphRun` and blends its `CoverageMask` in its colour; the same string at the same size comes
/// from the run cache, drawn by nothing but that blend.
///
/// Sizes are in pixels: the UI's size times its scale (11 at scale 1 is 16.5 at 1.5, 22 at 2),
/// so text scales with the UI as its boxes do. Advances are the font's exact ones (a string at
/// twice the size is twice as wide); each glyph, hinted, is drawn once per size and font and
/// put at the whole pixel nearest its exact place, so small text stays crisp.
///
/// Not Sendable, on purpose: it holds fontconfig, FreeType and HarfBuzz objects, which are C
/// pointers used without locks. Make one on the thread that draws (the frame loop's) and use it
/// only there; the runs it returns are values any thread may keep.
public final class TextEngine {
    /// The fontconfig pattern asked for ("sans-serif").
    public let family: String
    private let library: FreeTypeLibrary
    private let fonts: FontSet
    /// The fonts opened, each at the sizes asked for (a UI asks for a few).
    private var sized = BoundedCache<SizedKey, SizedFont>(capacity: 64)
    /// Glyph images by their bytes: 8 MB holds thousands at UI sizes.
    private var glyphs = BoundedCache<GlyphKey, GlyphImage>(capacity: 8 << 20)
    /// Shaped strings, by count.
    private var shaped = BoundedCache<RunKey, ShapedRun>(capacity: 1024)
    /// Drawn runs by their bytes (the mask; the glyphs' images are shared with the glyph cache).
    private var runs = BoundedCache<RunKey, GlyphRun>(capacity: 4 << 20)
    /// What was shaped, drawn and composed so far.
    public private(set) var counters = TextCounters()

    /// The pixel sizes it draws at; a size outside is taken as the nearest of them (UI text: the
    /// UI's largest scale, 4, makes an 11-pixel label 44).
    public static let sizes = 1.0...256.0

    /// Finds `family` (a fontconfig pattern: "sans-serif", "DejaVu Sans", "Noto Sans:bold") and
    /// the fonts it falls back on, and opens the best of them. Throws when fontconfig has no
    /// configuration, no outline font is installed, or the best font does not open: the caller
    /// then draws its text some other way (the UI's bitmap font).
    public init(family: String = "sans-serif") throws(TextError) {
        self.family = family
        library = try FreeTypeLibrary()
        fonts = try FontSet(family: family)
        let first = fonts.candidates[0]
        let font = try SizedFont(library: library, path: first.path, index: first.index, size: 16 * 64)
        sized.insert(font, for: SizedKey(font: 0, size: 16 * 64))
    }

    /// The families of the fonts it draws with, in the order it tries them for a character: the
    /// family's own font first (`PlacedGlyph.font` indexes this).
    public var fontFamilies: [String] { fonts.candidates.map(\.family) }

    /// The font files, in the same order.
    public var fontFiles: [String] { fonts.candidates.map(\.path) }

    /// True when some font it has draws every character of `text` (none shows a missing-glyph
    /// box).
    public func canShow(_ text: String) -> Bool {
        text.allSatisfy { c in fonts.candidates.indices.contains { fonts.covers($0, c) } }
    }

    /// Ascent, descent and line height at pixel `size`, from the family's own font.
    public func lineMetrics(size: Double) -> LineMetrics {
        guard let font = font(0, size: Self.fixed(size)) else { return LineMetrics(ascent: 0, descent: 0, lineHeight: 0) }
        let ascent = font.ascender.ceilPixels, descent = (-font.descender).ceilPixels
        return LineMetrics(ascent: ascent, descent: descent, lineHeight: max(font.height.roundedPixels, ascent + descent))
    }

    /// How far `text` advances at pixel `size`: where a string drawn after it would start.
    /// Shapes it (once: the shaped run is kept) but draws nothing.
    public func measure(_ text: String, size: Double) -> Double {
        Double(shapedRun(text, size: Self.fixed(size)).advance) / 64
    }

    /// `text` at pixel `size`, shaped and drawn: the same string at the same size again is the
    /// same run, from the cache. Its origin is where it starts on the baseline; draw it at a
    /// whole-pixel origin (round a fractional one) to keep its glyphs on the pixel grid.
    public func run(_ text: String, size: Double) -> GlyphRun {
        let key = RunKey(text: text, size: Self.fixed(size))
        if let run = runs.value(for: key) { return run }
        let shapedRun = shapedRun(text, size: key.size)
        var placed: [PlacedGlyph] = []
        placed.reserveCapacity(shapedRun.glyphs.count)
        for g in shapedRun.glyphs {
            // The whole pixel nearest the glyph's exact place: its hinted stems stay on the grid.
            let image = glyphImage(g.font, g.glyph, size: key.size)
            placed.append(PlacedGlyph(font: g.font, glyph: g.glyph, cluster: g.cluster,
                                      x: g.x.roundedPixels + image.left, y: -g.y.roundedPixels - image.top, image: image))
        }
        let run = GlyphRun(text: text, size: Double(key.size) / 64, advance: Double(shapedRun.advance) / 64,
                           line: lineMetrics(size: Double(key.size) / 64), glyphs: placed, mask: CoverageMask(placed))
        counters.runsBuilt += 1
        runs.insert(run, for: key, cost: run.mask.coverage.count + 64 * placed.count)
        return run
    }

    /// Draws `text` at pixel `size` with its origin at (x, baseline): `pixel` is called for
    /// each pixel it covers at all, with its coverage (1…255), row by row.
    public func draw(_ text: String, size: Double, x: Int, baseline: Int, _ pixel: (_ x: Int, _ y: Int, _ coverage: UInt8) -> Void) {
        let mask = run(text, size: size).mask
        for row in 0..<mask.height {
            for col in 0..<mask.width {
                let c = mask[col, row]
                if c > 0 { pixel(x + mask.x + col, baseline + mask.y + row, c) }
            }
        }
    }

    /// Forgets every glyph and run (the fonts stay open).
    public func clearCaches() {
        glyphs.removeAll(); shaped.removeAll(); runs.removeAll()
    }

    // MARK: - Behind the caches

    /// What the caches hold: entries and their cost (bytes for glyphs and runs), for tests.
    var cacheSizes: (glyphs: Int, glyphBytes: Int, shaped: Int, runs: Int, runBytes: Int) {
        (glyphs.count, glyphs.cost, shaped.count, runs.count, runs.cost)
    }

    /// A size as 26.6 pixels, within `sizes` (a size that is not a number is the least).
    private static func fixed(_ size: Double) -> Fixed26_6 {
        size.isFinite ? min(max(size, sizes.lowerBound), sizes.upperBound).fixed26_6 : sizes.lowerBound.fixed26_6
    }

    private func shapedRun(_ text: String, size: Fixed26_6) -> ShapedRun {
        let key = RunKey(text: text, size: size)
        if let run = shaped.value(for: key) { return run }
        var glyphs: [ShapedGlyph] = []
        var pen: Fixed26_6 = 0
        var utf8 = text
        utf8.withUTF8 { bytes in
            for item in Itemizer.items(text, fonts: fonts) {
                var item = item
                // A font that will not open gives its characters to the family's own font.
                if font(item.font, size: size) == nil { item.font = 0 }
                guard let font = font(item.font, size: size) else { continue }
                pen = font.shape(bytes, item, fontIndex: item.font, pen: pen, into: &glyphs)
            }
        }
        let run = ShapedRun(glyphs: glyphs, advance: pen)
        counters.shapings += 1
        shaped.insert(run, for: key)
        return run
    }

    private func glyphImage(_ font: Int, _ glyph: UInt32, size: Fixed26_6) -> GlyphImage {
        let key = GlyphKey(font: Int32(font), size: Int32(size), glyph: glyph)
        if let image = glyphs.value(for: key) { return image }
        let image = self.font(font, size: size)?.rasterise(glyph) ?? .empty
        counters.rasterisations += 1
        glyphs.insert(image, for: key, cost: image.coverage.count + 64)
        return image
    }

    /// Font `index` at `size`, opened on first use; nil when its file does not open (it is then
    /// marked broken, and its characters go to other fonts).
    private func font(_ index: Int, size: Fixed26_6) -> SizedFont? {
        let key = SizedKey(font: index, size: size)
        if let font = sized.value(for: key) { return font }
        let candidate = fonts.candidates[index]
        do {
            let font = try SizedFont(library: library, path: candidate.path, index: candidate.index, size: size)
            sized.insert(font, for: key)
            return font
        } catch {
            fonts.markBroken(index)
            return nil
        }
    }
}

/// A string shaped at one size: its glyphs and how far it advances (26.6).
private struct ShapedRun {
    let glyphs: [ShapedGlyph]
    let advance: Fixed26_6
}

/// A string and a size. Strings are equal here only byte for byte: Swift's String equality
/// takes "ä" and "a\u{308}" for the same, but their clusters (UTF-8 offsets) differ. Hashed by
/// the bytes too, which is also faster than String's hash (it normalises what is not ASCII).
private struct RunKey: Hashable {
    let text: String
    let size: Fixed26_6

    static func == (a: RunKey, b: RunKey) -> Bool { a.size == b.size && a.text.utf8.elementsEqual(b.text.utf8) }

    func hash(into hasher: inout Hasher) {
        hasher.combine(size)
        var text = text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}

private struct SizedKey: Hashable {
    let font: Int
    let size: Fixed26_6
}

private struct GlyphKey: Hashable {
    let font: Int32
    let size: Int32
    let glyph: UInt32
}
