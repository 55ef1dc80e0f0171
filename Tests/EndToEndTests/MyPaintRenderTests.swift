import Foundation
import PNGFile
import Testing

/// `quicksilver render` playing MyPaint brushes through the document's layers, by the playing
/// protocol (docs/journal.md, "MyPaint brushes"), against libmypaint's own painting of the same
/// events (Tests/Fixtures/brushes, written by Tests/Bench/mypaint-render.c).
@Suite struct MyPaintRenderTests {
    /// Where Debian's mypaint-brushes puts them (`make test` installs it).
    static let stock = "/usr/share/mypaint-data/2.0/brushes"
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/brushes").path

    /// libmypaint's recording (`t x y pressure` a line) as a replay: the brush event, then every
    /// event one pointer line (the first a down), then an up where the last one was; `first` of
    /// them, shifted by (dx, dy), their times from t0.
    static func lines(brush: String, color: String, settings: String? = nil, t0: Double = 0, dx: Double = 0, dy: Double = 0,
                      first: Int = .max) throws -> [String] {
        let text = try String(contentsOfFile: fixtures + "/painting10sec.dat", encoding: .utf8)
        let events = text.split(separator: "\n").prefix(first).map { $0.split(separator: " ").compactMap { Double($0) } }
        var out = ["{\"t\": \(t0 + events[0][0]), \"type\": \"brush\", \"kind\": \"mypaint\", \"name\": \"\(brush)\", \"color\": \"\(color)\""
                   + (settings.map { ", \"settings\": " + $0 } ?? "") + "}"]
        for (i, e) in events.enumerated() {
            out.append("{\"t\": \(t0 + e[0]), \"type\": \"\(i == 0 ? "down" : "move")\", \"x\": \(e[1] + dx), \"y\": \(e[2] + dy), \"pressure\": \(e[3])}")
        }
        if let e = events.last { out.append("{\"t\": \(t0 + e[0]), \"type\": \"up\", \"x\": \(e[1] + dx), \"y\": \(e[2] + dy), \"pressure\": 0}") }
        return out
    }

    static let header = "{\"quicksilver\": 1, \"width\": 768, \"height\": 640}"

    private func render(_ lines: [String], threads: Int = 2, environment: [String: String] = [:]) throws -> (Finished, PNGImage?) {
        let dir = try temporaryFolder()
        try (lines.joined(separator: "\n") + "\n").write(toFile: dir + "/r.jsonl", atomically: true, encoding: .utf8)
        let r = try runProgram(binary, ["render", dir + "/r.jsonl", "-o", dir + "/out.png", "--threads", String(threads)], environment: environment)
        return (r, FileManager.default.fileExists(atPath: dir + "/out.png") ? try PNGImage.read(from: dir + "/out.png") : nil)
    }

    /// PSNR over the colour channels, in dB (infinity when the same).
    private func psnr(_ a: PNGImage, _ b: PNGImage) -> Double {
        var squares = 0.0
        for (p, q) in zip(a.pixels, b.pixels) {
            for shift: UInt32 in [0, 8, 16] {
                let d = Double(Int((p >> shift) & 0xff) - Int((q >> shift) & 0xff))
                squares += d * d
            }
        }
        let mse = squares / Double(3 * a.pixels.count)
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }

    /// The fidelity golden's painting (marker underneath, shifted; then charcoal), as a replay:
    /// within 40 dB of libmypaint's.
    @Test func rendersWhatLibmypaintPaints() throws {
        let replay = [Self.header] + (try Self.lines(brush: "classic/marker_fat", color: "#e0a030", dx: 37, dy: 23))
            + (try Self.lines(brush: "classic/charcoal", color: "#3060c0", t0: 16))
        let (r, png) = try render(replay)
        #expect(r.status == 0, "\(r.stderr)")
        let out = try #require(png)
        let golden = try PNGImage.read(from: Self.fixtures + "/classic_charcoal.png")
        try #require(out.width == golden.width && out.height == golden.height)
        let db = psnr(out, golden)
        #expect(db >= 40, "\(db) dB")
    }

    /// The same bytes at any thread count; the brush's settings embedded paint what the
    /// installed brush paints, with no brush installed; an undo takes a stroke away whole.
    @Test func sameBytesAnyThreadsEmbeddedOrInstalledAndUndone() throws {
        let installed = [Self.header] + (try Self.lines(brush: "classic/charcoal", color: "#3060c0", first: 300))
        let (r1, one) = try render(installed, threads: 1)
        #expect(r1.status == 0, "\(r1.stderr)")
        let (_, two) = try render(installed, threads: 2)
        let a = try #require(one), b = try #require(two)
        #expect(a.pixels == b.pixels)
        #expect(a.pixels.contains { $0 != 0xFFFF_FFFF })
        let myb = try String(contentsOfFile: Self.stock + "/classic/charcoal.myb", encoding: .utf8).replacingOccurrences(of: "\n", with: " ")
        let embedded = [Self.header] + (try Self.lines(brush: "classic/charcoal", color: "#3060c0", settings: myb, first: 300))
        let nowhere = ["XDG_DATA_DIRS": "/nonexistent", "XDG_DATA_HOME": "/nonexistent"]
        let (r3, three) = try render(embedded, environment: nowhere)
        #expect(r3.status == 0, "\(r3.stderr)")
        #expect(try #require(three).pixels == a.pixels)
        // Each stroke (the pen down to the pen up again) one step: one undo takes the last away,
        // as many as there are strokes all.
        let (_, once) = try render(installed + ["{\"t\": 5, \"type\": \"undo\"}"])
        let undoneOnce = try #require(once).pixels
        #expect(undoneOnce != a.pixels && undoneOnce.contains { $0 != 0xFFFF_FFFF })
        let (_, all) = try render(installed + Array(repeating: "{\"t\": 5, \"type\": \"undo\"}", count: 40))
        #expect(try #require(all).pixels.allSatisfy { $0 == 0xFFFF_FFFF })
    }

    /// A brush named and not installed: FILE:LINE, exit 2, nothing written; so are broken settings.
    @Test func anUnknownBrushOrBrokenSettingsIsRefusedOnItsLine() throws {
        let nowhere = ["XDG_DATA_DIRS": "/nonexistent", "XDG_DATA_HOME": "/nonexistent"]
        let (r, png) = try render([Self.header, #"{"t": 0, "type": "brush", "kind": "mypaint", "name": "classic/charcoal"}"#], environment: nowhere)
        #expect(r.status == 2 && png == nil)
        #expect(r.stderr.hasSuffix("r.jsonl:2: MyPaint brush \"classic/charcoal\": none of that name is installed (looked in /nonexistent/mypaint-data/2.0/brushes)\n"),
                "\(r.stderr)")
        let (bad, none) = try render([Self.header, #"{"t": 0, "type": "down", "x": 1, "y": 1}"#, #"{"t": 0, "type": "up", "x": 1, "y": 1}"#,
                                      #"{"t": 1, "type": "brush", "kind": "mypaint", "name": "x", "settings": {"version": 3}}"#])
        #expect(bad.status == 2 && none == nil)
        #expect(bad.stderr.contains("r.jsonl:4: MyPaint brush \"x\": "), "\(bad.stderr)")
        #expect(bad.stderr.split(separator: "\n").count == 1, "\(bad.stderr)")
    }
}
