import Clock
import Compute
import Events
import Foundation
import Geometry
import Kernels
import Paint
import Testing
import TestSupport

/// A mercurial stroke through a sine wave on a dark canvas, with optional extra lines.
func mercurialReplay(extra: [String] = [], seed: Int = 7) -> String {
    var lines = ["{\"quicksilver\": 1, \"width\": 320, \"height\": 200, \"seed\": \(seed), \"background\": \"#20242c\"}",
                 "{\"t\": 0, \"type\": \"brush\", \"kind\": \"mercurial\", \"size\": 120, \"color\": \"#c0c8d8\"}"]
    for (i, p) in wave(count: 60, x0: 40, dx: 4, y0: 100, amplitude: 50, period: 9).enumerated() {
        lines.append("{\"t\": \(Double(i) * 0.004), \"type\": \"\(i == 0 ? "down" : "move")\", \"x\": \(p.0), \"y\": \(p.1), \"pressure\": 0.4}")
    }
    lines.append("{\"t\": 0.3, \"type\": \"up\", \"x\": 276, \"y\": 100, \"pressure\": 0.4}")
    return (lines + extra).joined(separator: "\n") + "\n"
}

@Suite struct MercurialSessionTests {
    @Test func sameBytesOnEveryRunAndThreadCount() throws {
        let one = try render(mercurialReplay(), threads: 1)
        expectSame(try render(mercurialReplay(), threads: 2), one, "two threads")
        expectSame(try render(mercurialReplay(), threads: 3), one, "three threads")
        #expect(pixelDifference(try render(mercurialReplay(seed: 8), threads: 1).pixels, one.pixels, width: 320) != nil,
                "the seed drives the spray")
        // The stroke is there: embossed metal, not the dark background, along the path.
        #expect(one[160, 100] != 0xFF20_242C && one[40, 100] != 0xFF20_242C)
        #expect(one[5, 5] == 0xFF20_242C && one[315, 195] == 0xFF20_242C)
    }

    @Test func everySampleOfAFrameIsSprayedInBatchesOfFour() {
        let session = Session(size: Size(width: 200, height: 200), compute: ComputeContext(threads: 1))
        session.handle(.command(.brush(kind: .mercurial)))
        session.handle(.pointerDown(StrokeSample(x: 100, y: 100, pressure: 0.5)))
        for i in 0..<9 { session.handle(.pointerMove(StrokeSample(x: 100 + Double(i), y: 100, pressure: 0.5))) }
        session.draw(FrameInfo(index: 0, timestamp: 0, targetTimestamp: 0), to: OffscreenPresenter(size: Size(width: 200, height: 200)))
        // Ten samples in one frame: three batches (4 + 4 + 2), none dropped.
        #expect(session.mercurialCounts == (10, 3))
        session.handle(.pointerMove(StrokeSample(x: 120, y: 100, pressure: 0.5)))
        session.draw(FrameInfo(index: 1, timestamp: 0, targetTimestamp: 0), to: OffscreenPresenter(size: Size(width: 200, height: 200)))
        #expect(session.mercurialCounts == (11, 4))
    }

    @Test func liveLookIsTheThresholdedBlobInTheBrushColour() {
        let session = Session(size: Size(width: 200, height: 200), background: Color(r: 0, g: 0, b: 0), compute: ComputeContext(threads: 1))
        session.handle(.command(.brush(kind: .mercurial, size: 100, color: Color(r: 255, g: 0, b: 0))))
        session.handle(.pointerDown(StrokeSample(x: 100, y: 100, pressure: 0.5)))
        for i in 0..<20 { session.handle(.pointerMove(StrokeSample(x: 100, y: 100 + Double(i % 3), pressure: 0.5))) }
        let presenter = OffscreenPresenter(size: Size(width: 200, height: 200))
        session.draw(FrameInfo(index: 0, timestamp: 0, targetTimestamp: 0), to: presenter)
        let shown = Set(presenter.image.pixels)
        #expect(shown == [0xFF00_0000, 0xFFFF_0000], "binary: background or brush colour")
        #expect(presenter.image.texture[100, 100] == 0xFFFF_0000)
    }

    /// The baked metal keeps the brush's colour as its tint (red and grey bake differently,
    /// red redder), and a wide stroke is rounded across its whole width: along a line across it
    /// the shade keeps changing, not a flat slab between two rims.
    @Test func theMetalKeepsItsColourAndIsRoundedAcrossAWideStroke() throws {
        func baked(_ color: String, size: Int) throws -> Picture {
            var lines = ["{\"quicksilver\": 1, \"width\": 400, \"height\": 300, \"seed\": 3, \"background\": \"#20242c\"}",
                         "{\"t\": 0, \"type\": \"brush\", \"kind\": \"mercurial\", \"size\": \(size), \"color\": \"\(color)\"}"]
            for i in 0..<40 {
                lines.append("{\"t\": \(Double(i) * 0.004), \"type\": \"\(i == 0 ? "down" : "move")\", \"x\": \(60 + i * 7), \"y\": 150, \"pressure\": 0.5}")
            }
            lines.append("{\"t\": 0.3, \"type\": \"up\", \"x\": 333, \"y\": 150, \"pressure\": 0.5}")
            return try render(lines.joined(separator: "\n") + "\n")
        }
        let red = try baked("#e53935", size: 200), grey = try baked("#757575", size: 200)
        let (r, g) = (red[200, 150] >> 16 & 0xFF, red[200, 150] >> 8 & 0xFF)
        #expect(red[200, 150] != grey[200, 150] && r > g + 40, "red metal: \(String(red[200, 150], radix: 16)) vs grey \(String(grey[200, 150], radix: 16))")
        // Across the stroke (x = 200, from its top edge to its middle), the shade changes all the way in.
        let column = (60..<150).map { grey[200, $0] }.filter { $0 != 0xFF20_242C }
        let changes = zip(column, column.dropFirst()).filter { $0 != $1 }.count
        #expect(column.count > 40 && changes > column.count * 2 / 3, "\(changes) changes over \(column.count) pixels")
    }

    @Test func theEmbossIsOneUndoStep() throws {
        let before = try render(mercurialReplay().components(separatedBy: "\n").prefix(2).joined(separator: "\n") + "\n")
        let drawn = try render(mercurialReplay())
        let undone = try render(mercurialReplay(extra: ["{\"t\": 1, \"type\": \"undo\"}"]))
        #expect(pixelDifference(drawn.pixels, before.pixels, width: 320) != nil)
        expectSame(undone, before, "undone")
        expectSame(try render(mercurialReplay(extra: ["{\"t\": 1, \"type\": \"undo\"}", "{\"t\": 2, \"type\": \"redo\"}"])), drawn, "redone")
    }

    @Test func invertTwiceIsTheIdentity() throws {
        let plain = try render(mercurialReplay())
        let once = try render(mercurialReplay(extra: ["{\"t\": 1, \"type\": \"invert\"}"]))
        let twice = try render(mercurialReplay(extra: ["{\"t\": 1, \"type\": \"invert\"}", "{\"t\": 2, \"type\": \"invert\", \"on\": false}"]))
        expectSame(twice, plain, "inverted twice")
        expectSamePixels(once.pixels, plain.pixels.map { $0 ^ 0x00FF_FFFF }, width: 320, "inverted once")
    }

    @Test func pulsingBackgroundShowsOnlyWhereTheCanvasIsBare() throws {
        var text = strokeReplay([(20, 50), (180, 50)])
        // Frame 60 starts the pulse at loc 0.5 (pure red); frame 110 is loc 1.
        text += "{\"t\": 1, \"type\": \"pulse\", \"on\": true, \"hue\": 0, \"centre\": 0.5, \"range\": 0.7}\n"
        text += "{\"t\": 1.84, \"type\": \"channel\", \"channel\": \"r\"}\n"
        let img = try render(text)
        #expect(img[100, 90] == Pulse().color(loc: 1).pixel, "bare canvas shows the pulse colour of frame 110")
        #expect(img[100, 50] == 0xFF00_0000, "the stroke stays on top")
    }
}
