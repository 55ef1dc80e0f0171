import Foundation
import PNGFile
import Testing
import TestSupport

/// Groups through the real window: a grouped .ora laid out as Krita writes one opens showing
/// what Krita flattened it to (within 3 levels), the panel folds and unfolds a group, a drag puts
/// a layer into a group, a double-click renames a row, a stroke is drawn, Ctrl+S writes every
/// layer and group back as nested stacks, and a kill -9 then a restart restore the same pixels.
@Suite(.serialized, .enabled(if: canStartXServer, "needs Xvfb and xdotool (make test installs them)"))
struct GroupWindowTests {
    static let fixtures = packageRoot.appendingPathComponent("Tests/Fixtures/krita")
    private func title(_ w: PaintWindow) throws -> String { try w.x.xdotool("getwindowname", w.id) }

    /// stack.xml's tree as "name" for a layer and "name[children]" for a stack, top first.
    private func tree(_ path: String) throws -> String {
        let tool = packageRoot.appendingPathComponent("Tests/OpenRasterTests/Support/ora_tool.py").path
        let r = try runProgram(which("python3") ?? "/usr/bin/python3", [tool, "inspect", path])
        guard r.status == 0, let object = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any] else {
            throw HarnessError("ora_tool inspect \(path): \(r.stderr)")
        }
        func walk(_ node: [String: Any]) -> String {
            let attributes = Dictionary((node["attributes"] as? [[String]] ?? []).map { ($0[0], $0[1]) }, uniquingKeysWith: { a, _ in a })
            let children = (node["children"] as? [[String: Any]] ?? []).map(walk)
            let name = attributes["name"] ?? ""
            guard node["tag"] as? String == "stack" else { return name }
            return name + (attributes["isolation"] == "isolate" ? "!" : "") + "[" + children.joined(separator: ",") + "]"
        }
        let root = (object["stack"] as? [String: Any])?["children"] as? [[String: Any]] ?? []
        return root.first.map(walk) ?? ""
    }

    private func largestDifference(_ a: PNGImage, _ b: PNGImage) -> Int {
        guard a.width == b.width, a.height == b.height else { return 999 }
        return zip(a.pixels, b.pixels).map { p, q in
            [UInt32(16), 8, 0].map { abs(Int(p >> $0 & 0xFF) - Int(q >> $0 & 0xFF)) }.max() ?? 0
        }.max() ?? 0
    }

    @Test func aGroupedDocumentOpensIsWorkedInThePanelAndSavesBackWhole() throws {
        let x = try XServer()
        let dir = try temporaryFolder()
        let file = dir + "/groups.ora"
        try FileManager.default.copyItem(atPath: Self.fixtures.appendingPathComponent("groups.ora").path, toPath: file)
        let krita = try PNGImage.read(from: Self.fixtures.appendingPathComponent("groups-krita.png").path)
        let state = try temporaryFolder()
        let w = try PaintWindow(on: x, extraArgs: [file], stateDir: state, tools: true)
        #expect(try eventually { try title(w).contains("— layer 1/13 base —") }, "\((try? title(w)) ?? "")")
        let opened = try w.screenshot().image
        #expect(largestDifference(opened, krita) <= 3, "as Krita shows it: \(largestDifference(opened, krita)) levels")

        // The panel: 220 px wide at 8 px from the right, a 26 px header, 32 px rows, top first:
        // top, hidden group, under cover, pass, inner, c1, c2, b1, b2, iso, a1, a2, base.
        let left = 640 - 220 - 8, top = 8 + 26
        func rowY(_ position: Int) -> Int { top + 32 * position + 16 }
        func click(_ px: Int, _ py: Int, repeat times: Int = 1) throws {
            try x.xdotool("mousemove", "--window", w.id, "\(px)", "\(py)", "click", "--repeat", "\(times)", "--delay", "80", "1")
        }
        // The window opens at the document's size: made larger, the panel has room beside it.
        try x.xdotool("windowsize", w.id, "640", "560")
        #expect(try eventually { (try? w.grab(width: 640, height: 560)) != nil })
        // Folded, "pass" lists none of its five: the row after it is "iso".
        try click(left + 32, rowY(3))
        usleep(200_000)
        try click(left + 150, rowY(4))
        #expect(try eventually { try title(w).contains("— layer 4/13 iso (isolated group, multiply, 80 %) —") }, "\((try? title(w)) ?? "")")
        if let docs = ProcessInfo.processInfo.environment["QS_DOCS_PICTURES"] {
            try w.grab(width: 640, height: 560).write(to: docs + "/layer-panel.png")
        }
        try click(left + 32, rowY(3))
        usleep(200_000)
        try click(left + 150, rowY(4))
        #expect(try eventually { try title(w).contains("— layer 9/13 inner (isolated group, screen, 70 %) —") }, "\((try? title(w)) ?? "")")

        // "top" dragged onto "iso": into it, as its bottom layer.
        try x.xdotool("mousemove", "--window", w.id, "\(left + 150)", "\(rowY(0))", "mousedown", "1")
        for y in stride(from: rowY(0), through: rowY(9), by: 16) { try x.xdotool("mousemove", "--window", w.id, "\(left + 150)", "\(y)") }
        try x.xdotool("mousemove", "--window", w.id, "\(left + 150)", "\(rowY(9))", "mouseup", "1")
        #expect(try eventually { try title(w).contains("— layer 2/13 top (90 %) —") }, "\((try? title(w)) ?? "")")

        // A double-click on "base" renames it in the status strip.
        try click(left + 150, rowY(12), repeat: 2)
        try w.key("ctrl+u")
        try w.type("Paper")
        try w.key("Return")
        #expect(try eventually { try title(w).contains("— layer 1/13 Paper —") }, "\((try? title(w)) ?? "")")

        // Drawn on, then saved back with Ctrl+S.
        try w.key("1")
        try w.drag(PaintWindow.line(from: (10, 48), to: (118, 48)))
        let painted = try w.screenshot().image
        #expect(largestDifference(painted, opened) > 20, "the stroke shows")
        let before = w.process.stdout.split(separator: "\n").count
        try w.key("ctrl+s")
        #expect(try eventually { w.process.stdout.split(separator: "\n").count > before })
        #expect(try eventually { try !title(w).hasPrefix("*") }, "saved: the title loses its mark")
        #expect(try tree(file) == "[hidden group![under cover],pass[inner![c1,c2],b1,b2],iso![a1,a2,top],Paper,Background]", "\((try? tree(file)) ?? "")")

        // Killed, restarted: the session comes back as it was.
        kill(w.process.pid, SIGKILL)
        _ = w.process.wait()
        let again = try PaintWindow(on: x, stateDir: state)
        #expect(try again.screenshot().image == painted, "restored pixel for pixel")
        #expect(try eventually { try x.xdotool("getwindowname", again.id).contains("— layer 1/13 Paper —") })
        _ = try again.quit()

        // The saved file opens again as it was saved.
        let reopened = try PaintWindow(on: x, extraArgs: [file])
        #expect(try reopened.screenshot().image == painted)
        _ = try reopened.quit()
    }
}
