import Compute
import Events
import Foundation
import Geometry
import Kernels
import PNGFile
import Strokes
import Testing
import TestSupport
import UI

private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// A frame under the UI: white on the left half, near-black on the right, so every piece is seen
/// over light and dark paint.
func canvas(_ size: Size) -> TextureStorage<UInt32> {
    let t = TextureStorage<UInt32>(width: size.width, height: size.height, filledWith: 0xFFFF_FFFF)
    t.texture.fill(Rect(x: size.width / 2, y: 0, width: size.width - size.width / 2, height: size.height), with: 0xFF20_1810)
    return t
}

/// The pixels `tools` draws over a fresh canvas, the whole window.
func drawn(_ tools: Widgets) -> TextureStorage<UInt32> {
    let frame = canvas(tools.windowSize)
    tools.draw(into: frame.texture, clip: frame.texture.bounds)
    return frame
}

/// Compares with the golden `Tests/Fixtures/golden/ui/NAME.png` (QS_UPDATE_GOLDENS=1 writes it).
func expectGolden(_ image: TextureStorage<UInt32>, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let path = root.appendingPathComponent("Tests/Fixtures/golden/ui/\(name).png").path
    let png = PNGImage(width: image.width, height: image.height, pixels: image.pixels.map { $0 | 0xFF00_0000 })
    if ProcessInfo.processInfo.environment["QS_UPDATE_GOLDENS"] != nil { try png.write(to: path) }
    let golden = try PNGImage.read(from: path)
    #expect(golden.width == png.width && golden.height == png.height, sourceLocation: sourceLocation)
    expectSamePixels(png.pixels, golden.pixels, width: golden.width, name, sourceLocation: sourceLocation)
}

/// The pixels `tools` shows once the frames after its last change have done their work
/// (`catchUp` before each, as the app calls it): the first frame's, then each later one's.
private func settled(_ tools: Widgets) -> TextureStorage<UInt32> {
    let frame = canvas(tools.windowSize)
    tools.draw(into: frame.texture, clip: frame.texture.bounds)
    while tools.isCatchingUp {
        tools.catchUp()
        let damage = tools.takeDamage()
        if !damage.isEmpty {
            let under = canvas(tools.windowSize)
            withExtendedLifetime(under) { frame.texture.copy(damage, from: under.texture) }
            tools.draw(into: frame.texture, clip: damage)
        }
    }
    return frame
}

/// The UI's text in DejaVu Sans by name (what `make test` installs), so goldens do not depend on
/// which other fonts a machine has. One per test: a font is used from one thread.
var font: UIFont { UIFont(family: "DejaVu Sans") }

private let recent = ["#e53935", "#1e88e5", "#000000", "#43a047"].compactMap { Color(hex: $0) }

@Suite struct PaletteTests {
    @Test(arguments: [1.0, 2.0])
    func looksAsItDidAtEachScale(scale: Double) throws {
        let tools = Widgets.standard(windowSize: Size(width: Int(320 * scale), height: Int(360 * scale)), scale: scale, font: font)
        tools.palette?.show(Palette(color: Color(r: 229, g: 57, b: 53), recent: recent, kind: .pen, size: 8, scale: scale),
                          atX: 160 * scale, y: 150 * scale)
        try expectGolden(drawn(tools), "palette@\(Int(scale))x")
    }

    @Test(arguments: [1.0, 1.5, 2.0])
    func saysWhatIsUnderEachPoint(scale: Double) {
        let p = Palette(color: .black, recent: recent, kind: .pen, size: 8, scale: scale)
        let c = p.centreOffset
        func at(_ x: Double, _ y: Double) -> Palette.Hit? { p.hit(x * scale, y * scale) }
        #expect(p.hit(c, c) == .saturationValue(saturation: 0.5, value: 0.5))
        #expect(at(140 - 52 + 0.01, 140 - 52 + 0.01) == .saturationValue(saturation: 0, value: 1))
        #expect(at(140, 140 - 89) == .hue(0))         // red at the top
        #expect(at(140 + 89, 140) == .hue(0.25))      // then clockwise
        #expect(at(140, 140 + 89) == .hue(0.5))
        #expect(at(140, 140 - 122) == .recent(recent[0]))
        #expect(at(140 + 122, 140) == .recent(recent[2]))
        #expect(at(140 - 122, 140) == .panel)          // an empty slot
        #expect(at(10, 290) == .kind(.pen))
        #expect(at(6 + 3 * 68 + 30, 290) == .kind(.eraser))
        #expect(at(10, 318) == .size(smaller: true))
        #expect(at(270, 318) == .size(smaller: false))
        #expect(at(140, 318) == .panel)
        #expect(at(5, 5) == nil)
        #expect(at(140, 400) == nil)
    }

    @Test func keepsTheColoursHueSaturationAndValue() {
        let p = Palette(color: Color(r: 0, g: 128, b: 255), recent: [], kind: .pixel, size: 4, scale: 1)
        #expect(abs(p.hue - 210.0 / 360) < 0.002 && p.saturation == 1 && abs(p.value - 1) < 1e-9)
        #expect(p.color == Color(r: 0, g: 128, b: 255))
        #expect(Palette(color: Color(r: 90, g: 90, b: 90), recent: [], kind: .pen, size: 1, scale: 1).saturation == 0)
    }
}

@Suite struct ShadingEditorTests {
    @Test(arguments: [1.0, 2.0])
    func looksAsItDidAtEachScale(scale: Double) throws {
        let tools = Widgets.standard(windowSize: Size(width: Int(330 * scale), height: Int(260 * scale)), scale: scale, font: font)
        tools.editor?.show(ShadingEditor(shading: .mercurialPaint, scale: scale))
        try expectGolden(settled(tools), "editor@\(Int(scale))x")
    }

    /// Where the hemisphere's top-left pixel is in `tools`' window, at scale 1.
    private func sphereOrigin(_ tools: Widgets) throws -> (x: Int, y: Int) {
        let o = try #require(tools.editor?.origin)
        return (Int(o.x) + 8, Int(o.y) + 20)
    }
    /// Points of the hemisphere (its own pixels, at scale 1) that no handle covers.
    private let clearOfHandles = [(40, 120), (121, 45), (100, 130), (80, 80), (60, 20)]

    @Test func theFirstOpeningShowsARoughHemisphereAtOnceThenTheFullOneAsAStraightRenderWould() throws {
        let tools = Widgets.standard(windowSize: Size(width: 330, height: 260), scale: 1, font: font)
        tools.editor?.show(ShadingEditor(shading: .mercurialPaint, scale: 1))
        let first = drawn(tools)
        let s = try sphereOrigin(tools)
        let rough = HemispherePreview(size: 40)
        rough.render(.mercurialPaint)
        for (x, y) in clearOfHandles { #expect(first.texture[s.x + x, s.y + y] == rough.image.texture[x / 4, y / 4], "(\(x), \(y))") }
        #expect(tools.isCatchingUp)
        // The frames after it compute the full hemisphere a bounded step each and damage nothing
        // until the one that shows it: only the hemisphere's area.
        _ = tools.takeDamage()
        var steps = 0, shown: [Rect] = []
        while tools.isCatchingUp, steps < 100 {
            tools.catchUp()
            steps += 1
            let d = tools.takeDamage()
            if !d.isEmpty { shown.append(d); _ = drawn(tools) }
        }
        #expect(shown.count == 1 && steps > 4, "the full one in several steps, then one frame showing it")
        #expect(shown.first.map { $0.width < 200 && $0.height < 200 } == true, "\(shown)")
        // Then it is the editor a straight full render shows: the window prepared before opening.
        let ahead = Widgets.standard(windowSize: Size(width: 330, height: 260), scale: 1, font: font)
        ahead.editor?.prepare(for: Shading.mercurialPaint)
        while ahead.isCatchingUp { ahead.catchUp() }
        #expect(ahead.takeDamage().isEmpty, "preparing shows nothing")
        ahead.editor?.show(ShadingEditor(shading: .mercurialPaint, scale: 1))
        let full = drawn(ahead)
        #expect(!ahead.isCatchingUp, "opened prepared, it is whole at once")
        let straight = Hemisphere.image(shading: .mercurialPaint, size: 160)
        for (x, y) in clearOfHandles { #expect(full.texture[s.x + x, s.y + y] == straight.texture[x, y], "(\(x), \(y))") }
        expectSamePixels(settled(tools).pixels, full.pixels, width: 330, "first opening, settled")
    }

    @Test func aDragsReleaseKeepsItsRoughHemisphereUntilTheFullOneIsReady() throws {
        let tools = Widgets.standard(windowSize: Size(width: 330, height: 260), scale: 1, font: font)
        let editor = ShadingEditor(shading: .mercurialPaint, scale: 1)
        tools.editor?.prepare(for: editor.shading)
        while tools.isCatchingUp { tools.catchUp() }
        tools.editor?.show(editor)
        _ = drawn(tools)
        let moved = ShadingEditor(shading: editor.moving(light: 0, toX: 88, y: 100), scale: 1)
        tools.editor?.show(moved, dragging: true)
        _ = drawn(tools)
        #expect(!tools.isCatchingUp, "a drag's frames do their own work")
        tools.editor?.show(moved)  // the release
        let released = drawn(tools), s = try sphereOrigin(tools)
        let drag = HemispherePreview(size: 80)
        drag.render(moved.shading)
        for (x, y) in [(40, 120), (121, 45), (100, 130)] { #expect(released.texture[s.x + x, s.y + y] == drag.image.texture[x / 2, y / 2]) }
        let full = settled(tools), straight = Hemisphere.image(shading: moved.shading, size: 160)
        for (x, y) in [(40, 120), (121, 45), (100, 130)] { #expect(full.texture[s.x + x, s.y + y] == straight.texture[x, y]) }
    }

    @Test func handlesSitWhereTheirLightsFaceTheSphere() throws {
        let e = ShadingEditor(shading: .mercurialPaint, scale: 1)
        // Light 1 is straight above (0, 25, 0): its handle is the sphere's top point.
        #expect(e.hit(8 + 80, 20 + 1) == .light(0))
        let moved = e.moving(light: 0, toX: 8 + 80, y: 20 + 80)  // to the centre: facing the viewer
        let l = moved.lights[0]
        #expect(abs(l.x) < 0.01 && abs(l.y) < 0.01 && abs(l.z - 25) < 0.01)
        #expect(moved.lights[1...] == e.shading.lights[1...])
        // Light 3 is behind (z −10): moved, it stays behind, at its distance.
        let back = e.moving(light: 2, toX: 8 + 120, y: 20 + 80)
        let b = back.lights[2], old = e.shading.lights[2]
        #expect(b.z < 0 && abs((b.position * b.position).sum().squareRoot() - (old.position * old.position).sum().squareRoot()) < 0.05)
    }

    @Test func barsSetHueBrightnessAndShininess() throws {
        let e = ShadingEditor(shading: .mercurialPaint, scale: 2)
        let hit = try #require(e.hit(496, 132))
        #expect(hit == .hue(light: 1, 0.5))
        #expect(e.setting(hit).lights[1].hue == 0.5)
        #expect(e.value(of: hit, atX: 0) == .hue(light: 1, 0))
        let bright = try #require(e.hit(607, 84))
        guard case .brightness(light: 0, let v) = bright else { Issue.record("\(bright)"); return }
        #expect(v > 0.99)
        let shine = try #require(e.hit(312, 412))
        #expect(shine == .shininess(0.25))
        #expect(e.setting(shine).shininess == 0.25)
        #expect(e.hit(-1, 10) == nil && e.hit(10, 2) == .panel)
    }
}

@Suite struct WidgetsTests {
    @Test func damagesWhereAPieceWasAndIs() {
        let tools = Widgets.standard(windowSize: Size(width: 400, height: 300), scale: 1, font: font)
        #expect(tools.takeDamage().isEmpty)
        tools.outline?.show(BrushOutline(x: 100, y: 100, radius: 10))
        #expect(tools.takeDamage() == Rect(x: 88, y: 88, width: 24, height: 24))
        tools.outline?.show(BrushOutline(x: 100, y: 100, radius: 10))
        #expect(tools.takeDamage().isEmpty)  // nothing moved
        tools.outline?.show(BrushOutline(x: 150, y: 100, radius: 10))
        #expect(tools.takeDamage() == Rect(minX: 88, minY: 88, maxX: 162, maxY: 112))
        tools.palette?.show(Palette(color: .black, recent: [], kind: .pen, size: 8, scale: 1), atX: 200, y: 150)
        let palette = tools.takeDamage()
        // Centred at the pointer, but moved down to keep its top inside the window.
        #expect(palette == Rect(x: 60, y: 0, width: 280, height: 340))
        tools.palette?.show(nil)
        #expect(tools.takeDamage() == palette)
    }

    @Test func aLightMovedRoundTheSphereDamagesOnlyTheSphere() throws {
        let tools = Widgets.standard(windowSize: Size(width: 640, height: 480), scale: 1, font: font)
        let editor = ShadingEditor(shading: .mercurialPaint, scale: 1)
        tools.editor?.show(editor)
        let panel = tools.takeDamage()
        #expect(panel == Rect(x: 640 - 8 - 312, y: 8, width: 312, height: 236))
        tools.editor?.show(ShadingEditor(shading: editor.moving(light: 0, toX: 88, y: 100), scale: 1), dragging: true)
        let moved = tools.takeDamage()
        #expect(moved == Rect(minX: panel.minX, minY: 8 + 20 - 9, maxX: panel.minX + 8 + 160 + 9, maxY: 8 + 20 + 160 + 9))  // within the panel
        let e = try #require(tools.editor?.editor)
        tools.editor?.show(ShadingEditor(shading: e.setting(.hue(light: 1, 0.5)), scale: 1))
        #expect(tools.takeDamage() == panel, "a hue changes its bar and marker too")
    }

    @Test func aPressIsRoutedToThePieceUnderIt() {
        let tools = Widgets.standard(windowSize: Size(width: 640, height: 480), scale: 1, font: font)
        tools.editor?.show(ShadingEditor(shading: .mercurialPaint, scale: 1))
        #expect(tools.hit(640 - 8 - 312 + 10, 8 + 2) == .widget(.shadingEditor))
        #expect(tools.hit(100, 300) == .canvas)
        tools.palette?.show(Palette(color: .black, recent: [], kind: .pen, size: 8, scale: 1), atX: 200, y: 200)
        #expect(tools.hit(200, 200) == .widget(.palette))
        #expect(tools.hit(630, 470) == .outside(.palette))  // the palette is open: a press elsewhere closes it
        // ... and a press on the editor beside it closes it and works the editor.
        #expect(tools.hit(640 - 8 - 312 + 10, 8 + 2) == .outside(.palette, under: .shadingEditor))
        tools.setHidden(true)
        #expect(tools.hit(200, 200) == .canvas)
    }

    @Test func drawsOnlyWithinTheClipAndNothingWhenHidden() {
        let tools = Widgets.standard(windowSize: Size(width: 320, height: 360), scale: 1, font: font)
        tools.palette?.show(Palette(color: .black, recent: [], kind: .pen, size: 8, scale: 1), atX: 160, y: 150)
        tools.status?.show(StatusStrip(swatch: .black, fields: ["pen 8", "layer 1/1", "100 %"]))
        let frame = canvas(tools.windowSize), before = frame.pixels
        let clip = Rect(x: 100, y: 100, width: 50, height: 40)
        tools.draw(into: frame.texture, clip: clip)
        var changedInside = 0
        for (i, (a, b)) in zip(frame.pixels, before).enumerated() where a != b {
            let (x, y) = (i % 320, i / 320)
            #expect(clip.intersection(Rect(x: x, y: y, width: 1, height: 1)) != .empty, "pixel (\(x), \(y)) is outside the clip")
            changedInside += 1
        }
        #expect(changedInside > 1000)
        tools.setHidden(true)
        let hiddenFrame = canvas(tools.windowSize)
        tools.draw(into: hiddenFrame.texture, clip: hiddenFrame.texture.bounds)
        #expect(hiddenFrame.pixels == before)
    }

    @Test func theStatusStripSaysItInTheCorner() throws {
        let tools = Widgets.standard(windowSize: Size(width: 400, height: 60), scale: 1, font: font)
        tools.status?.show(StatusStrip(swatch: Color(r: 229, g: 57, b: 53), fields: ["pen 8", "layer 1/2", "100 %", "journal ok"],
                                     notice: "journal NOT SAVED (disk full), retrying", warning: true))
        try expectGolden(drawn(tools), "status@1x")
        // Its corner is at the window's bottom-left, 6 pixels in.
        #expect(tools.takeDamage().minX == 6 && tools.takeDamage().isEmpty)
    }

    @Test func aRingCutByTheClipDrawsOnlyInsideIt() {
        let t = TextureStorage<UInt32>(width: 100, height: 100, filledWith: 0)
        // Near the ring's top and bottom its rows lie wholly left of the clip.
        Painter(t.texture, clip: Rect(x: 75, y: 0, width: 5, height: 100)).ring(cx: 50, cy: 50, inner: 28, outer: 30, .white)
        let lit = t.pixels.enumerated().filter { $0.element != 0 }.map { $0.offset % 100 }
        #expect(!lit.isEmpty && lit.allSatisfy { (75..<80).contains($0) })
    }

    @Test func theOutlineIsDarkOutsideAndLightInside() {
        let tools = Widgets.standard(windowSize: Size(width: 100, height: 100), scale: 1, font: font)
        tools.outline?.show(BrushOutline(x: 50, y: 50, radius: 20))
        let frame = canvas(tools.windowSize)  // white left, dark right
        tools.draw(into: frame.texture, clip: frame.texture.bounds)
        let t = frame.texture
        func luma(_ p: UInt32) -> Int { Int(p >> 16 & 0xFF) + Int(p >> 8 & 0xFF) + Int(p & 0xFF) }
        #expect(luma(t[29, 50]) < 200)   // dark ring just outside r = 20 on white
        #expect(luma(t[70, 49]) < 200)
        #expect(luma(t[70 - 1, 50]) > 500)  // light ring just inside on dark paint
        #expect(luma(t[50, 50]) == luma(0xFFFF_FFFF) || luma(t[50, 50]) == luma(0xFF20_1810))  // the middle untouched
    }
}

@Suite struct PainterTests {
    /// The blend of `color` over `d` with `coverage`, as every painter shape does it, pixel by pixel.
    private func blended(_ d: UInt32, _ color: Color, _ coverage: Double) -> UInt32 {
        let k = UInt32(Double(color.a) * min(max(coverage, 0), 1) + 0.5)
        guard k > 0 else { return d }
        func ch(_ c: UInt8, _ shift: UInt32) -> UInt32 { ((UInt32(c) * k + (d >> shift & 0xFF) * (255 - k) + 127) / 255) << shift }
        return ((k * 255 + (d >> 24) * (255 - k) + 127) / 255) << 24 | ch(color.r, 16) | ch(color.g, 8) | ch(color.b, 0)
    }

    /// A background of every kind of pixel: transparent, translucent, opaque, of many colours.
    private func background() -> TextureStorage<UInt32> {
        let t = TextureStorage<UInt32>(width: 40, height: 30, filledWith: 0)
        for y in 0..<30 { for x in 0..<40 { t.texture[x, y] = UInt32(truncatingIfNeeded: (x * 2_654_435_761) ^ (y * 40_503)) & (x < 10 ? 0 : 0xFFFF_FFFF) } }
        return t
    }

    @Test(arguments: [Box(x: 3, y: 2, width: 30, height: 20), Box(x: 2.3, y: 1.6, width: 30.9, height: 20.2),
                      Box(x: -4.5, y: 5.5, width: 12.25, height: 0.5), Box(x: 5.2, y: 5.1, width: 0.4, height: 7), Box(x: 30.5, y: 20.5, width: 40, height: 40)])
    func fillsAndGradientsAreThePerPixelBlend(box: Box) {
        let clip = Rect(x: 1, y: 1, width: 36, height: 27)
        for color in [Color(r: 32, g: 33, b: 36, a: 224), Color(r: 255, g: 255, b: 255), Color(r: 9, g: 200, b: 77, a: 3)] {
            let t = background(), expected = background()
            Painter(t.texture, clip: clip).fill(box, color)
            let g = background()
            let hue = { (u: Double) in Color(r: UInt8(u * 255), g: color.g, b: 255 - UInt8(u * 255), a: color.a) }
            Painter(g.texture, clip: clip).gradient(box, alongX: hue)
            let gExpected = background()
            Painter(gExpected.texture, clip: clip).gradient(box) { u, _ in hue(u) }
            for y in clip.ys {
                for x in clip.xs {
                    let cx = min(Double(x + 1), box.maxX) - max(Double(x), box.x), cy = min(Double(y + 1), box.maxY) - max(Double(y), box.y)
                    if cx > 0 && cy > 0 { expected.texture[x, y] = blended(expected.texture[x, y], color, cx * cy) }
                }
            }
            #expect(t.pixels == expected.pixels, "fill \(box) \(color)")
            #expect(g.pixels == gExpected.pixels, "gradient \(box) \(color)")
        }
    }
}

@Suite struct FontTests {
    @Test func drawsTheGlyphsBits() {
        let t = TextureStorage<UInt32>(width: 12, height: 7, filledWith: 0)
        Painter(t.texture, clip: t.texture.bounds).text("Il", x: 0, y: 0, pixel: 1, .white)
        let lit = (0..<7).map { y in (0..<12).map { x in t.texture[x, y] == 0xFFFF_FFFF ? "#" : "." }.joined() }
        #expect(lit == [".###..#.....", "..#...#.....", "..#...#.....", "..#...#.....", "..#...#.....", "..#...#.....", ".###..#####."])
    }
}

/// A hue chosen on the ring always shows: from a grey, black or white, the colour becomes the hue.
@Suite struct PaletteHueTests {
    @Test func aHueOnTheRingChangesAGrey() {
        for grey in [Color.black, .white, Color(r: 0x75, g: 0x75, b: 0x75)] {
            var p = Palette(color: grey, recent: [], kind: .pen, size: 8, scale: 1)
            p.choose(hue: 1.0 / 3)   // green
            #expect(p.color.g > p.color.r + 60 && p.color.g > p.color.b + 60, "\(grey) → \(p.color)")
        }
        var red = Palette(color: Color(r: 0xe5, g: 0x39, b: 0x35), recent: [], kind: .pen, size: 8, scale: 1)
        let (s, v) = (red.saturation, red.value)
        red.choose(hue: 2.0 / 3)
        #expect(red.saturation == s && red.value == v, "a colour keeps its saturation and value")
    }
}
