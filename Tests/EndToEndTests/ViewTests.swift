import Foundation
import PNGFile
import Testing

/// Zoom and pan in the real window, driven by xdotool: keys, the wheel, drags.
@Suite(.serialized, .enabled(if: canStartXServer, "needs Xvfb and xdotool (make test installs them)"))
struct ViewTests {
    /// The zoom the title shows: one of its fields, wherever a message from a background write
    /// (an export finishing) may have landed after it.
    private func zoom(_ w: PaintWindow) throws -> String? {
        try w.x.xdotool("getwindowname", w.id).components(separatedBy: " — ")
            .first { $0.wholeMatch(of: /[0-9.]+ %/) != nil }
    }

    @Test func zoomedStrokesLandOnTheCanvasAndExportsAreTheWholeCanvasAt100Percent() throws {
        let x = try XServer()
        let dir = try temporaryFolder()
        let w = try PaintWindow(on: x, extraArgs: ["--record", dir + "/session.jsonl"])
        // "=" (the "+" key without Shift) around the window's centre: canvas (200, 150) stays
        // there, at 200 %. Not "plus": xdotool types it with Shift, and a stroke begun within
        // Shift's 80 ms ease starts pressed harder and wider (1 in ~10 runs under load).
        try x.xdotool("mousemove", "--window", w.id, "200", "150", "key", "equal")
        #expect(try eventually { try zoom(w) == "200 %" })
        // 100 window pixels at 200 % are 50 canvas pixels: from canvas (175, 150) to (225, 150).
        try w.drag(PaintWindow.line(from: (150, 150), to: (250, 150)))
        #expect(try eventually {
            let zoomed = try w.grab(width: 400, height: 300)
            return zoomed.ink(200, 150) > 200 && zoomed.inkedRun(x: 200, ys: 130...170) >= 16
        }, "8 canvas pixels wide is 16 on screen")
        let (_, shot) = try w.screenshot()
        #expect(shot.width == 400 && shot.height == 300)
        #expect(shot.ink(176, 150) > 200 && shot.ink(224, 150) > 200 && shot.ink(170, 150) < 100 && shot.ink(232, 150) < 100,
                "ink at x = 170, 176, 224, 232: \([170, 176, 224, 232].map { shot.ink($0, 150) }); \(shot.inkedRun(x: 200, ys: 130...170)) tall")
        #expect((7...10).contains(shot.inkedRun(x: 200, ys: 130...170)), "brush sizes are canvas pixels")
        // Ctrl + wheel down eight times (four clicks a factor of two): 50 %, around the pointer.
        try x.xdotool("mousemove", "--window", w.id, "200", "150", "keydown", "ctrl", "click", "--repeat", "8", "--delay", "20", "5", "keyup", "ctrl")
        #expect(try eventually { try zoom(w) == "50 %" })
        #expect(try eventually {
            let small = try w.grab(width: 400, height: 300)
            return small[10, 10] == deskColour && small[200, 150] != deskColour
        }, "the whole canvas, small, on the desk")
        #expect(try w.screenshot().image == shot, "the view changed no canvas pixel")
        try x.xdotool("mousemove", "--window", w.id, "200", "150", "key", "0")
        #expect(try eventually { try zoom(w) == "100 %" })
        #expect(try eventually { try w.grab(width: 400, height: 300) == shot }, "0: 100 %, the canvas's corner at the window's")
        #expect(try w.quit().status == 0)
        // The recording holds the views and renders to the canvas, not the view.
        let text = try String(contentsOfFile: dir + "/session.jsonl", encoding: .utf8)
        #expect(text.contains("\"type\": \"view\", \"zoom\": 2, \"x\": -200, \"y\": -150"))
        #expect(try runProgram(binary, ["render", dir + "/session.jsonl", "-o", dir + "/r.png"]).status == 0)
        #expect(try PNGImage.read(from: dir + "/r.png") == shot)
    }

    @Test func dragsAndTheWheelPanTheCanvasWithTheHand() throws {
        let x = try XServer()
        let w = try PaintWindow(on: x)
        try w.drag(PaintWindow.line(from: (20, 20), to: (380, 280)))
        var before = PNGImage(width: 1, height: 1, pixels: [0])
        // The whole stroke on screen, its end included, before anything moves.
        #expect(try eventually { before = try w.grab(width: 400, height: 300); return before.ink(380, 280) > 200 })
        // The middle button dragged 100 px right and 40 down: the canvas follows exactly.
        try x.xdotool("mousemove", "--window", w.id, "100", "100", "mousedown", "2")
        for step in 1...10 { try x.xdotool("mousemove", "--window", w.id, "\(100 + step * 10)", "\(100 + step * 4)") }
        try x.xdotool("mouseup", "2")
        var after = before
        #expect(try eventually { after = try w.grab(width: 400, height: 300); return after[50, 50] == deskColour })
        #expect(after[120, 60] == before[20, 20] && after[250, 170] == before[150, 130], "moved by (100, 40)")
        #expect(after[99, 150] == deskColour && after[100, 39] == deskColour && after[100, 40] == before[0, 0])
        // Space held while dragging pans too, and draws nothing.
        try x.xdotool("mousemove", "--window", w.id, "300", "200", "keydown", "space", "mousedown", "1")
        for step in 1...10 { try x.xdotool("mousemove", "--window", w.id, "\(300 - step * 10)", "\(200 - step * 4)") }
        try x.xdotool("mouseup", "1", "keyup", "space")
        #expect(try eventually { try w.grab(width: 400, height: 300) == before }, "back where it was")
        // The wheel: down shows what is below (the canvas moves up 64 px a click).
        try x.xdotool("mousemove", "--window", w.id, "200", "150", "click", "5")
        #expect(try eventually { let g = try w.grab(width: 400, height: 300); return g[200, 299] == deskColour && g[20, 20] == before[20, 84] })
        #expect(try w.screenshot().image.pixels == before.pixels, "panning changed nothing in the export")
        #expect(try w.quit().status == 0)
    }
}
