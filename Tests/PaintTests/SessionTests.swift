import Clock
import Compute
import Events
import Geometry
import Foundation
import Kernels
import Measures
import Paint
import ReplayFormat
import Strokes
import Testing
import TestSupport

let white: UInt32 = 0xFFFF_FFFF
let black: UInt32 = 0xFF00_0000

@Suite struct SessionTests {
    @Test func lineCoversItsPathAndNothingFarFromIt() throws {
        let img = try render(strokeReplay([(20, 50), (180, 50)]))
        for x in 20...180 { #expect(img[x, 50] == black, "on the path at x=\(x)") }
        for x in 0..<200 {
            for y in 0..<100 where abs(y - 50) > 6 || x < 14 || x > 186 {
                #expect(img[x, y] == white, "far pixel \(x),\(y)")
            }
        }
    }

    /// Strokes from x = 50 to 150 at y = 50: two samples or many, at three pressures.
    static let capCases: [(samples: Int, pressure: Double)] = [(2, 0.5), (21, 0.5), (2, 1.0), (2, 0.2), (21, 0.2)]

    @Test(arguments: capCases)
    func bothCapsReachAFullRadiusBeyondTheEnds(samples: Int, pressure: Double) throws {
        let points: [(Double, Double)] = (0..<samples).map { (50 + 100 * Double($0) / Double(samples - 1), 50) }
        var lines = strokeReplay(points).split(separator: "\n").map(String.init)
        for i in 1..<lines.count { lines[i] = lines[i].replacingOccurrences(of: "}", with: ", \"pressure\": \(pressure)}") }
        let img = try render(lines.joined(separator: "\n") + "\n")
        let r = max(0.5, 8 * pressure)   // size 8: diameter 16 × pressure, never below 1 px
        // Pixel 50 − k has its centre k − 0.5 before the start; pixel 149 + k as far past the end.
        // The caps are mirror images, full well inside the radius and bare from r + 0.5 on.
        for k in 1...Int(r.rounded(.up)) + 1 {
            let distance = Double(k) - 0.5
            #expect(img[50 - k, 50] == img[149 + k, 50], "the end's cap as the start's, \(distance) px out")
            if distance <= r - 1 { #expect(img[149 + k, 50] == black, "\(distance) px past the end, inside the radius") }
            if distance >= r + 0.5 { #expect(img[149 + k, 50] == white, "\(distance) px past the end, outside it") }
        }
    }

    @Test func aDiagonalStrokeEndsAsFarOutAsItStarts() throws {
        let img = try render(strokeReplay([(40, 20), (140, 80)], width: 200, height: 100))
        // Along the stroke's direction (5, 3)/√34, 4 px beyond each end: the same coverage.
        let d = (5.0 / 34.squareRoot(), 3.0 / 34.squareRoot())
        let before = img[Int(40 - 3.4 * d.0), Int(20 - 3.4 * d.1)], after = img[Int(140 + 3.4 * d.0), Int(80 + 3.4 * d.1)]
        #expect(before != white && after != white)
        // And 6 px beyond each, past the radius (4) and its anti-aliased rim, nothing.
        #expect(img[Int(40 - 6 * d.0), Int(20 - 6 * d.1)] == white && img[Int(140 + 6 * d.0), Int(80 + 6 * d.1)] == white)
    }

    @Test func tapPaintsADotOfTheBrushSize() throws {
        let img = try render(strokeReplay([(100, 50)], brush: "\"size\": 10"))
        // Diameter 10 → area ≈ 78.5 px of coverage.
        let covered = img.pixels.reduce(0.0) { $0 + Double(255 - ($1 & 0xff)) / 255 }
        #expect(abs(covered - Double.pi * 25) < 2)
        #expect(img[100, 50] == black)
    }

    @Test func translucentStrokeDoesNotDarkenWhereItCrossesItself() throws {
        // A loop: right, down, left, then up through the first segment.
        let points: [(Double, Double)] = [(20, 30), (60, 30), (100, 30), (100, 70), (60, 70), (60, 50), (60, 10)]
        let img = try render(strokeReplay(points, brush: "\"size\": 12, \"color\": \"#ff000080\""), threads: 2)
        let plain = img[30, 30]
        #expect(plain == 0xFFFF_7F7F)
        #expect(img[60, 30] == plain, "the crossing")
        #expect(img[100, 50] == plain)
    }

    @Test func separateStrokesCompositeSourceOver() throws {
        var text = strokeReplay([(20, 50), (180, 50)], brush: "\"size\": 12, \"color\": \"#ff000080\"")
        text += "{\"t\": 1, \"type\": \"down\", \"x\": 100, \"y\": 10}\n{\"t\": 1, \"type\": \"move\", \"x\": 100, \"y\": 90}\n{\"t\": 1, \"type\": \"up\", \"x\": 100, \"y\": 90}\n"
        let img = try render(text)
        #expect(img[50, 50] == 0xFFFF_7F7F)
        // Red at 50% over the first stroke's pink: g and b halve again.
        #expect(img[100, 50] == Blend.over(0xFFFF_7F7F, r: 255, g: 0, b: 0, alpha: 128))
    }

    @Test func resultDoesNotDependOnFrameBatching() throws {
        let points = wave(count: 40, x0: 10, dx: 4.5, y0: 50, amplitude: 30, period: 5)
        let oneFrame = try render(strokeReplay(points, dt: 0)).pixels
        let manyFrames = try render(strokeReplay(points, dt: 0.01)).pixels
        #expect(oneFrame == manyFrames)
        #expect(oneFrame.contains(black))
    }

    @Test func sameBytesForEveryThreadCount() throws {
        var text = strokeReplay(wave(count: 60, x0: 0, dx: 3, y0: 50, amplitude: 40, period: 7), width: 1000, height: 700,
                                brush: "\"size\": 40, \"color\": \"#3366ff80\"")
        text += "{\"t\": 2, \"type\": \"brush\", \"kind\": \"pixel\", \"size\": 9}\n"
        text += "{\"t\": 2, \"type\": \"down\", \"x\": 5, \"y\": 690}\n{\"t\": 2, \"type\": \"move\", \"x\": 995, \"y\": 3}\n{\"t\": 2, \"type\": \"up\", \"x\": 995, \"y\": 3}\n"
        let one = try render(text, threads: 1).pixels
        for n in [2, 3, 5] { #expect(try render(text, threads: n).pixels == one) }
    }

    @Test func pixelPenIsHardEdged() throws {
        let img = try render(strokeReplay([(10.5, 10.5), (60.5, 40.5)], brush: "\"kind\": \"pixel\", \"size\": 3"))
        #expect(Set(img.pixels).isSubset(of: [white, black]))
        #expect(img[10, 10] == black && img[60, 40] == black)
    }

    @Test func channelFlipsOneChannel() throws {
        var text = "{\"quicksilver\": 1, \"width\": 20, \"height\": 20}\n"
        text += "{\"t\": 0, \"type\": \"channel\", \"channel\": \"g\"}\n"
        text += "{\"t\": 0, \"type\": \"down\", \"x\": 10, \"y\": 10}\n{\"t\": 0, \"type\": \"up\", \"x\": 10, \"y\": 10}\n"
        #expect(try render(text)[10, 10] == 0xFF00_FF00)
    }

    @Test func aHundredThousandSamplesInOneFrameAreAllDrawn() {
        let session = Session(size: Size(width: 300, height: 100), compute: ComputeContext(threads: 2))
        session.handle(.pointerDown(StrokeSample(x: 0, y: 50, pressure: 0.5)))
        for i in 1...100_000 {
            session.handle(.pointerMove(StrokeSample(x: Double(i) * 0.0029, y: 50, pressure: 0.5)))
        }
        let presenter = OffscreenPresenter(size: Size(width: 300, height: 100))
        session.draw(FrameInfo(index: 0, timestamp: 0, targetTimestamp: 0), to: presenter)
        let img = presenter.image.pixels
        #expect(img[50 * 300 + 289] == 0xFF00_0000, "the live tail reaches the 100,000th sample at x = 290")
        #expect(img[50 * 300 + 295] == 0xFFFF_FFFF)
    }

    /// Samples far outside the canvas, up to the largest finite numbers a replay may hold ("far
    /// outside the canvas is fine: it is clipped", docs/journal.md), draw exactly the part of the
    /// stroke within `StrokeEngine.strokeReach` of where it started and nothing else: on the
    /// canvas, the same pixels as the same stroke from samples just off the canvas, or none for
    /// a stroke that starts 10⁹ px out. Straight across, straight down, off along a slope of ½, and
    /// a pointer glitch: a sample flung far off to the right and back; with the pen (size 10:
    /// radius 5, a dab every 2 px) and the pixel pen.
    ///
    /// The pixel pen has no dab spacing, and the pen's dabs along a stroke starting 10⁹ px out
    /// still fall exactly where those of one from 1000 px out do (a whole number of 2 px steps
    /// away). Past 2⁵³ no Double holds where along the line the dabs fall, and after a detour
    /// neither does any sum of its lengths, so there the pen's dabs may sit up to a step along
    /// from the near stroke's: the pixels the near stroke paints fully or leaves bare must be the
    /// same, its anti-aliased rim within 28 levels (a dab 1 px along, 4.5 px from a rim pixel's
    /// centre, covers it 0.11 px less).
    /// After the far stroke the session goes on: undo takes it away, and the next stroke draws.
    @Test(arguments: [1e9, 1e15, 1e20, 1e100, 1e155, 1e200, 1e300, Double.greatestFiniteMagnitude])
    func farSamplesDrawExactlyThePartOfTheStrokeOnTheCanvas(far: Double) throws {
        let shapes: [(name: String, far: [(Double, Double)], near: [(Double, Double)], samePhase: Bool, inked: [(Int, Int)])] = [
            ("across", [(-far, 50), (far, 50)], [(-1000, 50), (1000, 50)], far <= 0x1p53, [(0, 50), (199, 50)]),
            ("down", [(100, -far), (100, far)], [(100, -1000), (100, 1000)], far <= 0x1p53, [(100, 0), (100, 99)]),
            ("off along a slope", [(20, 20), (20 + far, 20 + far / 2)], [(20, 20), (2020, 1020)], true, [(20, 20), (120, 70)]),
            ("flung away and back", [(20, 30), (far, 30), (far, 70), (20, 70)], [(20, 30), (1000, 30), (1000, 70), (20, 70)], false,
             [(20, 30), (199, 30), (20, 70), (199, 70)]),
        ]
        let next = "{\"t\": 1, \"type\": \"down\", \"x\": 10, \"y\": 90}\n{\"t\": 1, \"type\": \"up\", \"x\": 190, \"y\": 90}\n"
        let undo = "{\"t\": 1, \"type\": \"undo\"}\n"
        let blank = try render(strokeReplay([(-50, -50)]))
        #expect(blank.pixels.allSatisfy { $0 == white })
        for (brush, pixelPen) in [("\"size\": 10", false), ("\"kind\": \"pixel\", \"size\": 3", true)] {
            for shape in shapes {
                let what = "\(shape.name) from \(far)\(pixelPen ? ", pixel pen" : "")"
                let near = try render(strokeReplay(shape.near, brush: brush))
                #expect(shape.inked.allSatisfy { near[$0.0, $0.1] == black }, "\(what): the near stroke crosses the canvas")
                let text = strokeReplay(shape.far, brush: brush)
                // A stroke draws within `StrokeEngine.strokeReach` of where it started: one
                // starting 10⁹ px out draws nothing on the canvas (and not a line of 10⁹ dabs).
                let startsFar = shape.far[0].0.magnitude > 1e6 || shape.far[0].1.magnitude > 1e6
                let nextNear = strokeReplay(startsFar ? [(-50, -50)] : shape.near, brush: brush) + next
                let nearNow = startsFar ? blank : near
                for (got, want, after) in [(try render(text), nearNow, ""), (try render(text + next), try render(nextNear), ", then a stroke")] {
                    if shape.samePhase || pixelPen || startsFar {
                        expectSame(got, want, what + after)
                        continue
                    }
                    var rim = 0, worst = 0
                    for i in want.pixels.indices {
                        if want.pixels[i] == white || want.pixels[i] == black {
                            if got.pixels[i] != want.pixels[i] { worst = 255 }
                        } else {
                            rim += 1
                            worst = max(worst, abs(Int(got.pixels[i] & 0xFF) - Int(want.pixels[i] & 0xFF)))  // grey: one channel says it
                        }
                    }
                    #expect(worst <= 28 && rim > 0, """
                        \(what)\(after): \(worst) levels from the near stroke (\(rim) rim pixels); \
                        \(pixelDifference(got.pixels, want.pixels, width: 200) ?? "")
                        """)
                }
                expectSame(try render(text + undo), blank, what + ", undone")
            }
        }
    }
}

@Suite struct UndoTests {
    private let header = "{\"quicksilver\": 1, \"width\": 100, \"height\": 80, \"background\": \"#102030\"}\n"
    private func line(_ t: Double, _ y: Int) -> String {
        "{\"t\": \(t), \"type\": \"down\", \"x\": 10, \"y\": \(y)}\n{\"t\": \(t), \"type\": \"move\", \"x\": 90, \"y\": \(y)}\n{\"t\": \(t), \"type\": \"up\", \"x\": 90, \"y\": \(y)}\n"
    }
    private func cmd(_ t: Double, _ type: String) -> String { "{\"t\": \(t), \"type\": \"\(type)\"}\n" }

    @Test func undoRestoresAndRedoReapplies() throws {
        let oneStroke = try render(header + line(0, 20))
        let twoStrokes = try render(header + line(0, 20) + line(1, 60))
        #expect(pixelDifference(oneStroke.pixels, twoStrokes.pixels, width: 100) != nil)
        expectSame(try render(header + line(0, 20) + line(1, 60) + cmd(2, "undo")), oneStroke, "undo")
        expectSame(try render(header + line(0, 20) + line(1, 60) + cmd(2, "undo") + cmd(3, "redo")), twoStrokes, "redo")
        let blank = try render(header)
        #expect(blank.pixels.allSatisfy { $0 == 0xFF10_2030 })
        expectSame(try render(header + line(0, 20) + line(1, 60) + cmd(2, "undo") + cmd(2, "undo")), blank, "two undos")
        expectSame(try render(header + line(0, 20) + cmd(2, "undo") + cmd(2, "undo")), blank, "undo past the start does nothing")
    }

    @Test func clearIsOneStep() throws {
        let drawn = try render(header + line(0, 20) + line(0, 40))
        let cleared = try render(header + line(0, 20) + line(0, 40) + cmd(1, "clear"))
        #expect(cleared.pixels.allSatisfy { $0 == 0xFF10_2030 })
        expectSame(try render(header + line(0, 20) + line(0, 40) + cmd(1, "clear") + cmd(2, "undo")), drawn, "the clear undone")
    }

    @Test func aNewStrokeDropsTheRedoSteps() throws {
        let text = header + line(0, 20) + cmd(1, "undo") + line(2, 60) + cmd(3, "redo")
        #expect(try render(text).pixels == render(header + line(2, 60)).pixels)
    }

    @Test func keepsAHundredSteps() throws {
        var text = header
        for i in 0..<120 { text += line(Double(i), i % 70 + 5) }
        for i in 0..<120 { text += cmd(200 + Double(i), "undo") }
        #expect(try render(text).pixels.allSatisfy { $0 == 0xFF10_2030 })
    }
}

@Suite struct StabilizedSessionTests {
    @Test func aSteadiedStrokeIsTheSameWhateverTheFrameBatchingAndEndsOnItsLastSample() throws {
        let points = wave(count: 60, x0: 10, dx: 3, y0: 50, amplitude: 3, period: 1.3)
        let brush = "\"stabilizer\": 1, \"size\": 4"
        let oneFrame = try render(strokeReplay(points, brush: brush, dt: 0))
        let manyFrames = try render(strokeReplay(points, brush: brush, dt: 0.01))
        expectSame(oneFrame, manyFrames, "stabilized strokes do not depend on batching")
        let plain = try render(strokeReplay(points, brush: "\"size\": 4"))
        #expect(plain.pixels != oneFrame.pixels, "the stabilizer changed the line")
        // Both end with a cap around the last sample.
        let last = points[points.count - 1]
        #expect(oneFrame[Int(last.0), Int(last.1)] == black && plain[Int(last.0), Int(last.1)] == black)
    }

    @Test func aSteadiedStrokeShowsNoPredictedTail() {
        for stabilizer in [0, 1.0] {
            let session = Session(size: Size(width: 200, height: 100), compute: ComputeContext(threads: 1))
            let window = OffscreenPresenter(size: Size(width: 200, height: 100))
            session.handle(.command(.brush(stabilizer: stabilizer)))
            session.handle(.pointerDown(StrokeSample(x: 10, y: 50, pressure: 0.5)))
            for x in stride(from: 12.0, through: 100, by: 2) { session.handle(.pointerMove(StrokeSample(x: x, y: 50, pressure: 0.5))) }
            session.predict((x: 160, y: 50))
            session.draw(FrameInfo(index: 0, timestamp: 0, targetTimestamp: 0), to: window)
            let inked = window.image.texture[150, 50] != white
            #expect(inked == (stabilizer == 0), "the predicted tail is shown without a stabilizer only (stabilizer \(stabilizer))")
        }
    }

    @Test func aHeavyTremorSteadiedIsTheSameInOneFrameOrInUnevenBatches() throws {
        let points = StabilizerMeasure.heavyJitter(seed: 5, count: 150).map { ($0.x, $0.y) }
        let brush = "\"stabilizer\": 1"
        // Batches of 1 to 7 samples a frame (a frame is 1/60 s), the release in a frame of its own.
        let sizes = [1, 4, 7, 2, 5, 3, 6]
        var t = 0.0, batch = 0, left = 0
        var times: [Double] = []
        for _ in points {
            if left == 0 { left = sizes[batch % sizes.count]; batch += 1; t += 1.0 / 60 }
            left -= 1
            times.append(t)
        }
        var lines = ["{\"quicksilver\": 1, \"width\": 360, \"height\": 200}", "{\"t\": 0, \"type\": \"brush\", \(brush)}"]
        for (i, p) in points.enumerated() {
            lines.append("{\"t\": \(times[i]), \"type\": \"\(i == 0 ? "down" : "move")\", \"x\": \(p.0), \"y\": \(p.1)}")
        }
        let last = points[points.count - 1]
        lines.append("{\"t\": \(t + 0.1), \"type\": \"up\", \"x\": \(last.0), \"y\": \(last.1)}")
        let uneven = try render(lines.joined(separator: "\n") + "\n")
        let oneFrame = try render(strokeReplay(points, width: 360, height: 200, brush: brush, dt: 0))
        expectSame(uneven, oneFrame, "the same samples, batched differently")
        #expect(oneFrame[Int(last.0), Int(last.1)] == black, "the stroke reaches its last sample")
    }
}

/// The bake writes each tile it changes from the old one in one pass, and a replay's frames are
/// played straight from the events fed: what either must keep.
@Suite struct BakeAndFeedTests {
    /// A blank 128x128 canvas (2x2 tiles) keeping `historyBytes` of undo steps.
    static func session(historyBytes: Int) -> Session {
        Session(size: Size(width: 128, height: 128), compute: ComputeContext(threads: 1), historyBytes: historyBytes)
    }

    /// One pen stroke through `points`, played and baked in frame `frame`.
    static func stroke(_ points: [(Double, Double)], size: Int, color: Color, into session: Session, frame: Int) {
        session.handle(.command(.brush(kind: .pen, size: size, color: color)))
        session.handle(.pointerDown(StrokeSample(x: points[0].0, y: points[0].1, pressure: 0.5)))
        for p in points.dropFirst() { session.handle(.pointerMove(StrokeSample(x: p.0, y: p.1, pressure: 0.5))) }
        session.handle(.pointerUp(StrokeSample(x: points[points.count - 1].0, y: points[points.count - 1].1, pressure: 0.5)))
        session.draw(FrameInfo(index: frame, timestamp: 0, targetTimestamp: 0), to: OffscreenPresenter(size: Size(width: 0, height: 0)))
    }

    @Test func aBakeKeepsEveryOtherPixelOfTheTilesItWritesAndUndoGetsThemBack() {
        // A wash over all four tiles, then a small stroke inside the first: the rest of that tile
        // (left, right, above and below the small stroke's bounds) must come through the bake.
        let wash = Color(r: 200, g: 40, b: 90, a: 160)
        let zigzag: [(Double, Double)] = (0..<12).map { i -> (Double, Double) in (Double(4 + i * 10), i % 2 == 0 ? 10 : 118) }
        var shown: [[UInt32]] = []
        for historyBytes in [64 << 20, 0] {
            let session = Self.session(historyBytes: historyBytes)
            Self.stroke(zigzag, size: 40, color: wash, into: session, frame: 0)
            let before = session.snapshot()
            Self.stroke([(28, 30), (36, 34)], size: 3, color: Color(r: 0, g: 0, b: 0), into: session, frame: 1)
            let after = session.snapshot()
            // The small stroke reaches at most 3 px (radius) plus its rim beyond its samples.
            let reach = Rect(minX: 28 - 6, minY: 30 - 6, maxX: 36 + 7, maxY: 34 + 7)
            var changedOutside = 0, changedInside = 0
            for y in 0..<128 {
                for x in 0..<128 where after[x, y] != before[x, y] {
                    if reach.contains(x: x, y: y) { changedInside += 1 } else { changedOutside += 1 }
                }
            }
            #expect(changedOutside == 0, "pixels the stroke does not reach are kept (history \(historyBytes))")
            #expect(changedInside > 20, "the stroke is drawn")
            shown.append(after.pixels)
            if historyBytes > 0 {
                session.handle(.command(.undo))
                session.draw(FrameInfo(index: 2, timestamp: 0, targetTimestamp: 0), to: OffscreenPresenter(size: Size(width: 0, height: 0)))
                #expect(zip(session.snapshot().pixels, before.pixels).filter { $0 != $1 }.isEmpty, "undo gives back every pixel of the tiles")
            }
        }
        #expect(zip(shown[0], shown[1]).filter { $0 != $1 }.isEmpty, "written in place (no undo kept) or into new tiles: the same pixels")
    }

    @Test(arguments: [1, 2, 3, 5, 16])
    func aReplayFedInPiecesPlaysAsOneFeed(piece: Int) throws {
        // Several events a frame, so that pieces end inside frames as well as between them.
        var text = strokeReplay(wave(count: 90, x0: 5, dx: 2, y0: 50, amplitude: 35, period: 6), dt: 0.006)
        text += "{\"t\": 0.6, \"type\": \"undo\"}\n{\"t\": 0.6, \"type\": \"redo\"}\n"
        for (i, p) in wave(count: 30, x0: 40, dx: 4, y0: 40, amplitude: 20, period: 3).enumerated() {
            text += "{\"t\": \(0.7 + Double(i) * 0.007), \"type\": \"\(i == 0 ? "down" : i == 29 ? "up" : "move")\", \"x\": \(p.0), \"y\": \(p.1)}\n"
        }
        let replay = try ReplayParser.parse(text)
        func played(_ feed: (inout ReplayPlayer) -> Void) -> [UInt32] {
            let session = Session(size: replay.header.size, compute: ComputeContext(threads: 1))
            var player = ReplayPlayer(session: session, presenter: OffscreenPresenter(size: Size(width: 0, height: 0)))
            feed(&player)
            player.finish()
            return session.snapshot().pixels
        }
        let whole = played { $0.feed(replay.events) }
        let pieces = played { player in
            var i = 0
            while i < replay.events.count {
                player.feed(replay.events[i..<min(i + piece, replay.events.count)])
                i += piece
            }
        }
        #expect(zip(whole, pieces).filter { $0 != $1 }.count == 0, "the same pixels, whatever the pieces")
        #expect(whole.contains { $0 != 0xFFFF_FFFF })
    }
}
