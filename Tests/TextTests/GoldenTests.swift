import Foundation
import PNGFile
import Testing
import TestSupport
import Text

private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// What the UI's labels will say: lower case, accents (composed and combining), Cyrillic, Greek.
private let lines = [
    "quicksilver · brush size 12 · zoom 150 %",
    "Größe, café, naïve, Ærø, Żółć, a\u{308}",
    "Слой «Небо» · кисть · Привет, мир",
    "Επίπεδο «Ουρανός» · πινέλο · Καλημέρα",
]

/// The lines at UI scales 1, 1.5 and 2 (pixel sizes 11, 16.5 and 22), dark on light, then light
/// on dark: the coverage as the UI will blend it, in DejaVu Sans.
private func sheet(_ engine: TextEngine) throws -> PNGImage {
    let scales = [1.0, 1.5, 2.0]
    let margin = 6
    var blocks: [(baseline: Int, run: GlyphRun, dark: Bool)] = []
    var y = margin
    for dark in [true, false] {
        for scale in scales {
            let line = engine.lineMetrics(size: 11 * scale)
            for text in lines {
                blocks.append((y + line.ascent, engine.run(text, size: 11 * scale), dark))
                y += line.lineHeight
            }
            y += margin
        }
    }
    let width = try #require(blocks.map { Int($0.run.advance.rounded(.up)) }.max()) + 2 * margin
    let height = y
    var pixels = [UInt32](repeating: 0, count: width * height)
    let split = try #require(blocks.first { !$0.dark }).baseline - engine.lineMetrics(size: 11).ascent - margin / 2
    for py in 0..<height {
        for px in 0..<width { pixels[py * width + px] = py < split ? 0xFFFF_FFFF : 0xFF20_2124 }
    }
    for block in blocks {
        let mask = block.run.mask
        let ink: UInt32 = block.dark ? 0x10 : 0xE8
        for row in 0..<mask.height {
            for col in 0..<mask.width {
                let px = margin + mask.x + col, py = block.baseline + mask.y + row
                let k = UInt32(mask[col, row]), d = pixels[py * width + px] & 0xFF
                let v = (ink * k + d * (255 - k) + 127) / 255
                pixels[py * width + px] = 0xFF00_0000 | v << 16 | v << 8 | v
            }
        }
    }
    return PNGImage(width: width, height: height, pixels: pixels)
}

@Suite struct TextGoldenTests {
    /// Tests/Fixtures/golden/text/strings.png; QS_UPDATE_GOLDENS=1 writes it.
    @Test func stringsAtThreeScales() throws {
        let engine = try TextEngine(family: "DejaVu Sans")
        try #require(engine.fontFamilies.first == "DejaVu Sans", "DejaVu Sans is not installed (fonts-dejavu-core)")
        let image = try sheet(engine)
        let path = root.appendingPathComponent("Tests/Fixtures/golden/text/strings.png").path
        if ProcessInfo.processInfo.environment["QS_UPDATE_GOLDENS"] != nil {
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try image.write(to: path)
        }
        let golden = try PNGImage.read(from: path)
        #expect(golden.width == image.width && golden.height == image.height)
        expectSamePixels(image.pixels, golden.pixels, width: golden.width, "strings")
        // The same bytes from a second engine, and from the first one's caches.
        #expect(try sheet(TextEngine(family: "DejaVu Sans")) == image)
        #expect(try sheet(engine) == image)
    }
}
