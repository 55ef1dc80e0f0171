import Compute
import Foundation
import Geometry
import Strokes
import Testing
@testable import Paint

/// The live stroke's masks keep `TileOf.setRows` true to their pixels: every row holding
/// coverage is marked, so the compose, which passes unmarked rows unread, misses no paint; and
/// rows never written stay unmarked, so it has rows to pass.
@Suite struct StrokeLayerRowsTests {
    /// Every row of every tile of `mask` that holds a non-zero pixel is marked; returns how many
    /// rows are marked in all.
    private func checkMarks(_ mask: TiledMask, sourceLocation: SourceLocation = #_sourceLocation) -> Int {
        var marked = 0
        for (key, tile) in mask.tiles {
            for y in 0..<Tile.side {
                let set = tile.setRows >> UInt64(y) & 1 != 0
                if set { marked += 1 }
                let painted = (0..<Tile.side).contains { tile.texture[$0, y] != 0 }
                #expect(set || !painted, "tile \(key) row \(y) holds coverage but is not marked", sourceLocation: sourceLocation)
            }
        }
        return marked
    }

    @Test func dabsSpansAndTailsMarkTheRowsTheyCover() {
        let layer = StrokeLayer()
        // Dabs across tile corners (negative ones too), small and large, and spans.
        _ = layer.commit { sink in
            for i in 0..<40 {
                let t = Double(i)
                sink.dab(x: -70 + t * 7.3, y: 30 + 50 * sin(t / 5), radius: 1 + Double(i % 9) * 3.5)
            }
            sink.span(y: 63, x0: -10, x1: 200)
            sink.span(y: -1, x0: 5, x1: 70)
            return Rect(x: -200, y: -200, width: 500, height: 400)
        }
        let committedRows = checkMarks(layer.committed)
        #expect(committedRows > 0)
        #expect(committedRows < layer.committed.count * Tile.side, "a stroke through tiles leaves some of their rows unmarked")
        // A tail drawn, then redrawn elsewhere: the old one's rows cleared, the new one's marked.
        _ = layer.redrawTail { sink in
            sink.dab(x: 10, y: 10, radius: 6)
            return Rect(x: 0, y: 0, width: 20, height: 20)
        }
        _ = checkMarks(layer.tail)
        _ = layer.redrawTail { sink in
            sink.dab(x: 100, y: 130, radius: 20)
            sink.span(y: 127, x0: 60, x1: 140)
            return Rect(x: 75, y: 105, width: 70, height: 50)
        }
        _ = checkMarks(layer.tail)
    }

    @Test func theMercurialFrameMaskMarksTheRowsItCopies() {
        let layer = StrokeLayer()
        let frame = layer.frameMask(size: Size(width: 200, height: 150))
        for y in stride(from: 3, to: 150, by: 11) { frame[y % 200, y] = 200; frame[199 - y, y] = 90 }
        layer.absorbFrameMask(Rect(x: 0, y: 0, width: 200, height: 150))
        _ = checkMarks(layer.committed)
    }

    @Test func aStrokeComposesTheSameWithTheMarks() {
        // The rows a stroke marks are the rows whose coverage shows: composed through the
        // masks as drawn, and through copies whose every row is marked, the bytes agree.
        let layer = StrokeLayer()
        _ = layer.commit { sink in
            sink.dab(x: 40.5, y: 60.25, radius: 9); sink.dab(x: 70, y: 64, radius: 3)
            sink.span(y: 100, x0: 0, x1: 150)
            return Rect(x: 0, y: 0, width: 150, height: 120)
        }
        var unmarked = TiledMask()
        for (key, tile) in layer.committed.tiles { unmarked[key] = tile.markingEveryRow() }
        #expect(unmarked.tiles.allSatisfy { $0.tile.setRows == ~0 })
        for y in 0..<120 {
            #expect(layer.covers(Rect(x: 0, y: y, width: 150, height: 1)) == (0..<150).contains { unmarked[$0, y] != 0 })
        }
    }
}

private extension TileOf {
    /// This tile with every row marked, as a tile made outside `Tiles.writableTile` is.
    func markingEveryRow() -> TileOf {
        let t = TileOf()
        t.texture.base.update(from: texture.base, count: TileOf.side * TileOf.side)
        return t
    }
}
