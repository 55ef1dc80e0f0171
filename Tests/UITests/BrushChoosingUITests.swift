import Compute
import Events
import Foundation
import Geometry
import Kernels
import Testing
import UI

/// Icons for tests: a plain square for each brush, its colour from its place in `names`.
private final class SquareIcons: BrushIcons {
    let names: [String]
    private var made: [String: TextureStorage<UInt32>] = [:]
    private(set) var asked = 0
    init(_ names: [String]) { self.names = names }

    func icon(_ name: String, side: Int) -> Texture<UInt32>? {
        asked += 1
        guard let i = names.firstIndex(of: name) else { return nil }
        let key = "\(side) \(name)"
        if let t = made[key] { return t.texture }
        let colours: [UInt32] = [0xFFE5_3935, 0xFF1E_88E5, 0xFF43_A047, 0xFFFD_D835, 0xFF8E_24AA]
        let t = TextureStorage<UInt32>(width: side, height: side, filledWith: colours[i % colours.count])
        t.texture.fill(Rect(x: side / 4, y: side / 4, width: side / 2, height: side / 2), with: 0xFFFF_FFFF)
        made[key] = t
        return t.texture
    }
}

private let ringBrushes = ["classic/pencil", "classic/pen", "classic/charcoal"]

/// The pop-up palette's ring of favourite brushes: where each lies, what a click on it does.
@Suite struct BrushRingTests {
    /// Brush `i`'s centre on a palette of `scale` (its own coordinates).
    private func ringPoint(_ i: Int, _ p: Palette) -> (Double, Double) {
        let a = -Double.pi / 2 + Double(i) * 2 * Double.pi / 10, c = p.centreOffset
        return (c + cos(a) * 155 * p.scale, c + sin(a) * 155 * p.scale)
    }

    @Test(arguments: [1.0, 1.5, 2.0])
    func saysWhichBrushIsUnderEachIcon(scale: Double) {
        let p = Palette(color: .black, recent: [], kind: .pen, size: 8, scale: scale,
                        ring: BrushRing(brushes: ringBrushes, current: "classic/pen"))
        #expect(p.width == Int((358 * scale).rounded(.up)) && p.height == Int((417 * scale).rounded(.up)))
        #expect(p.centreOffset == 179 * scale)
        func at(_ x: Double, _ y: Double) -> Palette.Hit? { p.hit(x * scale, y * scale) }
        for (i, name) in ringBrushes.enumerated() {
            let (x, y) = ringPoint(i, p)
            #expect(p.hit(x, y) == .brush(name))
            #expect(p.hit(x + 16 * scale, y - 16 * scale) == .brush(name), "the icon's corner")
        }
        let (ex, ey) = ringPoint(5, p)
        #expect(p.hit(ex, ey) == .panel, "an empty slot")
        // The colour parts sit round the moved centre as before.
        #expect(at(179, 179 - 89) == .hue(0) && at(179 + 89, 179) == .hue(0.25))
        #expect(p.hit(p.centreOffset, p.centreOffset) == .saturationValue(saturation: 0.5, value: 0.5))
        // The rows under the ring: the kinds, then −, the size, + and the chooser's button.
        #expect(at(39 + 10, 361 + 6) == .kind(.pen))
        #expect(at(39 + 6 + 5, 361 + 26 + 5) == .size(smaller: true))
        #expect(at(39 + 116 + 5, 361 + 26 + 5) == .size(smaller: false))
        #expect(at(39 + 200, 361 + 26 + 5) == .brushChooser)
        #expect(at(2, 2) == nil && at(179, 440) == nil)
    }

    @Test func withoutBrushesThePaletteIsAsItWas() {
        let p = Palette(color: .black, recent: [], kind: .pen, size: 8, scale: 1)
        #expect(p.width == 280 && p.height == 340 && p.centreOffset == 140)
        #expect(p.hit(140 + 100, 284 + 26 + 5) == .panel, "no chooser button")
    }

    @Test(arguments: [1.0, 2.0])
    func looksAsItDidAtEachScale(scale: Double) throws {
        let tools = Widgets.standard(windowSize: Size(width: Int(400 * scale), height: Int(440 * scale)), scale: scale, font: font)
        let icons = SquareIcons(ringBrushes)
        tools.palette?.setFavourites(ringBrushes, icons: icons)
        var brush = Brush()
        brush.apply(.mypaint(MyPaintChoice(name: "classic/pen")))
        tools.toggle(.palette, atX: 200 * scale, y: 200 * scale, brush: brush)
        try expectGolden(drawn(tools), "palette-ring@\(Int(scale))x")
    }

    @Test func aClickOnABrushChoosesItAndClosesThePalette() throws {
        let tools = Widgets.standard(windowSize: Size(width: 640, height: 480), scale: 1, font: font)
        let palette = try #require(tools.palette)
        palette.setFavourites(ringBrushes, icons: SquareIcons(ringBrushes))
        let brush = Brush(color: Color(r: 10, g: 20, b: 30))
        tools.toggle(.palette, atX: 320, y: 240, brush: brush)
        let p = try #require(palette.palette)
        let (x, y) = ringPoint(2, p)
        let at = (x: x + 320 - p.centreOffset, y: y + 240 - p.centreOffset)
        #expect(tools.hit(at.x, at.y) == .widget(.palette))
        #expect(palette.press(x: at.x, y: at.y, brush: brush) == [.mypaint(MyPaintChoice(name: "classic/charcoal", color: brush.color))])
        #expect(palette.palette == nil && palette.release(x: at.x, y: at.y, brush: brush) == [])
        // The chooser's button opens the chooser in its place.
        tools.toggle(.palette, atX: 320, y: 240, brush: brush)
        #expect(palette.press(x: 320 - 179 + 39 + 200, y: 240 - 179 + 361 + 26 + 5, brush: brush) == [])
        #expect(palette.palette == nil && palette.takeOpening() == .brushChooser && palette.takeOpening() == nil)
    }

    @Test func itsIconsAreAskedForOnlyWhenItIsDrawnAgain() throws {
        let tools = Widgets.standard(windowSize: Size(width: 640, height: 480), scale: 1, font: font)
        let icons = SquareIcons(ringBrushes)
        tools.palette?.setFavourites(ringBrushes, icons: icons)
        tools.toggle(.palette, atX: 320, y: 240, brush: Brush())
        let frame = canvas(tools.windowSize)
        tools.draw(into: frame.texture, clip: frame.texture.bounds)
        #expect(icons.asked == 3)
        tools.draw(into: frame.texture, clip: frame.texture.bounds)
        #expect(icons.asked == 3, "a still palette is its sprite")
    }
}

/// The brush chooser: the packs as groups of icons, scrolled, and what a click chooses.
@Suite struct BrushChooserTests {
    private let groups = [
        BrushChooser.Group(pack: "Dieterle", brushes: (1...19).map { "Dieterle/b\($0)" }),
        BrushChooser.Group(pack: "classic", brushes: (1...35).map { "classic/b\($0)" }),
        BrushChooser.Group(pack: "deevad", brushes: (1...36).map { "deevad/b\($0)" }),
    ]

    @Test func laysThePacksOutInRowsThatFitTheWindow() {
        let c = BrushChooser(groups: groups, current: nil, scale: 1, fitting: Size(width: 640, height: 480))
        #expect(c.columns == 11 && c.width == 596 && c.height == 448)
        // Dieterle's header at the top of the grid (y 34), its first icon under it.
        #expect(c.hit(12 + 4 + 2, 34 + 26 + 4 + 2) == .brush("Dieterle/b1"))
        #expect(c.hit(12 + 52 * 7 + 20, 34 + 26 + 52 + 20) == .brush("Dieterle/b19"))
        #expect(c.hit(12 + 52 * 10 + 20, 34 + 26 + 20) == .brush("Dieterle/b11"))
        #expect(c.hit(100, 34 + 10) == .panel, "a header")
        #expect(c.hit(100, 10) == .panel, "the title")
        #expect(c.hit(-1, 10) == nil && c.hit(10, 448) == nil)
        // classic's header follows Dieterle's two rows; its first icon under it.
        #expect(c.hit(20, 34 + 26 + 104 + 26 + 20) == .brush("classic/b1"))
        let wide = BrushChooser(groups: groups, current: nil, scale: 2, fitting: Size(width: 3000, height: 3000))
        #expect(wide.columns == 12, "at most 12 a row")
        let short = BrushChooser(groups: [BrushChooser.Group(pack: "a", brushes: ["a/x"])], current: nil, scale: 1, fitting: Size(width: 640, height: 480))
        #expect(short.height == Int((34 + 12 + 26 + 52.0).rounded(.up)), "as tall as its brushes")
    }

    @Test func theWheelScrollsItWithinItsGrid() {
        var c = BrushChooser(groups: groups, current: nil, scale: 1, fitting: Size(width: 640, height: 480))
        let atTop = !c.scroll(by: 1)
        #expect(atTop, "already at the top")
        let moved = c.scroll(by: -1)
        #expect(moved && c.scroll == 104)
        // Scrolled two rows: Dieterle's second row at the top, classic's first under its header.
        #expect(c.hit(20, 34 + 10) == .brush("Dieterle/b12"))
        #expect(c.hit(20, 34 + 26 + 2 * 52 + 26 - 104 + 20) == .brush("classic/b1"))
        // Dieterle 26 + 2 rows, classic 26 + 4 rows, deevad 26 + 4 rows; 408 px of it shown.
        #expect(c.maxScroll == 598 - 408)
        let toTheEnd = c.scroll(by: -100)
        #expect(toTheEnd && c.scroll == c.maxScroll)
        let further = c.scroll(by: -1)
        #expect(!further)
        #expect(c.hit(20, 448 - 6 - 52 + 20) == .brush("deevad/b34"), "the last row at the bottom")
    }

    @Test func aClickChoosesAndClosesAndTheWheelRedrawsIt() throws {
        let tools = Widgets.standard(windowSize: Size(width: 640, height: 480), scale: 1, font: font)
        let chooser = try #require(tools.chooser)
        chooser.setBrushes(groups, icons: SquareIcons(groups.flatMap(\.brushes)))
        let brush = Brush(color: .white)
        tools.toggle(.brushChooser, atX: 0, y: 0, brush: brush)
        #expect(chooser.frame == Rect(x: 22, y: 16, width: 596, height: 448))
        _ = tools.takeDamage()
        #expect(tools.scroller(at: 320, 240) == .brushChooser && tools.scroller(at: 5, 5) == nil)
        chooser.wheel(-1, x: 320, y: 240)
        #expect(tools.takeDamage() == chooser.frame, "scrolled: drawn again")
        chooser.wheel(-1, x: 320, y: 240)
        chooser.wheel(3, x: 320, y: 240)
        #expect(chooser.chooser?.scroll == 0)
        #expect(tools.hit(5, 5) == .outside(.brushChooser))
        #expect(chooser.press(x: 22 + 20, y: 16 + 34 + 26 + 20, brush: brush) == [.mypaint(MyPaintChoice(name: "Dieterle/b1", color: .white))])
        #expect(!chooser.isOpen && chooser.frame == nil)
        tools.toggle(.brushChooser, atX: 0, y: 0, brush: brush)
        #expect(tools.closePopUp() && !chooser.isOpen, "Escape closes it")
    }

    @Test(arguments: [1.0, 2.0])
    func looksAsItDidAtEachScale(scale: Double) throws {
        let tools = Widgets.standard(windowSize: Size(width: Int(640 * scale), height: Int(480 * scale)), scale: scale, font: font)
        tools.chooser?.setBrushes(groups, icons: SquareIcons(groups.flatMap(\.brushes)))
        var brush = Brush()
        brush.apply(.mypaint(MyPaintChoice(name: "Dieterle/b3")))
        tools.toggle(.brushChooser, atX: 0, y: 0, brush: brush)
        try expectGolden(drawn(tools), "brush-chooser@\(Int(scale))x")
    }
}
