import Foundation
import PNGFile
import Testing
import TestSupport

/// The real window on a private Xvfb, driven with xdotool, checked through its own screenshots,
/// the server's pixels and its recordings.
@Suite(.serialized, .enabled(if: canStartXServer, "needs Xvfb and xdotool (make test installs them)"))
struct WindowTests {
    @Test func dragDrawsWhereThePointerWentAndShiftDrawsWider() throws {
        let x = try XServer()
        let w = try PaintWindow(on: x)
        try w.drag(PaintWindow.line(from: (40, 60), to: (360, 60)))
        try w.drag(PaintWindow.line(from: (40, 200), to: (360, 200)), shift: true)
        let (path, shot) = try w.screenshot()
        #expect(path.hasPrefix(w.exportDir + "/quicksilver-") && path.hasSuffix(".png"))
        #expect(shot.width == 400 && shot.height == 300)
        for px in stride(from: 40, through: 360, by: 10) {
            #expect(shot.ink(px, 60) > 200, "plain line at x=\(px)")
            #expect(shot.ink(px, 200) > 200, "shift line at x=\(px)")
        }
        // Default pen: 8 px at pressure 0.5; Shift eases toward 16 px at pressure 1.
        let plain = shot.inkedRun(x: 300, ys: 40...80)
        let pressed = shot.inkedRun(x: 300, ys: 180...220)
        #expect((8...10).contains(plain))
        #expect(pressed >= 14 && pressed > plain)
        // Nothing far from the two paths changed.
        for y in [0, 20, 100, 130, 160, 250, 299] {
            for px in stride(from: 0, to: 400, by: 7) { #expect(shot[px, y] == 0xFFFF_FFFF, "far pixel \(px),\(y)") }
        }
        // The export is exactly what the window shows.
        #expect(try w.grab(width: 400, height: 300) == shot)
        #expect(try w.quit().status == 0)
    }

    @Test func closeButtonExitsZero() throws {
        let x = try XServer()
        let w = try PaintWindow(on: x)
        try x.xhelper("delete", w.id)
        let done = w.process.wait(timeout: 20)
        #expect(done.status == 0, "\(done.stderr)")
    }

    @Test func recordingRendersToTheSamePixelsAsTheExport() throws {
        let x = try XServer()
        let dir = try temporaryFolder()
        let w = try PaintWindow(on: x, extraArgs: ["--record", dir + "/session.jsonl"])
        try w.drag([(30, 30), (120, 200), (200, 40), (370, 260)])
        try w.key("bracketright")
        try w.key("3")
        try w.drag(PaintWindow.line(from: (30, 280), to: (380, 20), steps: 40), shift: true)
        try w.key("x")
        try w.drag([(200, 150), (260, 150), (260, 290)])
        let (_, shot) = try w.screenshot()
        #expect(try w.quit().status == 0)
        let r = try runProgram(binary, ["render", dir + "/session.jsonl", "-o", dir + "/rendered.png"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try PNGImage.read(from: dir + "/rendered.png") == shot)
        #expect(shot.pixels.contains(0xFFE5_3935)) // palette 3 (red) was used
    }

    @Test func aMercurialStrokeRendersHeadlesslyAsTheWindowExportedIt() throws {
        let x = try XServer()
        let dir = try temporaryFolder()
        let w = try PaintWindow(on: x, extraArgs: ["--record", dir + "/session.jsonl", "--background", "#20242c"])
        try w.key("m")
        try w.drag(PaintWindow.line(from: (60, 150), to: (340, 120), steps: 40))
        let (_, embossed) = try w.screenshot()
        try w.key("i")
        let (_, inverted) = try w.screenshot()
        #expect(try w.quit().status == 0)
        let flipped = embossed.pixels.map { $0 ^ 0x00FF_FFFF } == inverted.pixels
        #expect(flipped, "invert flips every shown colour")
        #expect(embossed[200, 135] != 0xFF20_242C, "the stroke is there")
        let r = try runProgram(binary, ["render", dir + "/session.jsonl", "-o", dir + "/rendered.png"])
        #expect(r.status == 0, "\(r.stderr)")
        let rendered = try PNGImage.read(from: dir + "/rendered.png")
        let same = rendered == inverted
        #expect(same, "the recording renders to the window's last export")
        // A new session sprays relative to its strokes (the same stroke anywhere is the same stroke moved).
        let header = try String(contentsOfFile: dir + "/session.jsonl", encoding: .utf8).prefix { $0 != "\n" }
        #expect(header.contains("\"spray\": \"stroke\""), "\(header)")
    }

    @Test func undoAndRedoKeys() throws {
        let x = try XServer()
        let w = try PaintWindow(on: x)
        try w.drag(PaintWindow.line(from: (40, 100), to: (360, 100)))
        try w.drag(PaintWindow.line(from: (200, 20), to: (200, 280)))
        let both = try w.screenshot().image
        try w.key("ctrl+z")
        let one = try w.screenshot().image
        #expect(one.ink(200, 200) == 0 && one.ink(100, 100) > 200)
        try w.key("ctrl+y")
        #expect(try w.screenshot().image == both)
        try w.key("ctrl+z")
        try w.key("ctrl+shift+z")
        #expect(try w.screenshot().image == both)
        try w.key("Delete")
        #expect(try w.screenshot().image.pixels.allSatisfy { $0 == 0xFFFF_FFFF })
        try w.key("ctrl+z")
        #expect(try w.screenshot().image == both)
        _ = try w.quit()
    }

    @Test func resizingTheWindowShowsMoreOrLessButNeverChangesTheCanvas() throws {
        let x = try XServer()
        let w = try PaintWindow(on: x)
        try w.drag(PaintWindow.line(from: (300, 250), to: (380, 280)))
        let drawn = try w.screenshot().image
        try x.xdotool("windowsize", w.id, "200", "150")
        #expect(try eventually { try w.grab(width: 200, height: 150) == drawn.cropped(width: 200, height: 150) }, "the canvas's corner, at 100 %")
        #expect(try w.screenshot().image == drawn, "the export is the whole canvas, the stroke out of view included")
        try x.xdotool("windowsize", w.id, "500", "400")
        var shown = try w.grab(width: 500, height: 400)
        try eventually { shown = try w.grab(width: 500, height: 400); return shown[450, 350] == deskColour }
        #expect(shown[450, 350] == deskColour && shown[450, 100] == deskColour && shown[100, 350] == deskColour, "around the canvas is the desk")
        #expect(shown.cropped(width: 400, height: 300) == drawn, "the canvas is shown whole, as before")
        #expect(try w.screenshot().image == drawn)
        _ = try w.quit()
    }

    @Test func fallsBackToXPutImageWithoutMITSHM() throws {
        let x = try XServer(extraArgs: ["-extension", "MIT-SHM"])
        let w = try PaintWindow(on: x)
        try w.drag(PaintWindow.line(from: (40, 150), to: (360, 150)))
        let shot = try w.screenshot().image
        #expect(shot.ink(200, 150) > 200)
        #expect(try w.grab(width: 400, height: 300) == shot, "XPutImage presented the same pixels")
        let done = try w.quit()
        #expect(done.status == 0)
        #expect(done.stderr.contains("MIT-SHM unavailable") && done.stderr.contains("XPutImage"))
    }

    @Test func inkIsPresentedAsItArrivesAndDrawsWhatFramesWould() throws {
        let x = try XServer()
        var shots: [PNGImage] = []
        var reports: [String] = []
        let dir = try temporaryFolder()
        for (i, args) in [["--stats"], ["--stats", "--no-low-latency"]].enumerated() {
            let w = try PaintWindow(on: x, extraArgs: args + ["--record", dir + "/\(i).jsonl"])
            try w.drag(PaintWindow.line(from: (30, 30), to: (370, 270), steps: 60))
            try w.key("3")
            // No Shift: simulated pressure eases with the events' times, which differ run to run.
            try w.drag([(30, 270), (120, 100), (250, 220), (370, 40)])
            shots.append(try w.screenshot().image)
            let done = try w.quit()
            #expect(done.status == 0)
            reports.append(done.stdout)
            // And each renders from its own recording to exactly what it showed.
            #expect(try runProgram(binary, ["render", dir + "/\(i).jsonl", "-o", dir + "/\(i).png"]).status == 0)
            expectSame(try PNGImage.read(from: dir + "/\(i).png"), shots[i], "render of recording \(i)")
        }
        expectSame(shots[0], shots[1], "the same pixels whichever path drew them")
        let immediate = reports.map { r in r.split(separator: "\n").first { $0.hasPrefix("presents: ") }.flatMap { Int($0.split(separator: " ")[1]) } ?? -1 }
        #expect(immediate[0] > 10 && immediate[1] == 0, "\(reports)")
        #expect(reports[0].contains("event-to-present, ink path p50: ") && reports[0].contains("clock: "))
    }

    @Test(arguments: [["--stats"], ["--stats", "--no-low-latency"]])
    func everySampleOfAFastDragIsKept(extra: [String]) throws {
        let x = try XServer()
        let dir = try temporaryFolder()
        let w = try PaintWindow(on: x, extraArgs: ["--record", dir + "/r.jsonl"] + extra)
        // 1,600 motions as fast as XTest sends them: frames and presents go on meanwhile, and
        // events read while a present is waited for must not lose their samples.
        try x.xhelper("drag", w.id, "20", "100", "1600")
        #expect(try w.quit().status == 0)
        let lines = try String(contentsOfFile: dir + "/r.jsonl", encoding: .utf8).split(separator: "\n")
        #expect(lines.filter { $0.contains("\"type\": \"move\"") }.count == 1600, "every motion is a sample")
        #expect(lines.filter { $0.contains("\"type\": \"up\"") }.count == 1)
    }

    @Test func corePointerEventsStillDrawWhereXInput2IsNotUsed() throws {
        let x = try XServer()
        let w = try PaintWindow(on: x, extraArgs: ["--core-input"])
        try w.drag(PaintWindow.line(from: (40, 150), to: (360, 150)), shift: true)
        let shot = try w.screenshot().image
        #expect(shot.ink(200, 150) > 200 && shot.inkedRun(x: 300, ys: 130...170) >= 14, "Shift still presses hard")
        let done = try w.quit()
        #expect(done.status == 0 && !done.stderr.contains("XInput"), "asked for: no complaint")
    }

    @Test func unopenableDisplayIsOneClearLine() throws {
        let r = try runProgram(binary, ["window", "--display", ":987"])
        #expect(r.status == 1)
        #expect(r.stderr == "quicksilver: cannot open display \":987\"\n")
    }
}
