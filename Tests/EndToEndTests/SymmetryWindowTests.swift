import Foundation
import PNGFile
import Testing
import TestSupport

/// Mirror painting in the real window, driven through XTest by xdotool: `y` turns it on about
/// the canvas's middle, a drag paints its mirror image, the axis shows over the canvas with the
/// tools, undo takes both halves away and redo brings them back, and the journal renders what
/// the window showed.
@Suite(.serialized, .enabled(if: canStartXServer, "needs Xvfb and xdotool (make test installs them)"))
struct SymmetryWindowTests {
    /// Pixels that differ from their mirror about x = 200 (pixel x ↔ 399 − x).
    private func unmirrored(_ image: PNGImage) -> Int {
        var wrong = 0
        for y in 0..<image.height { for x in 0..<200 where image[x, y] != image[399 - x, y] { wrong += 1 } }
        return wrong
    }

    @Test func aStrokeDrawnWithSymmetryOnIsMirroredOnScreenAndInTheJournal() throws {
        let x = try XServer()
        let state = try temporaryFolder()
        let w = try PaintWindow(on: x, stateDir: state)
        try w.key("bracketright")   // a 16 px pen
        try w.key("y")
        #expect(try eventually { try w.x.xdotool("getwindowname", w.id).contains(" — mirror vertical") }, "the title says so")
        try w.drag(PaintWindow.line(from: (60, 60), to: (170, 230), steps: 25))
        let shown = try w.screenshot().image
        #expect(shown[60, 60] != 0xFFFF_FFFF && shown[339, 60] != 0xFFFF_FFFF, "the stroke and its mirror")
        #expect(shown[200, 20] == 0xFFFF_FFFF, "nothing on the axis")
        #expect(unmirrored(shown) == 0, "the exact mirror image")
        // What the X server shows is the same.
        let screen = try w.grab(width: 400, height: 300)
        #expect(screen == shown, "on screen as exported")

        // With the tools shown, the axis is drawn down the middle (where no paint is).
        try w.key("Tab")
        #expect(try eventually { let g = try w.grab(width: 400, height: 300); return g[199, 20] != 0xFFFF_FFFF && g[200, 20] != 0xFFFF_FFFF })
        try w.key("Tab")
        #expect(try eventually { try w.grab(width: 400, height: 300) == shown }, "hidden again")

        // One undo step takes both halves; redo brings both back.
        try w.key("ctrl+z")
        #expect(try w.screenshot().image.pixels.allSatisfy { $0 == 0xFFFF_FFFF }, "undone: blank")
        try w.key("ctrl+shift+z")
        #expect(try w.screenshot().image == shown, "redone")

        // Off again: the next stroke has no mirror.
        try w.key("y")
        #expect(try eventually { try !w.x.xdotool("getwindowname", w.id).contains("mirror") })
        try w.drag(PaintWindow.line(from: (40, 280), to: (120, 280)))
        let last = try w.screenshot().image
        #expect(last[80, 280] != 0xFFFF_FFFF && last[319, 280] == 0xFFFF_FFFF, "no copy with symmetry off")
        #expect(try w.quit().status == 0)

        let journal = try #require(try sessionFiles(in: state).first)
        let text = try String(contentsOfFile: journal, encoding: .utf8)
        #expect(text.contains(#""type": "symmetry", "mode": "vertical", "x": 200, "y": 150, "lines": 2"#), "journaled")
        let out = try temporaryFolder() + "/journal.png"
        let r = try runProgram(binary, ["render", journal, "-o", out])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try PNGImage.read(from: out) == last, "the journal renders what the window showed")
    }

    /// With the tools shown, the axis's centre handle is dragged to a new place, and the next
    /// stroke is mirrored about it.
    @Test func draggingTheCentreHandleMovesTheAxis() throws {
        let x = try XServer()
        let state = try temporaryFolder()
        let w = try PaintWindow(on: x, size: "800x400", stateDir: state, tools: true)
        try w.key("y")
        // The handle shows at the canvas's middle, (400, 200); dragged to (250, 200).
        #expect(try eventually { try w.grab(width: 800, height: 400)[405, 200] != 0xFFFF_FFFF }, "the handle's ring")
        try w.drag(PaintWindow.line(from: (400, 200), to: (250, 200), steps: 10))
        #expect(try eventually { let g = try w.grab(width: 800, height: 400); return g[250, 40] != 0xFFFF_FFFF && g[400, 40] == 0xFFFF_FFFF },
                "the axis moved")
        try w.drag(PaintWindow.line(from: (100, 100), to: (200, 160), steps: 20))
        let shown = try w.screenshot().image
        #expect(shown[100, 100] != 0xFFFF_FFFF && shown[399, 100] != 0xFFFF_FFFF, "mirrored about x = 250")
        var wrong = 0
        for y in 0..<400 { for x in 0..<250 where shown[x, y] != shown[499 - x, y] { wrong += 1 } }
        #expect(wrong == 0, "\(wrong) pixels differ from their mirror")
        #expect(try w.quit().status == 0)
        let journal = try #require(try sessionFiles(in: state).first)
        let out = try temporaryFolder() + "/journal.png"
        #expect(try runProgram(binary, ["render", journal, "-o", out]).status == 0)
        #expect(try PNGImage.read(from: out) == shown, "the journal renders what the window showed")
    }
}
