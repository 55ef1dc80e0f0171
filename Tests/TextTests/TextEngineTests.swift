import Foundation
import PNGFile
import Testing
import TestSupport
import Text

/// DejaVu Sans by name, as `make test` installs it (fonts-dejavu-core): the same font on every
/// machine, whatever else is installed, so the goldens are the same bytes.
private func dejaVu() throws -> TextEngine {
    let engine = try TextEngine(family: "DejaVu Sans")
    try #require(engine.fontFamilies.first == "DejaVu Sans", "DejaVu Sans is not installed (fonts-dejavu-core)")
    return engine
}

/// The UI's size at scale 1, in pixels.
private let uiSize = 11.0

private let cjk = "日本語のレイヤー 図層"

/// True when some installed font has the CJK test string (`make test` installs one:
/// fonts-droid-fallback).
private let cjkInstalled = (try? TextEngine().canShow(cjk)) ?? false

@Suite struct TextEngineTests {
    @Test func findsTheSansFamily() throws {
        let engine = try TextEngine()
        #expect(!engine.fontFamilies.isEmpty)
        #expect(engine.fontFiles.allSatisfy { FileManager.default.fileExists(atPath: $0) })
        let line = engine.lineMetrics(size: uiSize)
        #expect(line.ascent > 0 && line.descent > 0 && line.lineHeight >= line.ascent + line.descent)
    }

    @Test func widthsGrowWithTheText() throws {
        let engine = try dejaVu()
        var last = 0.0
        for text in ["i", "in", "ink", "ink on", "ink on the canvas", "ink on the canvas, layer two"] {
            let width = engine.measure(text, size: uiSize)
            #expect(width > last, "\(text): \(width) after \(last)")
            last = width
        }
        #expect(engine.measure("", size: uiSize) == 0)
        #expect(engine.run("WWW", size: uiSize).advance > engine.run("iii", size: uiSize).advance)
    }

    /// HarfBuzz composes "a" + U+0308 into the font's "ä": the same glyph, the same pixels.
    @Test func precomposedAndCombiningAccentsDrawTheSamePixels() throws {
        let engine = try dejaVu()
        for (composed, combining) in [("ä", "a\u{308}"), ("Größe café", "Gro\u{308}ße cafe\u{301}"), ("ё", "е\u{308}")] {
            #expect(!composed.utf8.elementsEqual(combining.utf8))
            let a = engine.run(composed, size: uiSize), b = engine.run(combining, size: uiSize)
            #expect(a.mask == b.mask, "\(composed)")
            #expect(a.advance == b.advance)
            #expect(a.glyphs.map(\.glyph) == b.glyphs.map(\.glyph))
            #expect(a.text.utf8.elementsEqual(composed.utf8) && b.text.utf8.elementsEqual(combining.utf8), "each run is of its own bytes")
        }
    }

    /// An accent the font has no precomposed glyph for is placed by the font's mark positioning:
    /// above the letter, not after it.
    @Test func aCombiningAccentSitsOnItsLetter() throws {
        let engine = try dejaVu()
        let plain = engine.run("q", size: 22), accented = engine.run("q\u{30C}", size: 22)
        #expect(accented.glyphs.count == 2)
        #expect(accented.advance == plain.advance)
        #expect(accented.mask.y < plain.mask.y, "the caron rises above the q")
        #expect(accented.mask.width <= plain.mask.width + 2)
    }

    @Test(arguments: ["Привет, мир · Слой 2", "Καλημέρα κόσμε · Επίπεδο", "Żółć · Ærø · Ñandú · ﬁn"])
    func lettersBeyondLatinHaveGlyphs(text: String) throws {
        let engine = try dejaVu()
        let run = engine.run(text, size: uiSize)
        #expect(!run.glyphs.isEmpty)
        #expect(run.glyphs.allSatisfy { $0.glyph != 0 }, "no missing-glyph box")
        #expect(run.glyphs.allSatisfy { $0.font == 0 }, "DejaVu Sans has them all")
        #expect(run.mask.width > 0 && run.mask.height > 0)
    }

    @Test(.enabled(if: cjkInstalled, "no installed font has CJK: make test installs fonts-droid-fallback"))
    func cjkComesFromAFallbackFont() throws {
        let engine = try TextEngine()
        let run = engine.run(cjk, size: uiSize)
        let ideographs = run.glyphs.filter { $0.image.width > 0 }
        #expect(ideographs.count == cjk.filter { $0 != " " }.count)
        #expect(run.glyphs.allSatisfy { $0.glyph != 0 }, "no missing-glyph box")
        #expect(ideographs.allSatisfy { $0.font > 0 }, "\(engine.fontFamilies[0]) has no CJK: a fallback draws it")
        // Latin around it stays in the family's own font; the space between ideographs goes with them.
        let mixed = engine.run("Layer 図層 2", size: uiSize)
        #expect(mixed.glyphs.first?.font == 0)
        #expect(Set(mixed.glyphs.map(\.font)).count == 2)
        #expect(mixed.glyphs.allSatisfy { $0.glyph != 0 })
    }

    /// Arabic is shaped right to left, its letters joined; with no bidi reordering of the line,
    /// the words keep the string's order and the punctuation after the Arabic stays after it.
    @Test func rightToLeftWordsAreShapedInALeftToRightLine() throws {
        let engine = try dejaVu()
        let word = "مرحبا", before = "Layer ", text = "Layer مرحبا · 2"
        let run = engine.run(text, size: 22)
        #expect(run.glyphs.allSatisfy { $0.glyph != 0 })
        let arabic = before.utf8.count..<(before.utf8.count + word.utf8.count)
        let letters = run.glyphs.filter { arabic.contains($0.cluster) }
        #expect(letters.count == word.count)
        #expect(letters.map(\.cluster) == letters.map(\.cluster).sorted(by: >), "laid out right to left")
        let dot = try #require(run.glyphs.first { $0.cluster == arabic.upperBound + 1 })
        let layer = try #require(run.glyphs.first { $0.cluster == 0 })
        #expect(letters.allSatisfy { $0.x > layer.x && $0.x < dot.x }, "Layer, then the word, then the dot")
        // Joined: the first letter (drawn rightmost) takes its initial form, not the one it has alone.
        let alone = try #require(engine.run("م", size: 22).glyphs.first)
        #expect(letters.last?.cluster == arabic.lowerBound && letters.last?.glyph != alone.glyph)
    }

    @Test func scaleTwoIsTwiceAsWide() throws {
        let engine = try dejaVu()
        let text = "Brush size 12 · layer “Sky” · 100 %"
        for scale in [1.5, 2.0] {
            let one = engine.measure(text, size: uiSize), scaled = engine.measure(text, size: uiSize * scale)
            #expect(abs(scaled / one - scale) < 0.01 * scale, "advance ×\(scaled / one) at scale \(scale)")
            let inkOne = Double(engine.run(text, size: uiSize).mask.width)
            let inkScaled = Double(engine.run(text, size: uiSize * scale).mask.width)
            #expect(abs(inkScaled / inkOne - scale) < 0.03 * scale, "ink ×\(inkScaled / inkOne) at scale \(scale)")
            let line = engine.lineMetrics(size: uiSize), lineScaled = engine.lineMetrics(size: uiSize * scale)
            #expect(abs(Double(lineScaled.lineHeight) / Double(line.lineHeight) - scale) < 0.15)
        }
    }

    @Test func aStringDrawnAgainIsNeitherShapedNorRasterisedAgain() throws {
        let engine = try dejaVu()
        let label = "Drag the lights · L closes · Größe"
        #expect(engine.counters == TextCounters())
        _ = engine.measure(label, size: uiSize)
        #expect(engine.counters.shapings == 1 && engine.counters.rasterisations == 0, "measuring draws nothing")
        let first = engine.run(label, size: uiSize)
        let afterFirst = engine.counters
        #expect(afterFirst.shapings == 1, "the measured shape is kept")
        #expect(afterFirst.rasterisations > 0 && afterFirst.rasterisations <= first.glyphs.count)
        for _ in 0..<3 {
            var pixels = 0
            engine.draw(label, size: uiSize, x: 5, baseline: 20) { _, _, _ in pixels += 1 }
            #expect(pixels > 0)
        }
        #expect(engine.run(label, size: uiSize).mask == first.mask)
        #expect(engine.counters == afterFirst, "drawn from the run cache")
        // A new string of glyphs already drawn at the same places is shaped but not rasterised.
        _ = engine.run("Drag the lights", size: uiSize)
        #expect(engine.counters.shapings == 2)
        #expect(engine.counters.rasterisations == afterFirst.rasterisations)
        // Another size is another set of glyphs.
        _ = engine.run(label, size: uiSize * 2)
        #expect(engine.counters.rasterisations > afterFirst.rasterisations)
    }

    @Test func oddInputsDrawNothingOrSomething() throws {
        let engine = try dejaVu()
        let empty = engine.run("", size: uiSize)
        #expect(empty.glyphs.isEmpty && empty.advance == 0 && empty.mask.width == 0)
        for size in [0, -4, .nan, .infinity, 1e9] {
            let run = engine.run("Size", size: size)
            #expect(TextEngine.sizes.contains(run.size))
        }
        // A control character or an unassigned code point is a glyph (maybe the missing box), never a crash.
        #expect(engine.run("a\u{0}b\u{10FFFD}\n", size: uiSize).advance > 0)
    }

    @Test func twoEnginesDrawTheSameBytes() throws {
        let a = try dejaVu(), b = try dejaVu()
        for text in ["quicksilver", "Слой · Επίπεδο · Größe"] {
            #expect(a.run(text, size: 16.5).mask == b.run(text, size: 16.5).mask)
        }
    }

    @Test func errorsSayWhatFailedInOneLine() {
        #expect(TextError.noFont(family: "Nope").description == "no installed font for \"Nope\"")
        #expect(!TextError.cannotOpen(path: "/f.ttf", index: 0, code: 1).description.contains("\n"))
    }
}
