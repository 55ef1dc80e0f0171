import Clock
import Compute
import Events
import Geometry
import Kernels
import Testing
@testable import Paint

/// Layers, the live stroke's masks and the caches have no edges: a stroke anywhere within
/// ±2³⁰ pixels paints, and the same stroke moved by a multiple of 64 pixels paints the same
/// pixels, moved.
@Suite struct EndlessCanvasTests {
    static let far = 1 << 30

    /// A pen stroke along a wavy line from (x, y), played in frames that present it (so the live
    /// stroke is composed as it goes), then ended: the current layer holds it.
    private func paint(_ session: Session, at x: Double, _ y: Double, size: Int = 12, eraser: Bool = false) {
        let window = OffscreenPresenter(size: Size(width: 64, height: 48))
        session.handle(.command(.brush(kind: eraser ? .eraser : .pen, size: size)))
        session.handle(.pointerDown(StrokeSample(x: x, y: y, pressure: 0.7)))
        for i in 1...20 {
            session.handle(.pointerMove(StrokeSample(x: x + Double(i) * 7.25, y: y + Double(i % 5) * 3.5, pressure: 0.7)))
            session.draw(FrameInfo(index: i, timestamp: 0, targetTimestamp: 0), to: window)
        }
        session.handle(.pointerUp(StrokeSample(x: x + 150, y: y + 2, pressure: 0.7)))
        session.draw(FrameInfo(index: 21, timestamp: 0, targetTimestamp: 0), to: window)
    }

    /// The layer's tiles as (key moved by `dx`, `dy` tiles, bytes).
    private func tiles(_ layer: Layer, movedBy dx: Int = 0, _ dy: Int = 0) -> [TileKey: [UInt32]] {
        var out: [TileKey: [UInt32]] = [:]
        for (key, tile) in layer.pixels.tiles {
            out[TileKey(x: key.x + dx, y: key.y + dy)] = (0..<Tile.side).flatMap { y in Array(UnsafeBufferPointer(start: tile.texture.row(y), count: Tile.side)) }
        }
        return out
    }

    @Test(arguments: [(far, far), (-far, -far), (far - 64, -far), (-far, far - 640)])
    func aStrokeFarAwayPaintsTheSamePixelsMoved(dx: Int, dy: Int) {
        let here = Session(size: Size(width: 200, height: 100), compute: ComputeContext(threads: 2, inlineThreshold: 0))
        let there = Session(size: Size(width: 200, height: 100), compute: ComputeContext(threads: 2, inlineThreshold: 0))
        paint(here, at: 20.5, 40.25)
        paint(there, at: 20.5 + Double(dx), 40.25 + Double(dy))
        let near = tiles(here.document.currentLayer)
        #expect(!near.isEmpty && near.values.contains { $0.contains { $0 >> 24 != 0 } }, "the stroke painted")
        #expect(tiles(there.document.currentLayer, movedBy: -(dx >> 6), -(dy >> 6)) == near, "the same pixels, moved by (\(dx), \(dy))")
        let bounds = there.document.currentLayer.bounds
        #expect(bounds.minX >= dx && bounds.minY >= dy - 64 && bounds.maxX <= dx + 256, "\(bounds)")
        // Undone, the far tiles hold nothing again.
        there.handle(.command(.undo))
        there.draw(FrameInfo(index: 30, timestamp: 0, targetTimestamp: 0), to: OffscreenPresenter(size: Size(width: 8, height: 8)))
        #expect(there.document.currentLayer.pixels.tiles.allSatisfy { t in (0..<Tile.side).allSatisfy { y in (0..<Tile.side).allSatisfy { t.tile.texture[$0, y] == 0 } } })
    }

    /// An eraser far away takes away what a pen put there, as it would at the origin.
    @Test func anEraserFarAwayErasesAsAtTheOrigin() {
        let here = Session(size: Size(width: 200, height: 100), compute: ComputeContext(threads: 1))
        let there = Session(size: Size(width: 200, height: 100), compute: ComputeContext(threads: 1))
        let (dx, dy) = (-Self.far, Self.far - 128)
        paint(here, at: 20, 40, size: 20)
        paint(here, at: 30, 44, size: 6, eraser: true)
        paint(there, at: 20 + Double(dx), 40 + Double(dy), size: 20)
        paint(there, at: 30 + Double(dx), 44 + Double(dy), size: 6, eraser: true)
        #expect(tiles(there.document.currentLayer, movedBy: -(dx >> 6), -(dy >> 6)) == tiles(here.document.currentLayer))
    }

    /// Layers below and above the current one with paint far away: the picture composed there
    /// through the caches is the layers flattened (the caches are made where they are read).
    @Test func theCachesAreMadeWhereTheyAreRead() {
        let session = Session(size: Size(width: 100, height: 100), background: Color(r: 255, g: 255, b: 255), compute: ComputeContext(threads: 2))
        let (x, y) = (Double(Self.far - 1000), Double(-Self.far + 300))
        paint(session, at: x, y, size: 16)
        session.handle(.command(.layer(.new(name: nil))))
        session.handle(.command(.brush(color: Color(r: 0, g: 0, b: 255))))
        paint(session, at: x + 20, y + 2, size: 16)
        session.handle(.command(.layer(.new(name: nil))))
        session.handle(.command(.layer(.select(1))))
        session.draw(FrameInfo(index: 40, timestamp: 0, targetTimestamp: 0), to: OffscreenPresenter(size: Size(width: 8, height: 8)))
        let out = TextureStorage<UInt32>(width: 200, height: 40, filledWith: 0)
        let view = ViewTransform(scale: 0, x: -(Self.far - 1010), y: Self.far - 290)
        session.compose(out.texture.bounds, into: out.texture, transform: view)
        // At (x + 2, y): the first layer's black alone; at (x + 60, y + 4): both, blue on top.
        #expect(out.texture[1000 - 1010 + 1012 - 1000, 10] == 0xFF00_0000)
        #expect(out.texture[1060 - 1010, 14] == 0xFF00_00FF)
        #expect(out.texture[190, 35] == 0xFFFF_FFFF, "the background where nothing is painted")
    }
}
