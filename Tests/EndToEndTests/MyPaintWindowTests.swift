import Foundation
import PNGFile
import Testing
import TestSupport

/// A MyPaint brush in the real window on a private Xvfb, driven through XTest (xdotool): what
/// the window shows is what its recording renders, byte for byte, with no brush installed.
@Suite(.serialized, .enabled(if: canStartXServer, "needs Xvfb and xdotool (make test installs them)"))
struct MyPaintWindowTests {
    static let nowhere = ["XDG_DATA_DIRS": "/nonexistent", "XDG_DATA_HOME": "/nonexistent"]

    @Test func aMyPaintBrushPaintsAndItsRecordingRendersTheSame() throws {
        let x = try XServer()
        let dir = try temporaryFolder()
        let w = try PaintWindow(on: x, extraArgs: ["--record", dir + "/session.jsonl", "--brush", "classic/charcoal"])
        try w.drag(PaintWindow.line(from: (40, 60), to: (360, 220), steps: 40))
        try w.key("3")
        try w.drag(PaintWindow.line(from: (60, 250), to: (340, 40), steps: 30), shift: true)
        let (_, shot) = try w.screenshot()
        #expect(try w.grab(width: 400, height: 300) == shot, "the window shows what it exports")
        #expect(try w.quit().status == 0)
        #expect(shot.pixels.filter { $0 != 0xFFFF_FFFF }.count > 1000, "the strokes are there")
        #expect(shot[200, 140] != 0xFFFF_FFFF && shot[200, 10] == 0xFFFF_FFFF)
        let text = try String(contentsOfFile: dir + "/session.jsonl", encoding: .utf8)
        #expect(text.contains(#""type": "brush", "kind": "mypaint", "name": "classic/charcoal", "settings": {"#), "the settings are embedded")
        let r = try runProgram(binary, ["render", dir + "/session.jsonl", "-o", dir + "/rendered.png"], environment: Self.nowhere)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try PNGImage.read(from: dir + "/rendered.png") == shot)
    }

    /// A brush that cannot be had stops the window before it opens, in one line.
    @Test func anUnknownBrushIsOneLine() throws {
        let r = try runProgram(binary, ["window", "--brush", "classic/nope", "--no-journal"], environment: Self.nowhere)
        #expect(r.status == 2)
        #expect(r.stderr == "quicksilver: --brush classic/nope: none of that name is installed (looked in /nonexistent/mypaint-data/2.0/brushes)\n")
    }
}
