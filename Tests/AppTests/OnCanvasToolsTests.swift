import App
import Compute
import Events
import Foundation
import Geometry
import Input
import Kernels
import PNGFile
import ReplayFormat
import Testing
import TestSupport
import UI

/// The palette, the outline, the status strip and the shading editor in the app, through the
/// fake window: what a click does, what the frame shows, what the journal keeps.
@Suite struct OnCanvasToolsTests {
    private func harness() throws -> Harness {
        let h = try Harness(size: Size(width: 640, height: 480), uiScale: 1)
        h.draw(frame: 1)
        return h
    }

    private func click(_ h: Harness, _ x: Double, _ y: Double, t: Double) {
        h.input([.pointerDown(sample(x, y, t: t)), .pointerUp(sample(x, y, t: t + 0.01))])
    }

    private func rgb(_ p: UInt32) -> (Int, Int, Int) { (Int(p >> 16 & 0xFF), Int(p >> 8 & 0xFF), Int(p & 0xFF)) }

    @Test func aRightClickOpensThePaletteAndAClickOnItSetsTheColourWithoutPainting() throws {
        let h = try harness()
        h.input([.button(.right, isDown: true, sample(320, 240, t: 0.1)), .button(.right, isDown: false, sample(320, 240, t: 0.12))])
        h.draw(frame: 2)
        // The hue ring is drawn round the pointer: green-yellow on its right (hue 0.25), red on top.
        let (r, g, b) = rgb(h.window.image.texture[320 + 89, 240])
        #expect(r > 100 && r < 160 && g > 240 && b < 30, "ring at hue 0.25: \(r),\(g),\(b)")
        let top = rgb(h.window.image.texture[320, 240 - 89])
        #expect(top.0 == 255 && top.1 < 4 && top.2 < 4, "red at the top: \(top)")
        click(h, 320 + 89, 240, t: 0.2)          // hue 0.25
        click(h, 320 + 51.9, 240 - 51.9, t: 0.3)  // full saturation and value
        h.draw(frame: 3)
        let chosen = h.session.brush.color
        #expect(chosen == h.app.widgets?.palette?.palette?.color)
        #expect(abs(Int(chosen.r) - 128) <= 2 && chosen.g == 255 && chosen.b <= 2, "\(chosen)")
        click(h, 600, 20, t: 0.4)                  // outside: closes it, paints nothing
        h.draw(frame: 4)
        #expect(h.app.widgets?.palette?.palette == nil)
        #expect(h.window.image.texture[320 + 89, 240] == 0xFFFF_FFFF)
        let events = try h.recorded()
        #expect(!events.contains { if case .pointerDown = $0.event { true } else { false } })
        let colours = events.compactMap { e -> Color? in if case .command(.brush(_, _, let c?, _)) = e.event { c } else { nil } }
        // The first click gave black the ring's hue (a hue alone would leave it black), the second the square's point.
        #expect(colours.count == 2 && colours.last == chosen && colours.first?.g == 255 && colours.first?.b == 0, "\(colours)")
        // The canvas draws in it.
        h.input([.pointerDown(sample(100, 400, t: 0.5)), .pointerMove(sample(200, 400, t: 0.51)), .pointerUp(sample(300, 400, t: 0.52))])
        h.draw(frame: 5)
        #expect(h.window.image.texture[200, 400] == chosen.pixel)
    }

    @Test func thePaletteSetsKindAndSizeAndRemembersRecentColours() throws {
        let h = try harness()
        h.input([h.key("3")])
        h.draw(frame: 2)
        h.input([.pointerDown(sample(20, 20, t: 0.05)), .pointerUp(sample(40, 20, t: 0.06)), .button(.right, isDown: true, sample(320, 240, t: 0.1))])
        h.draw(frame: 3)
        let palette = try #require(h.app.widgets?.palette?.palette)
        #expect(palette.recent.first == KeyMap.palette[2])
        let o = try #require(h.app.widgets?.palette?.origin)
        click(h, o.x + 6 + 2 * 68 + 30, o.y + 294, t: 0.2)   // the mercurial brush
        h.draw(frame: 4)
        #expect(h.session.brush.tip.kind == .mercurial)
        click(h, o.x + 280 - 6 - 11, o.y + 284 + 26 + 11, t: 0.3)  // size +
        h.draw(frame: 5)
        #expect(h.session.brush.tip.size == 400)
        h.input([h.key("[")])  // the keys still work, and the palette follows them
        h.draw(frame: 6)
        #expect(h.app.widgets?.palette?.palette?.size == 200)
        h.input([h.key(.escape)])
        #expect(h.app.widgets?.palette?.palette == nil)
    }

    @Test func tabHidesEveryPieceAndShowsThemAgain() throws {
        let h = try harness()
        let strip = (x: 10, y: 480 - 6 - 9)  // inside the status strip, bottom left
        #expect(h.window.image.texture[strip.x, strip.y] != 0xFFFF_FFFF)
        h.input([h.key(.tab)])
        h.draw(frame: 2)
        #expect(h.window.image.texture[strip.x, strip.y] == 0xFFFF_FFFF)
        h.input([.button(.right, isDown: true, sample(320, 240, t: 0.1))])  // a right click shows the palette again
        h.draw(frame: 3)
        #expect(h.window.image.texture[strip.x, strip.y] != 0xFFFF_FFFF && h.app.widgets?.palette?.palette != nil)
        h.input([h.key(.escape), h.key(.tab)])
        h.draw(frame: 4)
        #expect(h.window.image.texture[strip.x, strip.y] == 0xFFFF_FFFF)
        #expect(h.window.image.texture[320 + 89, 240] == 0xFFFF_FFFF)
    }

    @Test func theOutlineFollowsThePointerOverTheCanvasAndHidesWhileDrawing() throws {
        let h = try harness()
        h.input([h.key("]")])
        h.draw(frame: 2)
        h.input([.hover(sample(200, 200, t: 0.1))])  // size 16: 16 across at pressure 0.5
        h.draw(frame: 3)
        let t = h.window.image.texture
        #expect(t[200 + 8, 200] != 0xFFFF_FFFF && t[200, 200 - 9] != 0xFFFF_FFFF)
        #expect(t[200, 200] == 0xFFFF_FFFF && t[200 + 12, 200] == 0xFFFF_FFFF)
        h.input([.pointerDown(sample(200, 200, t: 0.2))])
        h.draw(frame: 4)
        #expect(t[200, 200 - 9] == 0xFFFF_FFFF, "hidden while drawing")
        h.input([.pointerUp(sample(200, 200, t: 0.3)), .leave])
        h.draw(frame: 5)
        #expect(h.app.widgets?.outline?.outline == nil)
    }

    @Test func theShadingEditorDragsALightAndRecordsOneShadingEvent() throws {
        let h = try harness()
        h.input([h.key("l")])
        h.draw(frame: 2)
        let o = try #require(h.app.widgets?.editor?.origin)
        // Light 1's handle is the sphere's top point; dragged to the sphere's centre.
        h.input([.pointerDown(sample(o.x + 88, o.y + 21, t: 0.1)), .pointerMove(sample(o.x + 88, o.y + 60, t: 0.11)),
                 .pointerMove(sample(o.x + 88, o.y + 100, t: 0.12))])
        #expect(h.session.brush.shading == .mercurialPaint, "applied at the release")
        // While dragged, the hemisphere is drawn at half resolution; at the release, in full.
        h.draw(frame: 3)
        let dragged = try #require(h.app.widgets?.editor?.editor?.shading)
        let rough = HemispherePreview(size: 80)
        rough.render(dragged)
        let points = [(40, 120), (121, 45), (100, 130)]
        for (x, y) in points {
            #expect(h.window.image.texture[Int(o.x) + 8 + x, Int(o.y) + 20 + y] == rough.image.texture[x / 2, y / 2])
        }
        h.input([.pointerUp(sample(o.x + 88, o.y + 100, t: 0.13))])
        // At the release, the frames go on until the full hemisphere is shown.
        let frames = drawUntilIdle(h, from: 4)
        #expect(frames > 2 && frames < 30)
        let full = Hemisphere.image(shading: h.session.brush.shading, size: 160)
        for (x, y) in points {
            #expect(h.window.image.texture[Int(o.x) + 8 + x, Int(o.y) + 20 + y] == full.texture[x, y])
        }
        let light = h.session.brush.shading.lights[0]
        #expect(abs(light.x) < 0.01 && abs(light.y) < 0.01 && abs(light.z - 25) < 0.01)
        let shadings = try h.recorded().filter { if case .command(.shading) = $0.event { true } else { false } }
        #expect(shadings.count == 1)
        #expect(!(try h.recorded()).contains { if case .pointerDown = $0.event { true } else { false } })
        h.input([h.key("l")])
        #expect(h.app.widgets?.editor?.editor == nil)
    }

    /// Draws frames from `first` on until the app lets the clock pause; how many.
    private func drawUntilIdle(_ h: Harness, from first: Int) -> Int {
        var frame = first
        while h.draw(frame: frame), frame < first + 100 { frame += 1 }
        return frame - first + 1
    }

    @Test func theEditorIsPreparedInTheFramesAfterTheStartAndOpensWhole() throws {
        let h = try harness()
        let frames = drawUntilIdle(h, from: 2)
        #expect(frames > 3 && frames < 30, "a bounded step a frame")
        #expect(h.window.image.texture[640 - 8 - 312 + 4, 8 + 120] == 0xFFFF_FFFF, "nothing of it shown")
        h.input([h.key("l")])
        #expect(h.draw(frame: frames + 2) == false, "opened whole: no frame after it")
        let o = try #require(h.app.widgets?.editor?.origin)
        let full = Hemisphere.image(shading: .mercurialPaint, size: 160)
        for (x, y) in [(40, 120), (121, 45), (100, 130), (80, 80)] {
            #expect(h.window.image.texture[Int(o.x) + 8 + x, Int(o.y) + 20 + y] == full.texture[x, y])
        }
    }

    @Test func anEditorOpenedAtOnceIsRoughForAFewFramesThenWhole() throws {
        let h = try harness()
        h.input([h.key("l")])
        #expect(h.draw(frame: 2), "frames go on after the opening")
        let o = try #require(h.app.widgets?.editor?.origin)
        let rough = HemispherePreview(size: 40)
        rough.render(.mercurialPaint)
        let points = [(40, 120), (121, 45), (100, 130), (80, 80)]
        for (x, y) in points { #expect(h.window.image.texture[Int(o.x) + 8 + x, Int(o.y) + 20 + y] == rough.image.texture[x / 4, y / 4]) }
        let frames = drawUntilIdle(h, from: 3)
        #expect(frames > 3 && frames < 30)
        let full = Hemisphere.image(shading: .mercurialPaint, size: 160)
        for (x, y) in points { #expect(h.window.image.texture[Int(o.x) + 8 + x, Int(o.y) + 20 + y] == full.texture[x, y]) }
    }

    @Test func aScreenshotHasNoneOfTheTools() throws {
        let h = try harness()
        h.input([.pointerDown(sample(100, 100, t: 0)), .pointerUp(sample(300, 100, t: 0.01)), h.key("l"),
                 .button(.right, isDown: true, sample(320, 240, t: 0.1)), .hover(sample(500, 400, t: 0.2)), h.key("e", [.control, .shift])])
        h.draw(frame: 2)
        let png = try PNGImage.read(from: try #require(h.out.all.last))
        #expect(png[320 + 89, 240] == 0xFFFF_FFFF && png[10, 470] == 0xFFFF_FFFF && png[630 - 10, 20] == 0xFFFF_FFFF)
        #expect(png[200, 100] == 0xFF00_0000)
        #expect(h.window.image.texture[320 + 89, 240] != 0xFFFF_FFFF)  // while the window shows them
    }
}
