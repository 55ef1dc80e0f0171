import Foundation
import PNGFile
import Testing
import TestSupport

/// Layered documents through the real window: an OpenRaster file written by another program
/// (here Python's zipfile, as MyPaint and Krita lay theirs out) opened, painted on, saved back
/// with Ctrl+S and as another name with Ctrl+Shift+S, the saved file checked by an independent reader; layers through kill -9 and
/// `render -o OUT.ora`.
@Suite(.serialized, .enabled(if: canStartXServer, "needs Xvfb and xdotool (make test installs them)"))
struct DocumentTests {
    static let tool = packageRoot.appendingPathComponent("Tests/OpenRasterTests/Support/ora_tool.py").path

    /// The independent reader's view of an .ora: entries, stack.xml's tree, every PNG decoded.
    private func inspect(_ path: String) throws -> [String: Any] {
        let r = try runProgram(which("python3") ?? "/usr/bin/python3", [Self.tool, "inspect", path])
        guard r.status == 0, let object = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any] else {
            throw HarnessError("ora_tool inspect \(path): \(r.stderr)")
        }
        return object
    }

    /// stack.xml's layers, top first, as attribute dictionaries.
    private func layers(_ inspected: [String: Any]) -> [[String: String]] {
        func children(_ node: [String: Any]) -> [[String: Any]] { node["children"] as? [[String: Any]] ?? [] }
        let stack = children(inspected["stack"] as? [String: Any] ?? [:]).first ?? [:]
        return children(stack).map { layer in
            Dictionary((layer["attributes"] as? [[String]] ?? []).map { ($0[0], $0[1]) }, uniquingKeysWith: { a, _ in a })
        }
    }

    private func png(_ inspected: [String: Any], _ name: String) -> (width: Int, height: Int, pixels: [UInt32])? {
        guard let p = (inspected["pngs"] as? [String: Any])?[name] as? [String: Any],
              let w = p["width"] as? Int, let h = p["height"] as? Int, let px = p["pixels"] as? [Int] else { return nil }
        return (w, h, px.map { UInt32(truncatingIfNeeded: $0) })
    }

    @Test func anOpenRasterDocumentOpensWithItsLayersAndSavesThemBack() throws {
        let x = try XServer()
        let dir = try temporaryFolder()
        // Top first, as stack.xml lists them: a half-transparent red patch (current, offset),
        // a hidden blue layer, a yellow paper; extra attributes another program keeps.
        let stack = """
        <?xml version="1.0" encoding="UTF-8"?>
        <image version="0.0.5" w="200" h="120" xres="300">
         <stack>
          <layer name="Ink &amp; Co" src="data/ink.png" x="20" y="10" opacity="0.5" visibility="visible" composite-op="svg:src-over" selected="true" edit-locked="false"/>
          <layer name="Hidden" src="data/hidden.png" visibility="hidden"/>
          <layer name="Paper" src="data/paper.png" composite-op="svg:src-over"/>
         </stack>
        </image>
        """
        func picture(_ w: Int, _ h: Int, _ p: UInt32) -> [String: Any] { ["width": w, "height": h, "pixels": Array(repeating: Int(p), count: w * h)] }
        let spec: [String: Any] = ["entries": [
            ["name": "mimetype", "compress": "stored", "text": "image/openraster"],
            ["name": "stack.xml", "text": stack],
            ["name": "data/ink.png", "png": picture(40, 20, 0xFFFF_0000)],
            ["name": "data/hidden.png", "png": picture(200, 120, 0xFF00_00FF)],
            ["name": "data/paper.png", "png": picture(200, 120, 0xFFFF_F0A0)],
            ["name": "mergedimage.png", "png": picture(200, 120, 0xFFFF_F0A0)],
        ]]
        try JSONSerialization.data(withJSONObject: spec).write(to: URL(fileURLWithPath: dir + "/spec.json"))
        let original = dir + "/from-elsewhere.ora"
        #expect(try runProgram(which("python3") ?? "/usr/bin/python3", [Self.tool, "make", dir + "/spec.json", original]).status == 0)
        let originalBytes = try Data(contentsOf: URL(fileURLWithPath: original))

        let w = try PaintWindow(on: x, size: "200x120", extraArgs: [original])
        #expect(try eventually { try x.xdotool("getwindowname", w.id).contains("— layer 3/3 Ink & Co (50 %) —") })
        let opened = try w.screenshot().image
        // Red at half over yellow: (255, 248, 208) → (255, 120, 80) rounded; outside, the paper.
        #expect(opened[30, 20] == 0xFFFF_7850, "\(String(opened[30, 20], radix: 16))")
        #expect(opened[100, 80] == 0xFFFF_F0A0, "the hidden blue layer shows nothing")
        // A black stroke on the current layer (at half opacity: grey-ish over the paper).
        try w.key("1")
        try w.drag(PaintWindow.line(from: (10, 60), to: (190, 60)))
        let painted = try w.screenshot().image
        #expect(painted[100, 60] != opened[100, 60])

        #expect(try eventually { try x.xdotool("getwindowname", w.id).hasPrefix("*from-elsewhere.ora — Quicksilver — ") },
                "the title names the file and marks the unsaved stroke")
        // Ctrl+S writes the document back to its file, whole (and the title loses its mark).
        var before = w.process.stdout.split(separator: "\n").count
        try w.key("ctrl+s")
        #expect(try eventually { w.process.stdout.split(separator: "\n").count > before })
        #expect(w.process.stdout.split(separator: "\n").last.map(String.init) == original)
        #expect(try eventually { try x.xdotool("getwindowname", w.id).hasPrefix("from-elsewhere.ora — Quicksilver — ") })
        #expect(try Data(contentsOf: URL(fileURLWithPath: original)) != originalBytes, "saved back")
        // Save As asks in the status strip: a name typed, Return.
        let saved = dir + "/copy.ora"
        before = w.process.stdout.split(separator: "\n").count
        try w.key("ctrl+shift+s")
        try w.key("ctrl+u")
        try w.type(saved)
        try w.key("Return")
        #expect(try eventually { w.process.stdout.split(separator: "\n").count > before })
        #expect(w.process.stdout.split(separator: "\n").last.map(String.init) == saved)
        #expect(try eventually { try x.xdotool("getwindowname", w.id).hasPrefix("copy.ora — Quicksilver — ") })
        _ = try w.quit()
        let (a, b) = (try inspect(original), try inspect(saved))
        for key in Set(a.keys).union(b.keys) {
            let (x, y) = (try JSONSerialization.data(withJSONObject: a[key] ?? 0, options: [.sortedKeys, .fragmentsAllowed]),
                          try JSONSerialization.data(withJSONObject: b[key] ?? 0, options: [.sortedKeys, .fragmentsAllowed]))
            #expect(x == y, "\(key) differs: \(String(decoding: x.prefix(2000), as: UTF8.self)) ≠ \(String(decoding: y.prefix(2000), as: UTF8.self))")
        }

        let got = try inspect(saved)
        let entries = (got["entries"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        #expect(entries.first == "mimetype" && (got["first"] as? [String: Any])?["data"] as? String == "image/openraster")
        #expect(((got["entries"] as? [[String: Any]])?.first?["compress"] as? String) == "stored")
        #expect(entries.contains("mergedimage.png") && entries.contains("Thumbnails/thumbnail.png"))
        let saved3 = layers(got)
        #expect(saved3.map { $0["name"] ?? "" } == ["Ink & Co", "Hidden", "Paper", "Background"])
        #expect(saved3[0]["opacity"].flatMap(Double.init) == 0.5 && saved3[0]["selected"] == "true" && saved3[0]["edit-locked"] == "false")
        #expect(saved3[1]["visibility"] == "hidden" && saved3[2]["visibility"] == "visible")
        #expect(saved3[3]["{urn:x-quicksilver:openraster}background"] == "#ffffff", "the background, marked in our namespace")
        // The merged image is what the window showed; the ink layer holds the stroke, black.
        let merged = try #require(png(got, "mergedimage.png"))
        #expect(merged.width == 200 && merged.pixels == painted.pixels)
        let ink = try #require(png(got, saved3[0]["src"] ?? ""))
        #expect(ink.pixels.contains(0xFF00_0000))

        // And it opens again as it was saved.
        let again = try PaintWindow(on: x, size: "200x120", extraArgs: [saved])
        #expect(try again.screenshot().image == painted)
        #expect(try x.xdotool("getwindowname", again.id).contains("— layer 3/3 Ink & Co (50 %) —"))
        _ = try again.quit()
    }

    /// What reading an .ora changed (a blend mode this program does not know) is said in the
    /// window, not only on stderr.
    @Test func whatAnOpenedDocumentLostIsSaidInTheWindow() throws {
        let x = try XServer()
        let dir = try temporaryFolder()
        let stack = """
        <?xml version="1.0" encoding="UTF-8"?>
        <image version="0.0.5" w="120" h="80"><stack>
         <stack name="Group" composite-op="svg:multiply"><layer name="In" src="data/a.png" composite-op="krita:burn"/></stack>
        </stack></image>
        """
        let spec: [String: Any] = ["entries": [
            ["name": "mimetype", "compress": "stored", "text": "image/openraster"], ["name": "stack.xml", "text": stack],
            ["name": "data/a.png", "png": ["width": 120, "height": 80, "pixels": Array(repeating: Int(0xFF20_4080), count: 9600)]],
        ]]
        try JSONSerialization.data(withJSONObject: spec).write(to: URL(fileURLWithPath: dir + "/spec.json"))
        let file = dir + "/grouped.ora"
        #expect(try runProgram(which("python3") ?? "/usr/bin/python3", [Self.tool, "make", dir + "/spec.json", file]).status == 0)
        let w = try PaintWindow(on: x, size: "200x120", extraArgs: [file])
        #expect(try eventually { try x.xdotool("getwindowname", w.id).contains("grouped.ora: blend modes this program does not know") })
        _ = try w.quit()
    }

    @Test func layersSurviveKillNineAndRenderAsOpenRaster() throws {
        let x = try XServer()
        let state = try temporaryFolder()
        let w = try PaintWindow(on: x, stateDir: state)
        try w.drag(PaintWindow.line(from: (30, 100), to: (370, 100)))
        try w.key("Insert")
        try w.key("3")
        try w.drag(PaintWindow.line(from: (200, 20), to: (200, 280)))
        try w.key("n")
        try w.key("comma")
        #expect(try eventually { try x.xdotool("getwindowname", w.id).contains("— layer 2/2 (multiply, 90 %) —") })
        let shown = try w.screenshot().image
        kill(w.process.pid, SIGKILL)
        _ = w.process.wait()

        let again = try PaintWindow(on: x, stateDir: state)
        #expect(try again.screenshot().image == shown, "both layers back, pixel for pixel")
        #expect(try x.xdotool("getwindowname", again.id).contains("— layer 2/2 (multiply, 90 %) —"))
        _ = try again.quit()

        let journal = try #require(try sessionFiles(in: state).first)
        let out = try temporaryFolder() + "/out.ora"
        #expect(try runProgram(binary, ["render", journal, "-o", out]).status == 0)
        let got = try inspect(out)
        let saved = layers(got)
        #expect(saved.map { $0["name"] ?? "" } == ["Layer 2", "Layer 1", "Background"])
        #expect(saved[0]["composite-op"] == "svg:multiply" && saved[0]["opacity"].flatMap(Double.init) == 0.9)
        #expect(png(got, "mergedimage.png")?.pixels == shown.pixels)
    }
}
