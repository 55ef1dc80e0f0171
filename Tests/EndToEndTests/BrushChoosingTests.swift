import Foundation
import PNGFile
import Testing
import TestSupport

/// Choosing MyPaint brushes in the real window on a private Xvfb, through XTest (xdotool): the
/// palette's ring of favourites, the brush chooser, and the brushes remembered between sessions.
/// Needs Debian's `mypaint-brushes` (make test installs it).
private let stockCharcoal = "/usr/share/mypaint-data/2.0/brushes/classic/charcoal.myb"

@Suite(.serialized, .enabled(if: canStartXServer && FileManager.default.fileExists(atPath: stockCharcoal),
                             "needs Xvfb, xdotool and mypaint-brushes (make test installs them)"))
struct BrushChoosingTests {
    static let nowhere = ["XDG_DATA_DIRS": "/nonexistent", "XDG_DATA_HOME": "/nonexistent"]

    private func title(_ w: PaintWindow) throws -> String { try w.x.xdotool("getwindowname", w.id) }

    private func click(_ w: PaintWindow, _ x: Int, _ y: Int, button: Int = 1) throws {
        try w.x.xdotool("mousemove", "--window", w.id, "\(x)", "\(y)", "click", "\(button)")
    }

    /// Where brush `i` of the ring lies round a palette centred at (cx, cy), at scale 1 (the
    /// first at the top, then clockwise every 36°, 155 px out).
    private func ring(_ i: Int, _ cx: Int, _ cy: Int) -> (Int, Int) {
        let a = -Double.pi / 2 + Double(i) * 2 * Double.pi / 10
        return (cx + Int((cos(a) * 155).rounded()), cy + Int((sin(a) * 155).rounded()))
    }

    private func rgb(_ p: UInt32) -> (r: Int, g: Int, b: Int) { (Int(p >> 16 & 0xFF), Int(p >> 8 & 0xFF), Int(p & 0xFF)) }

    @Test func aBrushChosenInThePalettesRingPaintsAndTheJournalRendersWhatTheWindowShowed() throws {
        let x = try XServer()
        let dir = try temporaryFolder()
        let w = try PaintWindow(on: x, size: "640x480", extraArgs: ["--record", dir + "/rec.jsonl"], tools: true)
        try w.drag(PaintWindow.line(from: (40, 300), to: (380, 300)))   // the pen, for the picture
        try click(w, 320, 240, button: 3)
        // The ring's fourth brush (classic/charcoal, with nothing remembered) at 108°.
        let (cx, cy) = ring(3, 320, 240)
        #expect(try eventually { try w.grab(width: 640, height: 480)[cx, cy] != 0xFFFF_FFFF }, "the ring's icons")
        try click(w, cx, cy)
        #expect(try eventually { try title(w).contains("classic/charcoal") }, "\((try? title(w)) ?? "")")
        #expect(try eventually { try w.grab(width: 640, height: 480)[320, 87] == 0xFFFF_FFFF }, "the palette closed")
        try w.drag(PaintWindow.line(from: (40, 360), to: (380, 380), steps: 40))
        let shot = try w.screenshot().image
        #expect(try w.quit().status == 0)
        #expect(shot.pixels.filter { $0 != 0xFFFF_FFFF }.count > 1000, "the strokes are there")

        let recording = try String(contentsOfFile: dir + "/rec.jsonl", encoding: .utf8)
        #expect(recording.contains(#""kind": "mypaint", "name": "classic/charcoal""#) && recording.contains(#""settings": {"#),
                "the brush is recorded with its settings")
        let journal = try #require(try sessionFiles(in: w.stateDir).last)
        for file in [dir + "/rec.jsonl", journal] {
            let r = try runProgram(binary, ["render", file, "-o", dir + "/rendered.png"], environment: Self.nowhere)
            #expect(r.status == 0, "\(r.stderr)")
            #expect(try PNGImage.read(from: dir + "/rendered.png") == shot, "\(file) renders what the window showed, with no brush installed")
        }
        // The same strokes without the brush event: the pen's pixels, not the charcoal's.
        let penOnly = recording.split(separator: "\n").filter { !$0.contains(#""kind": "mypaint""#) }.joined(separator: "\n") + "\n"
        try penOnly.write(toFile: dir + "/pen.jsonl", atomically: true, encoding: .utf8)
        let r = try runProgram(binary, ["render", dir + "/pen.jsonl", "-o", dir + "/pen.png"])
        #expect(r.status == 0, "\(r.stderr)")
        let pen = try PNGImage.read(from: dir + "/pen.png")
        #expect((340..<400).contains { y in pen[200, y] != shot[200, y] }, "the stroke is the charcoal's")
        #expect(pen[200, 300] == shot[200, 300], "the pen's stroke before it is the same")

        // Remembered: the next window's ring shows the charcoal first.
        let remembered = try String(contentsOfFile: w.stateDir + "/quicksilver/brushes.json", encoding: .utf8)
        #expect(remembered == "{\"version\": 1, \"recent\": [\"classic/charcoal\"]}\n")
        let again = try PaintWindow(on: x, size: "640x480", stateDir: w.stateDir, tools: true)
        try again.drag(PaintWindow.line(from: (40, 300), to: (380, 300)))
        try click(again, 320, 240, button: 3)
        let (fx, fy) = ring(0, 320, 240)
        #expect(try eventually { try again.grab(width: 640, height: 480)[fx, fy] != 0xFFFF_FFFF }, "the ring's icons")
        try click(again, fx, fy)
        #expect(try eventually { try title(again).contains("classic/charcoal") }, "\((try? title(again)) ?? "")")
        // The picture for docs/brushes.md: the charcoal in use, framed first on the ring.
        try click(again, 320, 240, button: 3)
        #expect(try eventually { rgb(try again.grab(width: 640, height: 480)[fx, fy - 19]).b > 200 }, "the current brush framed")
        if let docs = ProcessInfo.processInfo.environment["QS_DOCS_PICTURES"] {
            try again.grab(width: 640, height: 480).write(to: docs + "/brush-ring.png")
        }
        try again.key("Escape")
        #expect(try again.quit().status == 0)
    }

    /// F6 opens the chooser over the window: the packs as groups of icons, scrolled by the wheel;
    /// a click on one chooses it and closes the chooser.
    @Test func theChooserShowsThePacksScrollsAndChooses() throws {
        let x = try XServer()
        let w = try PaintWindow(on: x, size: "640x480", tools: true)
        try w.key("F6")
        // 11 icons a row in 640 px: the panel 596 px wide from x 22, 448 tall from y 16.
        #expect(try eventually { rgb(try w.grab(width: 640, height: 480)[30, 300]).r < 80 }, "the chooser's panel")
        let top = try w.grab(width: 640, height: 480)
        if let docs = ProcessInfo.processInfo.environment["QS_DOCS_PICTURES"] { try top.write(to: docs + "/brush-chooser.png") }
        try x.xdotool("mousemove", "--window", w.id, "320", "240", "click", "5", "click", "5")
        #expect(try eventually { try w.grab(width: 640, height: 480) != top }, "the wheel scrolled it")
        // Scrolled 4 rows of 52 px: Dieterle's header and 2 rows, classic's header and its first
        // row above the top; classic's third row is at the panel's top.
        try click(w, 60, 128)
        #expect(try eventually { try title(w).contains("classic/") }, "\((try? title(w)) ?? "")")
        #expect(try eventually { try w.grab(width: 640, height: 480)[30, 300] == 0xFFFF_FFFF }, "the click chose and closed it")
        try w.key("F6")
        #expect(try eventually { rgb(try w.grab(width: 640, height: 480)[30, 300]).r < 80 })
        try w.key("Escape")
        #expect(try eventually { try w.grab(width: 640, height: 480)[30, 300] == 0xFFFF_FFFF }, "Escape closes it")
        #expect(try w.quit().status == 0)
    }
}
