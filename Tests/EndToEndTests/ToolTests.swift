import Foundation
import PNGFile
import Testing

/// The eraser, a typed colour and the colour picker in the real window, driven by xdotool.
@Suite(.serialized, .enabled(if: canStartXServer, "needs Xvfb and xdotool (make test installs them)"))
struct ToolTests {
    private func title(_ w: PaintWindow) throws -> String { try w.x.xdotool("getwindowname", w.id) }

    @Test func theEraserBringsBackTheBackgroundAsOneUndoStep() throws {
        let x = try XServer()
        let w = try PaintWindow(on: x, extraArgs: ["--background", "#f0e0d0"])
        try w.key("bracketright")
        try w.key("bracketright")   // a 32 px pen
        try w.drag(PaintWindow.line(from: (40, 150), to: (360, 150)))
        let drawn = try w.screenshot().image
        try w.key("e")
        #expect(try eventually { try title(w).contains("eraser 24 ") })
        // A little off the vertical, so that its edges cross pixels part way on most rows: a
        // vertical stroke at a whole x has its edges on pixel boundaries, and whether a row shows a
        // partly erased pixel then hangs on where the round dabs fall along it.
        try w.drag(PaintWindow.line(from: (192, 20), to: (208, 280)))
        let erased = try w.screenshot().image
        #expect(erased[200, 150] == 0xFFF0_E0D0 && erased[100, 150] == 0xFF00_0000, "a gap down to the background")
        let edges = (140..<160).flatMap { y in (180..<220).map { erased[$0, y] } }.filter { $0 != 0xFF00_0000 && $0 != 0xFFF0_E0D0 }
        #expect(edges.count >= 10, "anti-aliased edges, neither paint nor background: \(edges.count) such pixels")
        try w.key("ctrl+z")
        #expect(try w.screenshot().image == drawn)
        #expect(try w.quit().status == 0)
    }

    @Test func aTypedColourIsTheBrushColour() throws {
        let x = try XServer()
        let w = try PaintWindow(on: x)
        try x.xdotool("mousemove", "--window", w.id, "1", "1", "key", "numbersign", "1", "e", "8", "8", "e", "5")
        #expect(try eventually { try title(w).hasSuffix("— colour #1e88e5_ (Return sets it, Escape cancels)") })
        try x.xdotool("key", "z")   // refused: not a hex digit, and not a binding either
        #expect(try eventually { try title(w).hasSuffix("('z' is not a hex digit)") })
        try x.xdotool("key", "Return")
        #expect(try eventually { try title(w).contains("pen 8 #1e88e5 ") })
        try w.drag(PaintWindow.line(from: (40, 150), to: (360, 150)))
        #expect(try w.screenshot().image[200, 150] == 0xFF1E_88E5)
        #expect(try w.quit().status == 0)
    }

    @Test func thePickerTakesTheColourUnderTheClick() throws {
        let x = try XServer()
        let w = try PaintWindow(on: x)
        try w.key("bracketright")
        try w.key("6")   // green
        try w.drag(PaintWindow.line(from: (40, 100), to: (360, 100)))
        try w.key("1")   // black again
        try w.key("c")
        #expect(try eventually { try title(w).contains("pick a colour") })
        try x.xdotool("mousemove", "--window", w.id, "200", "100", "click", "1")
        #expect(try eventually { try title(w).contains("pen 16 #43a047 ") }, "the green under the click")
        try w.drag(PaintWindow.line(from: (40, 220), to: (360, 220)))
        let shot = try w.screenshot().image
        #expect(shot[200, 220] == 0xFF43_A047, "drawing on in the picked colour")
        #expect(shot[200, 150] == 0xFFFF_FFFF, "the click drew nothing")
        #expect(try w.quit().status == 0)
    }
}

/// The stabilizer in the real window: the same shaky drag, with it off and at full strength.
@Suite(.serialized, .enabled(if: canStartXServer, "needs Xvfb and xdotool (make test installs them)"))
struct StabilizerWindowTests {
    /// Mean distance of the line's centre from y = 150, over the columns it inks (x 80…320).
    private func meanDeviation(_ image: PNGImage) -> Double {
        var total = 0.0, columns = 0
        for x in 80...320 {
            var weight = 0.0, sum = 0.0
            for y in 100...200 { let ink = Double(image.ink(x, y)); weight += ink; sum += ink * Double(y) }
            guard weight > 0 else { continue }
            // Row y's centre is at y + 0.5: a line along y = 150 has its ink centred on 149.5.
            total += abs(sum / weight + 0.5 - 150)
            columns += 1
        }
        return total / Double(max(columns, 1))
    }

    @Test func theStrongestSettingDrawsAStraighterLine() throws {
        let x = try XServer()
        let w = try PaintWindow(on: x)
        // A shaky drag along y = 150: ±3 px zigzag every 4 px.
        let shaky = (0...80).map { (40 + $0 * 4, 150 + ($0 % 2 == 0 ? 3 : -3) * ($0 % 3 == 0 ? 1 : 2) / 2) }
        try w.drag(shaky)
        let plain = try w.screenshot().image
        try w.key("Delete")
        for _ in 0..<3 { try w.key("s") }
        #expect(try eventually { try x.xdotool("getwindowname", w.id).hasSuffix("— stabilizer 3/3") })
        try w.drag(shaky)
        let steady = try w.screenshot().image
        let before = meanDeviation(plain), after = meanDeviation(steady)
        #expect(after <= 0.4 * before, "centre line \(after) px from the intended one, \(before) without")
        #expect(steady.ink(360, 150) > 200, "and it still reaches the end")
        #expect(try w.quit().status == 0)
    }
}
