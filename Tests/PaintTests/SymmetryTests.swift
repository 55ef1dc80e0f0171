import Compute
import Foundation
import Geometry
import Journal
import Testing
import TestSupport

/// Mirror painting: each stroke paints its copies under the symmetry, exactly mirrored where
/// pixels allow, as one undo step, the same at any thread count.
@Suite struct SymmetryTests {
    private let header = ##"{"quicksilver": 1, "width": 200, "height": 120, "background": "#ffffff"}"## + "\n"

    private func symmetry(_ mode: String, x: Double, y: Double, lines: Int = 2) -> String {
        #"{"t": 0, "type": "symmetry", "mode": "\#(mode)", "x": \#(x), "y": \#(y), "lines": \#(lines)}"# + "\n"
    }

    private func brush(_ kind: String, size: Int) -> String {
        ##"{"t": 0, "type": "brush", "kind": "\##(kind)", "size": \##(size), "color": "#203040"}"## + "\n"
    }

    /// A curved stroke in the top-left quarter, with pressure changing along it.
    private var stroke: String {
        let points: [(Double, Double, Double)] = [(12.25, 14.5, 0.3), (30.7, 20.1, 0.4), (52.3, 41.9, 0.6), (61.1, 70.4, 0.5), (84.6, 82.2, 0.7)]
        return points.enumerated().map { i, p in
            let type = i == 0 ? "down" : i == points.count - 1 ? "up" : "move"
            return #"{"t": 0.\#(i), "type": "\#(type)", "x": \#(p.0), "y": \#(p.1), "pressure": \#(p.2)}"# + "\n"
        }.joined()
    }

    private func painted(_ img: Picture) -> Int { img.pixels.filter { $0 != 0xFFFF_FFFF }.count }

    /// Every pixel equals the pixel `image` maps it to.
    private func expectSymmetric(_ img: Picture, _ what: String, _ image: (Int, Int) -> (Int, Int)) {
        var wrong = 0, first = ""
        for y in 0..<img.height {
            for x in 0..<img.width {
                let (mx, my) = image(x, y)
                guard (0..<img.width).contains(mx), (0..<img.height).contains(my) else { continue }
                if img[x, y] != img[mx, my] {
                    if wrong == 0 { first = "(\(x), \(y)) \(String(img[x, y], radix: 16)) vs (\(mx), \(my)) \(String(img[mx, my], radix: 16))" }
                    wrong += 1
                }
            }
        }
        #expect(wrong == 0, "\(what): \(wrong) pixels differ from their mirror, first \(first)")
    }

    @Test(arguments: ["pen", "pixel", "eraser"], [100.0, 100.5])
    func aVerticalMirrorIsTheExactMirrorImage(kind: String, axis: Double) throws {
        let twice = Int(2 * axis)
        // The eraser erases a stroke painted across the width, itself mirrored (its dabs' spacing
        // would not be symmetric).
        let under = kind == "eraser"
            ? brush("pen", size: 40) + #"{"t": 0, "type": "down", "x": \#(twice - 200), "y": 60}"# + "\n"
                + #"{"t": 0, "type": "up", "x": 200, "y": 60}"# + "\n"
            : ""
        let img = try render(header + symmetry("vertical", x: axis, y: 0) + under + brush(kind, size: 6) + stroke)
        #expect(painted(img) > 300, "\(kind) painted")
        expectSymmetric(img, "\(kind) about x = \(axis)") { x, y in (twice - 1 - x, y) }
    }

    /// The copies are the stroke's exact image however far the axis is: a mirror 2¹⁹ px off
    /// (the stroke and its copy 2²⁰ apart, where copies were once cut off) shows, in a frame
    /// moved onto it, the copy that a mirror at x = 100 shows beside the stroke.
    @Test(arguments: ["pen", "pixel"])
    func aCopyFarFromItsStrokeIsItsExactImage(kind: String) throws {
        let far = 1 << 19
        let near = try render(header + symmetry("vertical", x: 100, y: 0) + brush(kind, size: 6) + stroke)
        let path = try ScratchFolder.make("far-copy") + "/replay.jsonl"
        try (header + symmetry("vertical", x: Double(100 + far), y: 0) + brush(kind, size: 6) + stroke).write(toFile: path, atomically: false, encoding: .utf8)
        let session = try Playback.load(path, compute: ComputeContext(threads: 1), presenter: OffscreenPresenter(size: Size(width: 200, height: 120))).session
        let shot = session.snapshot(of: Rect(x: 2 * far, y: 0, width: 200, height: 120))
        func farOff(_ x: Int, _ y: Int) -> UInt32 { shot.pixels[y * shot.width + x] }
        var copy = 0, differ = 0, strayed = 0
        for y in 0..<120 {
            for x in 0..<200 {
                if x < 100 { strayed += farOff(x, y) == 0xFFFF_FFFF ? 0 : 1; continue }
                copy += near[x, y] == 0xFFFF_FFFF ? 0 : 1
                differ += near[x, y] == farOff(x, y) ? 0 : 1
            }
        }
        #expect(copy > 150, "the copy painted \(copy) pixels")
        #expect(differ == 0, "\(differ) pixels of the far copy differ from the near one's")
        #expect(strayed == 0, "\(strayed) pixels painted where no copy lands")
    }

    @Test(arguments: ["pen", "pixel"])
    func bothMirrorsFourWays(kind: String) throws {
        let img = try render(header + symmetry("both", x: 100, y: 60.5) + brush(kind, size: 4) + stroke)
        expectSymmetric(img, "\(kind) left to right") { x, y in (199 - x, y) }
        expectSymmetric(img, "\(kind) top to bottom") { x, y in (x, 120 - y) }
        #expect(img[12, 14] != 0xFFFF_FFFF && img[187, 14] != 0xFFFF_FFFF && img[12, 106] != 0xFFFF_FFFF && img[187, 106] != 0xFFFF_FFFF)
    }

    @Test(arguments: ["pen", "pixel"])
    func aHalfTurnIsExactAndAQuarterTurnLandsOnPixels(kind: String) throws {
        let half = try render(header + symmetry("rotational", x: 100, y: 60, lines: 2) + brush(kind, size: 4) + stroke)
        expectSymmetric(half, "\(kind) half turn") { x, y in (199 - x, 119 - y) }
        // A square canvas for quarter turns about its centre.
        let square = ##"{"quicksilver": 1, "width": 160, "height": 160, "background": "#ffffff"}"## + "\n"
        let quarter = try render(square + symmetry("rotational", x: 80, y: 80, lines: 4) + brush(kind, size: 4) + stroke)
        // Turned a quarter clockwise (y down): pixel (x, y) goes to (159 - y, x).
        if kind == "pen" {
            expectSymmetric(quarter, "pen quarter turn") { x, y in (159 - y, x) }
        } else {
            // Bresenham's steps are not symmetric in x and y: a turned line may step on the other
            // side at a tie, so only almost every pixel matches.
            var wrong = 0
            for y in 0..<160 { for x in 0..<160 where quarter[x, y] != quarter[159 - y, x] { wrong += 1 } }
            #expect(wrong < painted(quarter) / 10, "\(wrong) of \(painted(quarter))")
        }
    }

    @Test func sixfoldRotationPaintsSixCopies() throws {
        let img = try render(header + symmetry("rotational", x: 100, y: 60, lines: 6) + brush("pen", size: 3)
            + #"{"t": 0, "type": "down", "x": 140, "y": 60}"# + "\n" + #"{"t": 0, "type": "up", "x": 150, "y": 60}"# + "\n")
        for k in 0..<6 {
            let a = Double(k) * .pi / 3
            let (x, y) = (100 + 45 * cos(a), 60 + 45 * sin(a))
            #expect(img[Int(x), Int(y)] != 0xFFFF_FFFF, "spoke \(k) at (\(x), \(y))")
        }
        #expect(img[100, 60] == 0xFFFF_FFFF, "nothing at the centre")
    }

    @Test(arguments: ["pen", "pixel", "eraser"])
    func aMirroredStrokeIsOneUndoStep(kind: String) throws {
        let before = header + brush("pen", size: 30) + #"{"t": 0, "type": "down", "x": 0, "y": 30}"# + "\n"
            + #"{"t": 0, "type": "up", "x": 200, "y": 30}"# + "\n"
        let mirrored = before + symmetry("both", x: 100, y: 60) + brush(kind, size: 5) + stroke
        let undone = try render(mirrored + #"{"t": 1, "type": "undo"}"# + "\n")
        expectSame(undone, try render(before), "undo takes every copy away")
        expectSame(try render(mirrored + #"{"t": 1, "type": "undo"}"# + "\n" + #"{"t": 2, "type": "redo"}"# + "\n"), try render(mirrored),
                   "redo brings them all back")
    }

    @Test func offPaintsNoCopiesAndTheSameAtAnyThreadCount() throws {
        let plain = try render(header + brush("pen", size: 5) + stroke)
        expectSame(try render(header + symmetry("vertical", x: 100, y: 0) + symmetry("off", x: 100, y: 0) + brush("pen", size: 5) + stroke),
                   plain, "off")
        let text = header + symmetry("rotational", x: 100, y: 60, lines: 7) + brush("pen", size: 9) + stroke
        expectSame(try render(text, threads: 4), try render(text, threads: 1), "4 threads")
    }

    /// The golden's MyPaint stroke (calligraphy, mirrored about a horizontal axis) is one undo
    /// step: undone, the picture is the one before it.
    @Test func aMirroredMyPaintStrokeIsOneUndoStep() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../Fixtures/golden/symmetry.jsonl").path
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        let brushAt = try #require(lines.firstIndex { $0.contains(#""kind": "mypaint""#) })
        let upAt = try #require(lines[brushAt...].firstIndex { $0.contains(#""type": "up""#) })
        let before = lines[...brushAt].joined(separator: "\n") + "\n"
        let stroke = lines[...upAt].joined(separator: "\n") + "\n"
        let drawn = try render(stroke)
        #expect(drawn.pixels != (try render(before)).pixels, "the brush painted")
        // Both copies: dark paint above the axis (y 244.5) and at its mirror below.
        #expect(drawn[230, 205] != drawn[5, 5] || drawn[230, 200] != drawn[5, 5])
        expectSame(try render(stroke + #"{"t": 9, "type": "undo"}"# + "\n"), try render(before), "undone")
    }
}
