import Foundation
import PNGFile
import Testing

/// The pop-up palette, the shading editor and the UI's scale in the real window, driven by XTest
/// clicks and keys and looked at through the X server's copy of the window.
@Suite(.serialized, .enabled(if: canStartXServer, "needs Xvfb and xdotool (make test installs them)"))
struct OnCanvasUITests {
    private func title(_ w: PaintWindow) throws -> String { try w.x.xdotool("getwindowname", w.id) }

    private func click(_ w: PaintWindow, _ x: Int, _ y: Int, button: Int = 1) throws {
        try w.x.xdotool("mousemove", "--window", w.id, "\(x)", "\(y)", "click", "\(button)")
    }

    private func rgb(_ p: UInt32) -> (r: Int, g: Int, b: Int) { (Int(p >> 16 & 0xFF), Int(p >> 8 & 0xFF), Int(p & 0xFF)) }

    /// The brush colour the title names.
    private func titleColour(_ w: PaintWindow) throws -> UInt32? {
        guard let hex = try title(w).split(separator: " ").first(where: { $0.hasPrefix("#") && $0.count == 7 }) else { return nil }
        return UInt32(hex.dropFirst(), radix: 16).map { $0 | 0xFF00_0000 }
    }

    @Test func aRightClickOpensThePaletteWhoseColourTheNextStrokeIsDrawnIn() throws {
        let x = try XServer()
        let w = try PaintWindow(on: x, size: "640x480", tools: true)
        try click(w, 320, 240, button: 3)
        #expect(try eventually {
            let ring = rgb(try w.grab(width: 640, height: 480)[320 + 89, 240])
            return ring.g > 240 && ring.r > 100 && ring.r < 160 && ring.b < 30
        }, "the hue ring round the pointer")
        try click(w, 320 + 89, 240)            // hue 0.25 (of black: still black)
        try click(w, 320 + 51, 240 - 51)       // full saturation and value
        #expect(try eventually { try titleColour(w).map { $0 != 0xFF00_0000 } == true })
        let colour = try #require(try titleColour(w))
        try click(w, 620, 20)                  // outside: closes the palette, draws nothing
        #expect(try eventually { try w.grab(width: 640, height: 480)[320 + 89, 240] == 0xFFFF_FFFF })
        try w.drag(PaintWindow.line(from: (60, 420), to: (580, 420)))
        let shot = try w.screenshot().image
        #expect(shot[300, 420] == colour, "the stroke is in the palette's colour")
        #expect(shot[620, 20] == 0xFFFF_FFFF && shot[320 + 51, 240 - 51] == 0xFFFF_FFFF, "the clicks drew nothing")
        #expect(shot[12, 470] == 0xFFFF_FFFF, "no status strip in the picture")
        #expect(try w.grab(width: 640, height: 480)[12, 470] != 0xFFFF_FFFF, "while the window shows it")
        #expect(try w.quit().status == 0)
    }

    @Test func theShadingEditorsChangeIsRecordedAndRendersAsTheWindowShowedIt() throws {
        let x = try XServer()
        let dir = try temporaryFolder()
        let w = try PaintWindow(on: x, size: "640x480", extraArgs: ["--record", dir + "/rec.jsonl"], tools: true)
        try w.key("l")
        let panel = (x: 640 - 8 - 312, y: 8)
        #expect(try eventually { rgb(try w.grab(width: 640, height: 480)[panel.x + 4, panel.y + 120]).r < 60 }, "the editor's panel")
        // Light 1's handle (the sphere's top) dragged to the sphere's centre: it faces the viewer.
        try x.xdotool("mousemove", "--window", w.id, "\(panel.x + 88)", "\(panel.y + 21)", "mousedown", "1")
        for y in stride(from: panel.y + 30, through: panel.y + 100, by: 10) { try x.xdotool("mousemove", "--window", w.id, "\(panel.x + 88)", "\(y)") }
        try x.xdotool("mouseup", "1")
        try w.key("m")
        try w.drag(PaintWindow.line(from: (40, 300), to: (300, 330)))
        let shot = try w.screenshot().image
        #expect(try w.quit().status == 0)
        let recording = try String(contentsOfFile: dir + "/rec.jsonl", encoding: .utf8)
        let shading = recording.split(separator: "\n").filter { $0.contains("\"shading\"") }
        #expect(shading.count == 1)
        #expect(shading.first?.contains("\"x\": 0, \"y\": 0, \"z\": 25") == true, "\(shading)")
        let r = try runProgram(binary, ["render", dir + "/rec.jsonl", "-o", dir + "/out.png"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try PNGImage.read(from: dir + "/out.png") == shot, "render replays the shading")
    }

    @Test func theUIScaleFollowsXftDpiUnlessGiven() throws {
        let x = try XServer()
        let r = try runProgram("/usr/bin/xprop", ["-root", "-f", "RESOURCE_MANAGER", "8s", "-set", "RESOURCE_MANAGER", "Xft.dpi:\t192\n"],
                               environment: x.environment)
        #expect(r.status == 0, "\(r.stderr)")
        for (args, scale) in [([String](), 2), (["--ui-scale", "1"], 1)] {
            let w = try PaintWindow(on: x, size: "1000x960", extraArgs: args, tools: true)
            try click(w, 500, 450, button: 3)
            // The ring at hue 0.25 is 89 UI pixels right of the centre: 178 window pixels at scale 2.
            #expect(try eventually {
                let ring = rgb(try w.grab(width: 1000, height: 960)[500 + 89 * scale, 450])
                return ring.g > 240 && ring.r > 100 && ring.r < 160 && ring.b < 30
            }, "scale \(scale)")
            #expect(try w.quit().status == 0)
        }
    }

    /// F1 shows the keys over the canvas, from the same table as --help; where they need more
    /// than the window's height, on pages that Page Down, Page Up and End turn (Page Down does
    /// not select a layer meanwhile); Escape hides them. A blank first start says in the status
    /// strip where the palette and the keys are. (AppTests' HelpTests check that every entry,
    /// the last one too, lands on a page inside the window.)
    @Test func f1ShowsTheKeysAndABlankStartSaysSo() throws {
        let x = try XServer()
        let w = try PaintWindow(on: x, size: "960x600", tools: true)
        #expect(try eventually { try title(w).contains("right click: the palette · F1: the keys") }, "\((try? title(w)) ?? "")")
        try w.key("Insert")
        #expect(try eventually { try title(w).contains("— layer 2/2 —") })
        try w.key("F1")
        #expect(try eventually {
            let centre = rgb(try w.grab(width: 960, height: 600)[480, 300])
            return centre.r < 80 && centre.g < 80 && centre.b < 80
        }, "the panel over the middle of the canvas")
        // The panel above the status strip (which may change meanwhile, and shows through).
        func panel() throws -> [UInt32] {
            let shot = try w.grab(width: 960, height: 600)
            return (20..<540).flatMap { y in (20..<940).map { shot[$0, y] } }
        }
        let first = try w.grab(width: 960, height: 600), firstPanel = try panel()
        if let docs = ProcessInfo.processInfo.environment["QS_DOCS_PICTURES"] { try first.write(to: docs + "/help.png") }
        // Light text on the dark panel: the keys are listed (the keys are the light ones, what
        // they do dimmer; about 2,000 on the first page at 960x600, 1,500 on the last, 0 with no
        // panel).
        func lit(_ shot: PNGImage) -> Int {
            (40..<560).flatMap { y in (20..<940).map { (x: $0, y: y) } }.filter { rgb(shot[$0.x, $0.y]).g > 200 }.count
        }
        #expect(lit(first) > 1500, "lettering on the first page: \(lit(first)) light pixels")
        try w.key("Next")
        #expect(try eventually { try panel() != firstPanel }, "Page Down shows the next page")
        try w.key("End")
        try w.key("Escape")
        #expect(try eventually { try w.grab(width: 960, height: 600)[480, 300] == 0xFFFF_FFFF }, "hidden again")
        #expect(try title(w).contains("— layer 2/2 —"), "the page keys chose no layer")
        try w.key("F1")
        #expect(try eventually { try panel() == firstPanel }, "it opens at its first page")
        try w.key("End")
        #expect(try eventually { try panel() != firstPanel })
        let last = try w.grab(width: 960, height: 600)
        if let folder = ProcessInfo.processInfo.environment["QS_HELP_SHOTS"] {
            try first.write(to: folder + "/help-first.png")
            try last.write(to: folder + "/help-last.png")
        }
        #expect(lit(last) > 1000, "lettering on the last page: \(lit(last)) light pixels")
        try w.key("Prior")
        try w.key("Home")
        #expect(try eventually { try panel() == firstPanel }, "Home: the first page again")
        try w.key("Escape")
        #expect(try eventually { try w.grab(width: 960, height: 600)[480, 300] == 0xFFFF_FFFF }, "hidden again")
        #expect(try w.quit().status == 0)
    }

    /// The layer panel at the right edge, shown at start: a click selects a layer, the eye hides
    /// one, + adds one, a drag moves one; each is a journaled command, so the journal renders
    /// what the window showed.
    @Test func theLayerPanelWorksTheLayersAsJournaledCommands() throws {
        let x = try XServer()
        let w = try PaintWindow(on: x, size: "640x400", tools: true)
        // The panel: 220 px wide at 8 px from the right edge; a 26 px header, then 32 px rows, top first.
        let left = 640 - 220 - 8, top = 8 + 26
        func click(_ px: Int, _ py: Int) throws {
            try x.xdotool("mousemove", "--window", w.id, "\(px)", "\(py)", "click", "1")
        }
        try w.drag(PaintWindow.line(from: (40, 100), to: (360, 100)))
        try w.key("Insert")
        try w.key("3")   // red
        try w.drag(PaintWindow.line(from: (40, 200), to: (360, 200)))
        #expect(try eventually { try title(w).contains("— layer 2/2 —") })
        #expect(try eventually {
            let shown = try w.grab(width: 640, height: 400)
            // The top row (Layer 2) is marked current; its thumbnail holds the red stroke.
            return (left + 28..<left + 64).contains { x in (top + 4..<top + 28).contains { y in rgb(shown[x, y]).r > rgb(shown[x, y]).g + 40 } }
        }, "the thumbnail shows the red stroke")
        try click(left + 120, top + 32 + 16)          // Layer 1's row
        #expect(try eventually { try title(w).contains("— layer 1/2 —") })
        try click(left + 14, top + 16)                // Layer 2's eye
        #expect(try eventually { try w.grab(width: 640, height: 400)[200, 200] == 0xFFFF_FFFF }, "the red stroke is hidden")
        #expect(try title(w).contains("— layer 1/2 —"), "hiding a layer keeps the current one")
        try click(left + 220 - 3 * 24 + 10, 8 + 13)   // +
        #expect(try eventually { try title(w).contains("— layer 2/3 —") })
        // Drag the new layer (row 2, in the middle) to the top.
        try x.xdotool("mousemove", "--window", w.id, "\(left + 120)", "\(top + 32 + 16)", "mousedown", "1")
        try x.xdotool("mousemove", "--window", w.id, "\(left + 120)", "\(top + 20)")
        try x.xdotool("mousemove", "--window", w.id, "\(left + 120)", "\(top + 16)", "mouseup", "1")
        #expect(try eventually { try title(w).contains("— layer 3/3 —") })
        try w.key("F2")
        try w.key("ctrl+u")
        try w.type("Ink")
        try w.key("Return")
        #expect(try eventually { try title(w).contains("— layer 3/3 Ink —") }, "F2 renamed it")
        let shown = try w.screenshot().image
        #expect(try w.quit().status == 0)
        let journal = try sessionFiles(in: w.stateDir)[0]
        let out = try temporaryFolder() + "/rendered.png"
        let r = try runProgram(binary, ["render", journal, "-o", out])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try PNGImage.read(from: out) == shown, "the journal renders what the window showed")
        let lines = try String(contentsOfFile: journal, encoding: .utf8)
        #expect(lines.contains("\"action\": \"up\", \"by\": 1") == false && lines.contains("\"action\": \"up\""), "\(lines.suffix(600))")
    }
}
