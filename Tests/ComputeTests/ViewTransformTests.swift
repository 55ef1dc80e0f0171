import Geometry
import Testing

@Suite struct ViewTransformTests {
    @Test func mapsBothWays() {
        let t = ViewTransform(scale: 2, x: 10, y: -4)   // zoom 4
        #expect(t.canvasPoint(x: 30, y: 16) == (5, 5))
        #expect(t.windowRect(covering: Rect(x: 5, y: 5, width: 2, height: 1)) == Rect(x: 30, y: 16, width: 8, height: 4))
        let out = ViewTransform(scale: -2, x: 1, y: 0)  // zoom 1/4: canvas x 0…3 is window x 1
        #expect(out.windowRect(covering: Rect(minX: 3, minY: 0, maxX: 9, maxY: 4)) == Rect(minX: 1, minY: 0, maxX: 4, maxY: 1))
        #expect(out.windowRect(covering: Rect(minX: -5, minY: -1, maxX: -4, maxY: 0)) == Rect(minX: -1, minY: -1, maxX: 0, maxY: 0))
    }

    /// What a compose of window pixels reads of the canvas: at 400 %, the canvas pixels under
    /// them (a part pixel counts); at 25 %, every pixel of the 4x4 blocks they average.
    @Test func theCanvasAWindowRectReads() {
        let t = ViewTransform(scale: 2, x: 10, y: -4)
        #expect(t.canvasRect(shownIn: Rect(x: 30, y: 16, width: 8, height: 4)) == Rect(x: 5, y: 5, width: 2, height: 1))
        #expect(t.canvasRect(shownIn: Rect(x: 29, y: 16, width: 2, height: 1)) == Rect(x: 4, y: 5, width: 2, height: 1))
        let out = ViewTransform(scale: -2, x: 1, y: 0)
        #expect(out.canvasRect(shownIn: Rect(minX: 1, minY: 0, maxX: 4, maxY: 1)) == Rect(minX: 0, minY: 0, maxX: 12, maxY: 4))
        #expect(ViewTransform.identity.canvasRect(shownIn: Rect(x: -3, y: 2, width: 5, height: 5)) == Rect(x: -3, y: 2, width: 5, height: 5))
    }

    /// Damage pieces far apart stay apart; pieces side by side, or one inside another, merge.
    @Test func damagePiecesMergeWhereTheirBoundsCostLittleMore() {
        let panel = Rect(x: 1692, y: 8, width: 220, height: 670), strip = Rect(x: 6, y: 1050, width: 600, height: 24)
        #expect(Rect.mergedPieces([panel, .empty, strip]) == [panel, strip])
        #expect(Rect.mergedPieces([panel, Rect(x: 1700, y: 20, width: 10, height: 10)]) == [panel])
        #expect(Rect.mergedPieces([Rect(x: 0, y: 0, width: 10, height: 10), Rect(x: 10, y: 0, width: 10, height: 10), strip])
                == [Rect(x: 0, y: 0, width: 20, height: 10), strip])
        #expect(Rect.mergedPieces([]).isEmpty)
    }

    @Test func zoomKeepsThePointUnderTheAnchor() {
        var t = ViewTransform.identity
        for scale in [1, 3, 5, 5, 2, -1, -3, -3, 0] {
            let before = t.canvasPoint(x: 123, y: 77)
            let next = t.zoomed(to: scale, around: 123, 77)
            let after = next.canvasPoint(x: 123, y: 77)
            // Exact within one window pixel (the offset is whole window pixels).
            #expect(abs(after.x - before.x) < 1 / next.zoom + 1e-9 && abs(after.y - before.y) < 1 / next.zoom + 1e-9, "to \(scale)")
            #expect(next.scale == min(max(scale, -3), 5))
            t = next
        }
    }

    @Test func percentForTheTitle() {
        #expect([-3, -1, 0, 1, 5].map { ViewTransform(scale: $0, x: 0, y: 0).percent } == ["12.5 %", "50 %", "100 %", "200 %", "3200 %"])
    }
}
