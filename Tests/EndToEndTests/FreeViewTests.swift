import Foundation
import PNGFile
import Testing

/// The view turned and mirrored in the real window (XTest through xdotool): a stroke lands
/// where the pointer went on screen, and on the canvas where the view's inverse puts it.
@Suite(.serialized, .enabled(if: canStartXServer, "needs Xvfb and xdotool (make test installs them)"))
struct FreeViewTests {
    /// The last `view` event of a recording: zoom, angle, mirror, corner.
    private struct View {
        var zoom = 1.0, angle = 0.0, mirror = false, x = 0.0, y = 0.0

        /// The canvas point under window point (wx, wy): F · R(−angle) · (w − corner) / zoom.
        func canvasPoint(_ wx: Double, _ wy: Double) -> (Int, Int) {
            let a = angle * .pi / 180, dx = (wx - x) / zoom, dy = (wy - y) / zoom
            let ux = cos(a) * dx + sin(a) * dy, uy = -sin(a) * dx + cos(a) * dy
            return (Int((mirror ? -ux : ux).rounded(.down)), Int(uy.rounded(.down)))
        }
    }

    private func lastView(_ journal: String) throws -> View {
        let text = try String(contentsOfFile: journal, encoding: .utf8)
        guard let line = text.split(separator: "\n").last(where: { $0.contains("\"type\": \"view\"") }),
              let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return View() }
        func number(_ k: String) -> Double? { (object[k] as? NSNumber)?.doubleValue }
        return View(zoom: number("zoom") ?? 1, angle: number("angle") ?? 0, mirror: (object["mirror"] as? Bool) ?? false,
                    x: number("x") ?? 0, y: number("y") ?? 0)
    }

    @Test func aStrokeInATurnedMirroredWindowLandsUnderThePointerAndOnTheCanvasThroughTheInverse() throws {
        let x = try XServer()
        let dir = try temporaryFolder()
        let journal = dir + "/session.jsonl"
        let w = try PaintWindow(on: x, extraArgs: ["--record", journal])
        // Ctrl+] twice about the window's centre: 30°; h mirrors: −30° = 330°, mirrored.
        try x.xdotool("mousemove", "--window", w.id, "200", "150", "key", "ctrl+bracketright", "ctrl+bracketright", "h")
        #expect(try eventually { try x.xdotool("getwindowname", w.id).contains("100 % 330° mirrored") })
        #expect(try eventually { try w.grab(width: 400, height: 300)[2, 2] == deskColour }, "the turned canvas leaves the corner to the desk")
        try w.drag(PaintWindow.line(from: (140, 110), to: (260, 190)))
        let on = [(155, 120), (200, 150), (245, 180)], off = [(200, 120), (200, 180), (150, 150)]
        var shown = PNGImage(width: 1, height: 1, pixels: [0])
        #expect(try eventually {
            shown = try w.grab(width: 400, height: 300)
            return on.allSatisfy { shown.ink($0.0, $0.1) > 200 }
        }, "ink on screen where the pointer went: \(on.map { shown.ink($0.0, $0.1) })")
        #expect(off.allSatisfy { shown.ink($0.0, $0.1) < 30 }, "none beside it: \(off.map { shown.ink($0.0, $0.1) })")
        if let keep = ProcessInfo.processInfo.environment["QS_KEEP_SHOTS"] { try shown.write(to: keep + "/free-view-window.png") }
        let (_, canvas) = try w.screenshot()
        #expect(try w.quit().status == 0)
        // The canvas (as exported, and as the journal renders) has the stroke where the view's
        // inverse maps the pointer's path.
        let view = try lastView(journal)
        #expect(view.mirror && view.angle == 330 && view.zoom == 1, "\(view)")
        for (wx, wy) in on {
            let (cx, cy) = view.canvasPoint(Double(wx) + 0.5, Double(wy) + 0.5)
            #expect(canvas.ink(cx, cy) > 200, "window (\(wx), \(wy)) is canvas (\(cx), \(cy)): ink \(canvas.ink(cx, cy))")
        }
        for (wx, wy) in off {
            let (cx, cy) = view.canvasPoint(Double(wx) + 0.5, Double(wy) + 0.5)
            #expect(canvas.ink(cx, cy) < 30, "window (\(wx), \(wy)) is canvas (\(cx), \(cy)): ink \(canvas.ink(cx, cy))")
        }
        // Upright on the canvas the mirrored stroke runs down to the left: its ends are not
        // where the window showed them.
        #expect(canvas.ink(155, 120) < 30 || canvas.ink(245, 180) < 30)
        #expect(try runProgram(binary, ["render", journal, "-o", dir + "/r.png"]).status == 0)
        #expect(try PNGImage.read(from: dir + "/r.png") == canvas, "the journal renders the canvas the window drew")
        if let keep = ProcessInfo.processInfo.environment["QS_KEEP_SHOTS"] { try canvas.write(to: keep + "/free-view-canvas.png") }
    }
}
