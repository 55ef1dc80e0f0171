import Compute
import Geometry
import Testing
import UI

/// Mirror painting's axes over the canvas: where the lines lie, that they follow the view, and
/// what they damage.
@Suite struct SymmetryGuideTests {
    private let window = Size(width: 120, height: 80)
    private let plain: (Double, Double) -> (x: Double, y: Double) = { ($0, $1) }

    /// The window's pixels with `guide` shown (the storage: a texture is only a view of it).
    private func drawnGuide(_ guide: SymmetryGuide?) -> TextureStorage<UInt32> {
        let tools = Widgets.standard(windowSize: window, scale: 1, font: font)
        tools.symmetry?.show(guide)
        return drawn(tools)
    }

    private func touched(_ t: TextureStorage<UInt32>, _ x: Int, _ y: Int) -> Bool {
        let bare = canvas(window)
        return t.texture[x, y] != bare.texture[x, y]
    }

    @Test func offShowsNothing() {
        #expect(SymmetryGuide(.off, window: window, toWindow: plain) == nil)
    }

    @Test func aVerticalAxisIsAColumnThroughTheCentreWithItsHandle() throws {
        let guide = try #require(SymmetryGuide(Symmetry(mode: .vertical, x: 40, y: 30), window: window, toWindow: plain))
        let t = drawnGuide(guide)
        // The line is 1.5 px wide about x = 40: pixels 39 and 40.
        for y in [2, 15, 50, 62] { #expect(touched(t, 39, y) && touched(t, 40, y), "row \(y)") }
        #expect(!touched(t, 37, 50) && !touched(t, 42, 50) && !touched(t, 80, 10), "nothing beside it")
        #expect(touched(t, 45, 30), "the handle's ring at the centre")
    }

    @Test func aRotationDrawsItsSpokesOneWayEach() throws {
        let guide = try #require(SymmetryGuide(Symmetry(mode: .rotational, x: 60, y: 40, lines: 4), window: window, toWindow: plain))
        #expect(guide.directions.count == 4)
        let t = drawnGuide(guide)
        for (x, y) in [(60, 10), (90, 40), (60, 70), (30, 40)] { #expect(touched(t, x, y) || touched(t, x - 1, y) || touched(t, x, y - 1), "(\(x), \(y))") }
        #expect(!touched(t, 80, 20), "no line between the spokes")
    }

    @Test func itFollowsTheViewAndDamagesWhereItWasAndIs() throws {
        // At 200 %, the canvas's corner at window (10, 20): canvas x = 15 is window x = 40.
        let zoomed = try #require(SymmetryGuide(Symmetry(mode: .horizontal, x: 0, y: 5), window: window) { (x: $0 * 2 + 10, y: $1 * 2 + 20) })
        #expect(zoomed.x == 10 && zoomed.y == 30)
        let widget = SymmetryWidget()
        widget.show(zoomed)
        let first = widget.takeDamage()
        #expect(first.minY <= 28 && first.maxY >= 32 && first.minX <= 0 && first.maxX >= 120, "\(first)")
        widget.show(nil)
        #expect(widget.takeDamage() == first, "hidden: where it was")
    }
}
