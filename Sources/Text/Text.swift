// Text: strings in real fonts for the on-canvas UI — lower case, accents, Cyrillic, Greek, CJK —
// as 8-bit coverage the UI blends in its own colours. Three libraries do the work, one each:
// fontconfig says which font (a family, "sans-serif" by default, with a fallback font per
// character the first one lacks), HarfBuzz says where each glyph goes (ligatures, kerning,
// combining accents, complex scripts), FreeType draws each glyph (anti-aliased, hinted by the
// font's own instructions and placed on whole pixels, so small sizes stay crisp; advances from
// the unhinted outlines, so widths stay true at any UI scale).
//
// Start at `TextEngine`: `measure` a string's advance at a pixel size, `lineMetrics` for its
// ascent, descent and line height, and `run` for a `GlyphRun` (each glyph's coverage and place,
// and the whole string's `CoverageMask`) that the caller blends where it likes. Behind it:
// `FontSet` (fontconfig: the family's sorted fonts, which covers each character), `Itemizer`
// (the string cut into runs of one font and one script), `SizedFont` (a FreeType face and its
// HarfBuzz font at one pixel size: shaping and rasterising), and the caches (`BoundedCache`):
// glyph images by font, glyph and size, shaped and rendered runs by
// string and size, so a label drawn every frame costs a lookup and a blend, not a rasterisation.
//
// One thread: fontconfig, FreeType and HarfBuzz objects are C pointers, not Sendable, so a
// `TextEngine` (and everything it owns) is a plain class used from the thread that made it (the
// frame loop's). What it hands out (`GlyphRun`, `CoverageMask`, `GlyphImage`) is immutable and
// Sendable. It depends on no other module: the UI depends on it, never the other way.

/// A length in FreeType's and HarfBuzz's 26.6 fixed point (64ths of a pixel).
typealias Fixed26_6 = Int

extension Double {
    /// This many pixels in 26.6 fixed point, rounded to the nearest 64th.
    var fixed26_6: Fixed26_6 { Int((self * 64).rounded()) }
}

extension Int {
    /// The whole pixels of a 26.6 value, rounded up (an ascent, a descent).
    var ceilPixels: Int { (self + 63) >> 6 }
    /// The nearest whole pixel of a 26.6 value (halves upwards).
    var roundedPixels: Int { (self + 32) >> 6 }
}
