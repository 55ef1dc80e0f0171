import Foundation
import PNGFile
import Testing

/// `render --crop ink` over the endless canvas: the picture of exactly the ink, wherever it is.
@Suite struct EndlessCanvasCLITests {
    /// A replay of a few strokes and an eraser, every pointer moved by (dx, dy).
    private func replay(movedBy dx: Int, _ dy: Int) -> String {
        var lines = ["{\"quicksilver\": 1, \"width\": 160, \"height\": 120, \"background\": \"#f0e8d0\"}"]
        func stroke(_ t: Double, _ points: [(Double, Double)], pressure: Double = 0.6) {
            for (i, p) in points.enumerated() {
                let type = i == 0 ? "down" : i == points.count - 1 ? "up" : "move"
                lines.append("{\"t\": \(t + Double(i) * 0.01), \"type\": \"\(type)\", \"x\": \(p.0 + Double(dx)), \"y\": \(p.1 + Double(dy)), \"pressure\": \(pressure)}")
            }
        }
        lines.append("{\"t\": 0, \"type\": \"brush\", \"size\": 14, \"color\": \"#203080\"}")
        stroke(0, [(-30.25, 20.5), (40, 60.75), (130.5, 35), (210, 140.25)])
        lines.append("{\"t\": 1, \"type\": \"layer\", \"action\": \"new\"}")
        lines.append("{\"t\": 1, \"type\": \"brush\", \"size\": 30, \"color\": \"#c0402080\"}")
        stroke(1, [(10, 100), (90.5, 10.25), (150, 90)], pressure: 0.9)
        lines.append("{\"t\": 2, \"type\": \"brush\", \"kind\": \"eraser\", \"size\": 8}")
        stroke(2, [(60, 0), (70, 130)])
        lines.append("{\"t\": 3, \"type\": \"brush\", \"kind\": \"pixel\", \"size\": 3, \"color\": \"#00a000\"}")
        stroke(3, [(-80, -40), (-20, -35)])
        return lines.joined(separator: "\n") + "\n"
    }

    private func render(_ text: String, _ extra: [String] = ["--crop", "ink"], to name: String = "out.png") throws -> (Finished, String) {
        let dir = try temporaryFolder()
        try text.write(toFile: dir + "/r.jsonl", atomically: true, encoding: .utf8)
        let out = dir + "/" + name
        return (try runProgram(binary, ["render", dir + "/r.jsonl", "-o", out] + extra), out)
    }

    /// The same replay moved by 2²⁰ px (a multiple of 64) each way, or 2²⁰ left and up, draws
    /// the same pixels, moved: `render --crop ink` gives byte-identical PNGs, reaching past the
    /// frame (the strokes go off it on every side).
    @Test(arguments: [(0, 0), (1 << 20, 1 << 20), (-(1 << 20), -(1 << 20)), (1 << 30, -(1 << 30))])
    func theSameReplayMovedDrawsTheSamePixels(dx: Int, dy: Int) throws {
        let (r0, origin) = try render(replay(movedBy: 0, 0))
        #expect(r0.status == 0, "\(r0.stderr)")
        let (r1, moved) = try render(replay(movedBy: dx, dy))
        #expect(r1.status == 0, "\(r1.stderr)")
        let a = try Data(contentsOf: URL(fileURLWithPath: origin)), b = try Data(contentsOf: URL(fileURLWithPath: moved))
        #expect(a == b, "byte-identical PNGs moved by (\(dx), \(dy))")
        let png = try PNGImage.read(from: origin)
        // The ink reaches from the pixel pen's line (x −80, y −40) to past the first stroke's
        // end (210 + 7 and more at 140): far more than the 160x120 frame.
        #expect(png.width > 290 && png.height > 180, "\(png.width)x\(png.height)")
        let edges = (0..<png.width).map { png[$0, 0] } + (0..<png.height).map { png[0, $0] }
        #expect(edges.contains { $0 != 0xFFF0_E8D0 }, "the box is tight: ink on its top and left edges")
    }

    /// Without `--crop`, render writes the frame (the replay's size), paint beyond it left out.
    @Test func theFrameIsTheDefault() throws {
        let (r, out) = try render(replay(movedBy: 0, 0), [])
        #expect(r.status == 0, "\(r.stderr)")
        let png = try PNGImage.read(from: out)
        #expect(png.width == 160 && png.height == 120)
    }

    @Test func cropInkRefusesNothingPaintedAndAnOpenRasterDocument() throws {
        let (empty, out) = try render("{\"quicksilver\": 1, \"width\": 16, \"height\": 16}\n")
        #expect(empty.status != 0 && empty.stderr.contains("nothing is painted"), "\(empty.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out), "nothing written")
        let (ora, _) = try render(replay(movedBy: 0, 0), to: "out.ora")
        #expect(ora.status != 0 && ora.stderr.contains("--crop ink writes a PNG"), "\(ora.stderr)")
    }
}
