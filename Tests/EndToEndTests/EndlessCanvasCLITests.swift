import Foundation
import PNGFile
import Testing

/// `render --crop ink` over the endless canvas: the picture of exactly the ink, wherever it is.
@Suite struct EndlessCanvasCLITests {
    /// A replay of a few strokes and an eraser, every pointer moved by (dx, dy).
    private func replay(movedBy dx: Int, _ dy: Int) -> String {
        // "spray": "stroke", as a new session's header has it: the mercurial spray moves with its stroke.
        var lines = ["{\"quicksilver\": 1, \"width\": 160, \"height\": 120, \"background\": \"#f0e8d0\", \"spray\": \"stroke\"}"]
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
        // MyPaint brushes: libmypaint plays them near zero wherever they are (BrushPlayer.origin).
        lines.append("{\"t\": 4, \"type\": \"brush\", \"kind\": \"mypaint\", \"name\": \"classic/charcoal\", \"color\": \"#602010\"}")
        stroke(4, [(0, 110), (50, 40.5), (100, -20), (190, 70)], pressure: 0.8)
        lines.append("{\"t\": 5, \"type\": \"brush\", \"kind\": \"mypaint\", \"name\": \"classic/smudge\", \"color\": \"#ffffff\"}")
        stroke(5, [(20, 40), (70, 60), (120, 80)], pressure: 0.9)
        lines.append("{\"t\": 5.5, \"type\": \"brush\", \"kind\": \"mercurial\", \"size\": 24, \"color\": \"#a0a0b0\"}")
        stroke(5.5, [(30, 30), (35, 40), (45, 52), (60, 60), (80, 64), (100, 60)], pressure: 0.7)
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

    /// A replay that fits its frame to the ink (`frame fit`, what the window's f records)
    /// renders the ink's box by default: byte for byte `render --crop ink` of the same replay
    /// without it. Then undone: the frame again.
    @Test func aFitFrameEventRendersTheInkByDefault() throws {
        let fit = "{\"t\": 6, \"type\": \"frame\", \"action\": \"fit\"}\n"
        let (cropped, ink) = try render(replay(movedBy: 0, 0))
        #expect(cropped.status == 0, "\(cropped.stderr)")
        let (fitted, frame) = try render(replay(movedBy: 0, 0) + fit, [])
        #expect(fitted.status == 0, "\(fitted.stderr)")
        let a = try Data(contentsOf: URL(fileURLWithPath: ink)), b = try Data(contentsOf: URL(fileURLWithPath: frame))
        #expect(a == b, "the fitted frame is the ink's box, byte for byte")
        let (undone, plain) = try render(replay(movedBy: 0, 0) + fit + "{\"t\": 7, \"type\": \"undo\"}\n", [])
        #expect(undone.status == 0, "\(undone.stderr)")
        let png = try PNGImage.read(from: plain)
        #expect(png.width == 160 && png.height == 120, "undone: the replay's frame again")
    }

    /// A frame set outright (`frame set`) is what the picture shows, beyond the old frame too;
    /// its fields are checked as any line's.
    @Test func aFrameSetEventMovesThePicture() throws {
        let set = "{\"t\": 6, \"type\": \"frame\", \"action\": \"set\", \"x\": -90, \"y\": -50, \"width\": 120, \"height\": 70}\n"
        let (moved, out) = try render(replay(movedBy: 0, 0) + set, [])
        #expect(moved.status == 0, "\(moved.stderr)")
        let png = try PNGImage.read(from: out)
        #expect(png.width == 120 && png.height == 70)
        #expect((0..<png.width).contains { png[$0, 10] != 0xFFF0_E8D0 }, "the pixel pen's line at y −40 is in it")
        let bad = "{\"t\": 6, \"type\": \"frame\", \"action\": \"set\", \"x\": 0, \"y\": 0, \"width\": 0, \"height\": 70}\n"
        let (refused, _) = try render(replay(movedBy: 0, 0) + bad, [])
        let line = replay(movedBy: 0, 0).split(separator: "\n").count + 1
        #expect(refused.status == 2 && refused.stderr.contains("r.jsonl:\(line): \"width\" must be in 1…16384, got 0"), "\(refused.stderr)")
    }

    @Test func cropInkRefusesNothingPaintedAndAnOpenRasterDocument() throws {
        let (empty, out) = try render("{\"quicksilver\": 1, \"width\": 16, \"height\": 16}\n")
        #expect(empty.status != 0 && empty.stderr.contains("nothing is painted"), "\(empty.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out), "nothing written")
        let (ora, _) = try render(replay(movedBy: 0, 0), to: "out.ora")
        #expect(ora.status != 0 && ora.stderr.contains("--crop ink writes a PNG"), "\(ora.stderr)")
    }

    /// Strokes 40,000 px apart on one layer are more than one saved picture may be (16384 px
    /// a side): `render -o x.ora` saves that layer as an isolated group of pieces, each the
    /// paint of one 8192-px square, marked as one layer; opened again, it is the one layer, and
    /// the frame over each stroke shows what the replay itself showed there.
    @Test func strokesFarApartOnOneLayerAreSavedInPiecesAndOpenedWhole() throws {
        let strokes = ["{\"quicksilver\": 1, \"width\": 64, \"height\": 64}",
                       "{\"t\": 0, \"type\": \"brush\", \"size\": 9, \"color\": \"#a03020\"}",
                       "{\"t\": 0, \"type\": \"down\", \"x\": 10, \"y\": 10}", "{\"t\": 0.1, \"type\": \"up\", \"x\": 50, \"y\": 40}",
                       "{\"t\": 1, \"type\": \"down\", \"x\": 40010, \"y\": 10}", "{\"t\": 1.1, \"type\": \"up\", \"x\": 40040, \"y\": 50}",
                       "{\"t\": 2, \"type\": \"layer\", \"action\": \"set\", \"opacity\": 0.6, \"mode\": \"svg:multiply\"}"]
        let (ora, out) = try render(strokes.joined(separator: "\n") + "\n", [], to: "out.ora")
        #expect(ora.status == 0, "\(ora.stderr)")
        let folder = (out as NSString).deletingLastPathComponent
        let unzip = try runProgram("/usr/bin/env", ["python3", "-c", "import zipfile,sys; sys.stdout.write(zipfile.ZipFile(sys.argv[1]).read('stack.xml').decode())", out])
        let xml = unzip.stdout
        #expect(xml.contains("quicksilver:pieces=\"2\"") && xml.contains("isolation=\"isolate\"") && xml.contains("composite-op=\"svg:multiply\""), "\(xml)")
        #expect(xml.contains("name=\"Layer 1 (piece 2 of 2)\"") && xml.contains("x=\"40"), "\(xml)")
        for x in [0, 40000] {
            let frame = "{\"t\": 3, \"type\": \"frame\", \"action\": \"set\", \"x\": \(x), \"y\": 0, \"width\": 64, \"height\": 64}"
            let (direct, directOut) = try render((strokes + [frame]).joined(separator: "\n") + "\n", [], to: "direct.png")
            try (["{\"quicksilver\": 1, \"width\": 64, \"height\": 64, \"snapshot\": \"out.ora\"}", frame].joined(separator: "\n") + "\n")
                .write(toFile: folder + "/opened.jsonl", atomically: true, encoding: .utf8)
            let opened = try runProgram(binary, ["render", folder + "/opened.jsonl", "-o", folder + "/opened.png"])
            #expect(direct.status == 0 && opened.status == 0, "\(direct.stderr) \(opened.stderr)")
            let a = try PNGImage.read(from: directOut), b = try PNGImage.read(from: folder + "/opened.png")
            #expect(a.pixels.contains { $0 != 0xFFFF_FFFF }, "the stroke at x \(x) shows")
            #expect(a == b, "the frame at x \(x) shows the same opened from the file")
        }
    }
}

/// Memory over the endless canvas: what a document scattered far and wide costs is its ink,
/// not its extent.
@Suite struct EndlessCanvasMemoryTests {
    /// 40 layers, each with strokes scattered over ±100,000 px, rendered (the frame, then the
    /// ink's box would be 200,000 px wide: not asked) within 300 MB of peak resident memory.
    @Test func fortyLayersScatteredFarAndWideRenderWithin300MB() throws {
        var lines = ["{\"quicksilver\": 1, \"width\": 640, \"height\": 480}"]
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ range: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(seed >> 33) % (2 * range + 1) - range
        }
        for layer in 0..<40 {
            let t = Double(layer)
            if layer > 0 { lines.append("{\"t\": \(t), \"type\": \"layer\", \"action\": \"new\"}") }
            lines.append("{\"t\": \(t), \"type\": \"brush\", \"size\": 24, \"color\": \"#\(String(format: "%02x", layer * 6))4080c0\"}")
            for _ in 0..<6 {
                let x = next(100_000), y = next(100_000)
                lines.append("{\"t\": \(t), \"type\": \"down\", \"x\": \(x), \"y\": \(y)}")
                lines.append("{\"t\": \(t), \"type\": \"move\", \"x\": \(x + 300), \"y\": \(y + 120)}")
                lines.append("{\"t\": \(t), \"type\": \"up\", \"x\": \(x + 150), \"y\": \(y + 400)}")
            }
        }
        let dir = try temporaryFolder()
        try (lines.joined(separator: "\n") + "\n").write(toFile: dir + "/far.jsonl", atomically: true, encoding: .utf8)
        let r = try runMeasuringMemory(binary, ["render", dir + "/far.jsonl", "-o", dir + "/far.png"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.peakRSS > 0 && r.peakRSS <= 300 << 20, "peak \(r.peakRSS >> 20) MB")
        let png = try PNGImage.read(from: dir + "/far.png")
        #expect(png.width == 640 && png.height == 480)
        // Its ink's box, 200,000 px a side, is more than a picture may be: said, nothing written.
        let ink = try runProgram(binary, ["render", dir + "/far.jsonl", "-o", dir + "/ink.png", "--crop", "ink"])
        #expect(ink.status != 0 && ink.stderr.contains("--crop ink: the ink spans") && ink.stderr.contains("16384 px a side"), "\(ink.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/ink.png"))
    }
}
