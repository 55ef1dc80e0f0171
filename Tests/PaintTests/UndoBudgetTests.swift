import Clock
import Compute
import Events
import Foundation
import Geometry
import Kernels
import Paint
import ReplayFormat
import Testing
import TestSupport

/// Undo within a memory budget that holds only some of the steps: the oldest are dropped, by
/// the bytes they hold (the old tiles a stroke replaced, 16 KiB each), and undo stops at the
/// state after them; redo climbs back.
@Suite struct UndoBudgetTests {
    /// A 256x128 canvas: 4x2 tiles.
    static let size = Size(width: 256, height: 128)

    /// Steps of known sizes: a "full" stroke covers all 8 tiles, a "left" one the 4 of the two
    /// left columns (its round end reaches x = 70 + 50 + 1 < 128). Both stay within the canvas
    /// (from x = 52 − 51 on, y = 64 ± 51): the layers have no edges, and a stroke reaching past
    /// the canvas would make tiles there too. Each after the first replaces
    /// tiles that exist, so its step holds them; the first drew where no tile was and holds none.
    static let strokes: [(name: String, from: Double, to: Double, color: Color, tiles: Int)] = [
        ("full, opaque", 52, 204, Color(r: 0x20, g: 0x30, b: 0x40), 8),
        ("full, red", 52, 204, Color(r: 255, g: 0, b: 0, a: 0x60), 8),
        ("full, green", 52, 204, Color(r: 0, g: 255, b: 0, a: 0x60), 8),
        ("left, blue", 52, 70, Color(r: 0, g: 0, b: 255, a: 0x60), 4),
        ("full, yellow", 52, 204, Color(r: 255, g: 255, b: 0, a: 0x60), 8),
        ("left, cyan", 52, 70, Color(r: 0, g: 255, b: 255, a: 0x60), 4),
        ("full, magenta", 52, 204, Color(r: 255, g: 0, b: 255, a: 0x60), 8),
    ]

    /// Room for 24 tiles. Held after each stroke: 0, 8, 16, 20; then 28, over, so the first two
    /// steps go (0 and 8 bytes' worth) leaving 20; 24, exactly the budget, kept; 32, so the
    /// third step goes, leaving 24: the last four steps, and the picture after stroke 2 below them.
    static let budget = 24 * Tile.bytes
    static let kept = 4

    @Test func theOldestStepsGoFirstByTheirBytesAndUndoStopsAtTheStateAfterThem() {
        let session = Session(size: Self.size, compute: ComputeContext(threads: 1), historyBytes: Self.budget)
        var frame = 0
        func draw() {
            session.draw(FrameInfo(index: frame, timestamp: 0, targetTimestamp: 0), to: OffscreenPresenter(size: Self.size))
            frame += 1
        }
        var after: [[UInt32]] = []  // the picture after each stroke
        for s in Self.strokes {
            func identities() -> [TileKey: ObjectIdentifier] {
                Dictionary(uniqueKeysWithValues: session.document.currentLayer.pixels.tiles.map { ($0.key, ObjectIdentifier($0.tile)) })
            }
            let before = identities()
            session.handle(.command(.brush(kind: .pen, size: 100, color: s.color)))
            session.handle(.pointerDown(StrokeSample(x: s.from, y: 64, pressure: 0.5)))
            session.handle(.pointerUp(StrokeSample(x: s.to, y: 64, pressure: 0.5)))
            draw()
            let now = identities()
            // The step's size, checked rather than assumed: the tiles the stroke replaced.
            #expect(now.filter { before[$0.key] != $0.value }.count == s.tiles, "\(s.name) replaced \(s.tiles) tiles")
            #expect(now.count == TileKey.covering(Rect(size: Self.size)).count, "every tile exists after \(s.name)")
            after.append(session.snapshot().pixels)
        }
        for i in 1..<after.count {
            #expect(pixelDifference(after[i], after[i - 1], width: Self.size.width) != nil, "\(Self.strokes[i].name) changed the picture")
        }

        let last = after.count - 1
        // Each undo takes one kept step back, newest first; then nothing is left to undo.
        for n in 1...(Self.kept + 2) {
            session.handle(.command(.undo))
            draw()
            let want = last - min(n, Self.kept)
            expectSamePixels(session.snapshot().pixels, after[want], width: Self.size.width,
                             "after \(n) undos: the picture after \(Self.strokes[want].name)")
        }
        // Redo climbs back to the newest, and no further.
        for n in 1...(Self.kept + 1) {
            session.handle(.command(.redo))
            draw()
            let want = last - Self.kept + min(n, Self.kept)
            expectSamePixels(session.snapshot().pixels, after[want], width: Self.size.width,
                             "after \(n) redos: the picture after \(Self.strokes[want].name)")
        }
    }

    /// The same through a replay's header (`undoMegabytes`, as the window records its
    /// `--undo-megabytes`): 1 MiB is 64 tiles, a stroke over a 320x256 canvas (within it: the
    /// layers have no edges) replaces 20 of them, so three of five such steps fit; five undos then stop at the picture after the
    /// second stroke, as a render of only the first two draws it.
    @Test func aReplaysUndoMegabytesKeepsThreeOfFiveSteps() throws {
        let header = "{\"quicksilver\": 1, \"width\": 320, \"height\": 256, \"undoMegabytes\": 1}\n"
        let colors = ["#203040", "#ff000060", "#00ff0060", "#0000ff60", "#ffff0060", "#ff00ff60"]
        func strokes(_ n: Int) -> String {
            colors.prefix(n).enumerated().map { i, c in
                "{\"t\": \(i), \"type\": \"brush\", \"size\": 250, \"color\": \"\(c)\"}\n"
                    + "{\"t\": \(i), \"type\": \"down\", \"x\": 130, \"y\": 128}\n{\"t\": \(i), \"type\": \"up\", \"x\": 190, \"y\": 128}\n"
            }.joined()
        }
        let undo = "{\"t\": 10, \"type\": \"undo\"}\n", redo = "{\"t\": 11, \"type\": \"redo\"}\n"
        let afterSecond = try render(header + strokes(3))  // the opaque ground, then two of the five
        let afterThird = try render(header + strokes(4))
        let all = try render(header + strokes(6))
        #expect(pixelDifference(afterSecond.pixels, afterThird.pixels, width: 320) != nil)
        expectSame(try render(header + strokes(6) + String(repeating: undo, count: 2)), afterThird, "two undos")
        expectSame(try render(header + strokes(6) + String(repeating: undo, count: 3)), afterSecond, "three undos")
        expectSame(try render(header + strokes(6) + String(repeating: undo, count: 5)), afterSecond, "five undos: only three were kept")
        expectSame(try render(header + strokes(6) + String(repeating: undo, count: 5) + String(repeating: redo, count: 4)), all,
                   "redone to the newest")
    }
}
