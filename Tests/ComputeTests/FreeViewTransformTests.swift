import Geometry
import Testing

/// The view as one affine value: any zoom, a turn, a mirror, a move.
@Suite struct FreeViewTransformTests {
    static let views: [ViewTransform] = [
        ViewTransform(zoom: 1, angle: 30, x: 40, y: -10),
        ViewTransform(zoom: 2.5, angle: 200, mirror: true, x: 150, y: 120),
        ViewTransform(zoom: 0.3, angle: 15, x: 10, y: 3),
        ViewTransform(zoom: 0.125, angle: 300, mirror: true, x: 60, y: 80),
        ViewTransform(zoom: 0.7, x: -4, y: 9),
        ViewTransform(zoom: 1.5, mirror: true, x: 170, y: 2),
        ViewTransform(zoom: 32, angle: 90, x: 0, y: 0),
    ]

    @Test(arguments: views)
    func canvasToWindowAndBackIsTheSamePoint(t: ViewTransform) {
        for (cx, cy) in [(0.0, 0.0), (12.25, -7.5), (1000.5, 333.125), (-50, 80)] {
            let w = t.windowPoint(x: cx, y: cy), back = t.canvasPoint(x: w.x, y: w.y)
            #expect(abs(back.x - cx) < 1e-9 && abs(back.y - cy) < 1e-9, "\(t): (\(cx), \(cy)) came back as \(back)")
        }
        // Distances scale by the zoom, whatever the turn and the mirror.
        let a = t.windowPoint(x: 3, y: 4), b = t.windowPoint(x: 0, y: 0)
        #expect(abs(((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot() - 5 * t.zoom) < 1e-9)
    }

    @Test(arguments: views)
    func theRectsCoverWhatTheyMap(t: ViewTransform) {
        let canvasRect = Rect(x: 7, y: -3, width: 20, height: 9)
        let shown = t.windowRect(covering: canvasRect)
        let inShown = t.canvasRect(shownIn: shown)
        for (fx, fy) in [(0.0, 0.0), (1, 0), (0, 1), (1, 1), (0.5, 0.5), (0.13, 0.9)] {
            let cx = Double(canvasRect.minX) + fx * Double(canvasRect.width), cy = Double(canvasRect.minY) + fy * Double(canvasRect.height)
            let w = t.windowPoint(x: cx, y: cy)
            #expect(w.x >= Double(shown.minX) && w.x <= Double(shown.maxX) && w.y >= Double(shown.minY) && w.y <= Double(shown.maxY))
        }
        // Every window pixel of `shown` samples canvas inside `inShown`.
        for wy in [shown.minY, shown.maxY - 1] {
            for wx in [shown.minX, shown.maxX - 1] {
                let c = t.canvasPoint(x: Double(wx) + 0.5, y: Double(wy) + 0.5)
                #expect(inShown.contains(x: Int(c.x.rounded(.down)), y: Int(c.y.rounded(.down))))
            }
        }
    }

    @Test func turningKeepsThePointItTurnsAbout() {
        var t = ViewTransform(zoom: 1.5, x: 13, y: -20)
        for _ in 0..<24 {
            let before = t.canvasPoint(x: 400, y: 300)
            t = t.turned(by: 15, around: 400, 300)
            let now = t.windowPoint(x: before.x, y: before.y)
            // The corner lands on whole window pixels: at most half a pixel off each way.
            #expect(abs(now.x - 400) <= 0.5 && abs(now.y - 300) <= 0.5)
        }
        #expect(t.angle == 0, "24 turns of 15° are a whole turn")
        #expect(ViewTransform(zoom: 1, angle: -15, x: 0, y: 0).angle == 345)
        #expect(ViewTransform(zoom: 1, angle: 720, x: 0, y: 0) == .identity)
    }

    @Test func mirroringFlipsTheWindowAboutAVerticalLine() {
        let t = ViewTransform(zoom: 2, angle: 30, x: 100, y: 50)
        let m = t.mirrored(about: 400)
        #expect(m.mirror && m.angle == 330)
        for (cx, cy) in [(0.0, 0.0), (10.5, 3), (-7, 44)] {
            let a = t.windowPoint(x: cx, y: cy), b = m.windowPoint(x: cx, y: cy)
            #expect(abs(b.x - (800 - a.x)) < 1e-9 && abs(b.y - a.y) < 1e-9)
        }
        #expect(m.mirrored(about: 400) == t, "mirroring twice is the view again")
    }

    @Test func zoomStepsAreFinerAndMeetThePowersOfTwo() {
        var t = ViewTransform.identity
        var zooms: [Double] = []
        for _ in 0..<4 { t = ViewTransform(zoom: t.zoomStepped(by: 1, perDoubling: 4), x: 0, y: 0); zooms.append(t.zoom) }
        #expect(zooms.last == 2 && abs(zooms[0] - 1.189207115002721) < 1e-12)
        #expect(t.powerOfTwoScale == 1)
        for _ in 0..<4 { t = ViewTransform(zoom: t.zoomStepped(by: -1, perDoubling: 4), x: 0, y: 0) }
        #expect(t == .identity)
        #expect(ViewTransform(zoom: 1000, x: 0, y: 0).zoom == 32 && ViewTransform(zoom: 0.001, x: 0, y: 0).zoom == 0.125)
    }

    @Test func samplingAndTheTitle() {
        #expect(ViewTransform(scale: 2, x: 3, y: 4).sampling == .exact(scale: 2))
        #expect(ViewTransform(zoom: 1, mirror: true, x: 0, y: 0).sampling == .nearest)
        #expect(ViewTransform(zoom: 3, x: 0, y: 0).sampling == .nearest)
        #expect(ViewTransform(zoom: 0.3, x: 0, y: 0).sampling == .bilinear(level: 2))
        #expect(ViewTransform(zoom: 0.125, angle: 1, x: 0, y: 0).sampling == .bilinear(level: 8))
        #expect(ViewTransform(zoom: 4, angle: 45, x: 0, y: 0).sampling == .bilinear(level: 1))
        #expect(ViewTransform(zoom: 1.189207115002721, angle: 30, x: 0, y: 0).percent == "118.9 % 30°")
        #expect(ViewTransform(zoom: 2, mirror: true, x: 0, y: 0).percent == "200 % mirrored")
    }
}
