import Foundation
import PNGFile
import Testing

/// f in the real window: the frame fitted to the ink, the desk's dimming moved with it, the
/// export the ink's box, undone by Ctrl+Z; the recording renders the same.
@Suite(.serialized, .enabled(if: canStartXServer, "needs Xvfb and xdotool (make test installs them)"))
struct FrameWindowTests {
    private func title(_ w: PaintWindow) throws -> String { try w.x.xdotool("getwindowname", w.id) }

    @Test func fKeyFitsTheFrameToTheInkAndTheExportIsTheInksBox() throws {
        let x = try XServer()
        let dir = try temporaryFolder()
        let w = try PaintWindow(on: x, extraArgs: ["--record", dir + "/session.jsonl"])
        // 50 % around the window's centre: canvas (200, 150) stays there, and the window shows
        // canvas −200…600 × −150…450, the 400x300 frame in its middle, the desk around it.
        try x.xdotool("mousemove", "--window", w.id, "200", "150", "key", "minus")
        #expect(try eventually { try title(w).contains("50 %") })
        #expect(try eventually { try w.grab(width: 400, height: 300)[60, 200] == deskColour }, "canvas (−80, 250): bare desk")
        // From canvas (−140, −70) to (540, 370): past the frame's every edge.
        try w.drag(PaintWindow.line(from: (30, 40), to: (370, 260)))
        #expect(try eventually { try w.grab(width: 400, height: 300).ink(370, 260) > 50 })
        try w.key("f")
        #expect(try eventually { try title(w).contains("frame fitted to the ink") }, "\((try? title(w)) ?? "")")
        // Inside the frame now: the background, not the desk.
        #expect(try eventually { try w.grab(width: 400, height: 300)[60, 200] == 0xFFFF_FFFF }, "the frame moved out to the ink")
        let (_, shot) = try w.screenshot()
        #expect(shot.width > 680 && shot.width < 720 && shot.height > 440 && shot.height < 480, "\(shot.width)x\(shot.height)")
        let bare: UInt32 = 0xFFFF_FFFF
        #expect((0..<shot.width).contains { shot[$0, 0] != bare } && (0..<shot.height).contains { shot[0, $0] != bare },
                "tight: ink on the top and left edges")
        #expect((0..<shot.width).contains { shot[$0, shot.height - 1] != bare } && (0..<shot.height).contains { shot[shot.width - 1, $0] != bare },
                "tight: ink on the bottom and right edges")
        try w.key("ctrl+z")
        #expect(try eventually { try w.grab(width: 400, height: 300)[60, 200] == deskColour }, "undone: the desk again")
        #expect(try w.screenshot().image.width == 400)
        try w.key("ctrl+shift+z")
        #expect(try eventually { try w.grab(width: 400, height: 300)[60, 200] == 0xFFFF_FFFF }, "redone")
        let redone = try w.screenshot().image
        #expect(redone == shot)
        #expect(try w.quit().status == 0)
        // The recording holds the fit, undo and redo: it renders the ink's box, as exported.
        let text = try String(contentsOfFile: dir + "/session.jsonl", encoding: .utf8)
        #expect(text.contains("\"type\": \"frame\", \"action\": \"fit\""))
        #expect(try runProgram(binary, ["render", dir + "/session.jsonl", "-o", dir + "/r.png"]).status == 0)
        #expect(try PNGImage.read(from: dir + "/r.png") == shot)
    }
}
