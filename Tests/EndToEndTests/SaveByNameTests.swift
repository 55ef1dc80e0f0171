import Foundation
import PNGFile
import Testing
import TestSupport

/// Save, Save As and Open by name in the real window, driven by XTest: the prompt in the status
/// strip (typed, completed with Tab, confirmed before replacing), the title, Ctrl+O's new window.
@Suite(.serialized, .enabled(if: canStartXServer, "needs Xvfb and xdotool (make test installs them)"))
struct SaveByNameTests {
    private func title(_ w: PaintWindow) throws -> String { try w.x.xdotool("getwindowname", w.id) }

    private func lines(_ w: PaintWindow) -> [String] { w.process.stdout.split(separator: "\n").map(String.init) }

    @Test func aNewDrawingIsSavedByNameThenOpenedAgainWithCtrlO() throws {
        let x = try XServer()
        let w = try PaintWindow(on: x, tools: true)
        #expect(try eventually { try title(w).hasPrefix("untitled — Quicksilver — ") })
        try w.drag(PaintWindow.line(from: (50, 100), to: (350, 100)))
        #expect(try eventually { try title(w).hasPrefix("*untitled — Quicksilver — ") })

        // Ctrl+S on a new drawing asks for a name, the export folder's untitled.ora typed in.
        try w.key("ctrl+s")
        #expect(try eventually { try title(w).contains("— save as: \(w.exportDir)/untitled.ora_ (Tab completes") })
        try w.key("BackSpace")
        try w.key("BackSpace")
        try w.key("BackSpace")
        try w.key("BackSpace")
        try w.type(".png")
        #expect(try eventually { try title(w).contains("— save as: \(w.exportDir)/untitled.png_ ") })
        if let docs = ProcessInfo.processInfo.environment["QS_DOCS_PICTURES"] {
            try w.grab(width: 400, height: 300).write(to: docs + "/prompt.png")
        }
        try w.key("Return")
        let path = w.exportDir + "/untitled.png"
        #expect(try eventually { lines(w).last == path })
        #expect(try eventually { try title(w).hasPrefix("untitled.png — Quicksilver — ") })
        #expect(try PNGImage.read(from: path).ink(200, 100) > 200, "the stroke is in the file")

        // A second drawing, then Ctrl+O with Tab completing the name: the window opens it.
        try w.drag(PaintWindow.line(from: (200, 20), to: (200, 280)))
        try w.key("ctrl+o")
        #expect(try eventually { try title(w).contains("— open: \(w.exportDir)/_") })
        try w.type("unt")
        try w.key("Tab")
        #expect(try eventually { try title(w).contains("— open: \(path)_") })
        try w.reopening { try w.key("Return") }
        #expect(try eventually { try title(w).hasPrefix("untitled.png — Quicksilver — ") })
        #expect(w.process.stderr.contains("quicksilver: opening \(path); the drawing before stays in "))
        let (_, reopened) = try w.screenshot()
        #expect(reopened.ink(200, 100) > 200 && reopened.ink(200, 200) < 10, "the file as saved, not the unsaved second stroke")
        #expect(try w.quit().status == 0)
    }

    /// A drawing saved by name, drawn on, then killed: the restored window goes on with its file,
    /// marked unsaved, and Ctrl+S writes there without asking (it came back "untitled").
    @Test func aSavedDrawingRestoredAfterACrashKeepsItsFile() throws {
        let x = try XServer()
        let state = try temporaryFolder()
        let w = try PaintWindow(on: x, stateDir: state)
        let path = w.exportDir + "/kept.png"
        try w.drag(PaintWindow.line(from: (50, 100), to: (350, 100)))
        try w.key("ctrl+shift+s")
        try w.key("ctrl+u")
        try w.type(path)
        try w.key("Return")
        #expect(try eventually { try title(w).hasPrefix("kept.png — Quicksilver — ") })
        try w.drag(PaintWindow.line(from: (200, 20), to: (200, 280)))
        #expect(try eventually { try title(w).hasPrefix("*kept.png — Quicksilver — ") })
        let (_, drawn) = try w.screenshot()
        kill(w.process.pid, SIGKILL)
        _ = w.process.wait()

        let restored = try PaintWindow(on: x, stateDir: state)
        #expect(try eventually { try title(restored).hasPrefix("*kept.png — Quicksilver — ") }, "\((try? title(restored)) ?? "")")
        try restored.key("ctrl+s")
        #expect(try eventually { try title(restored).hasPrefix("kept.png — Quicksilver — ") }, "saved without a prompt")
        #expect(try eventually { (try? PNGImage.read(from: path)) == drawn }, "both strokes in the file")
        #expect(try restored.quit().status == 0)
    }

    @Test func saveAsOverAnExistingFileAsksFirst() throws {
        let x = try XServer()
        let w = try PaintWindow(on: x)
        let theirs = w.exportDir + "/theirs.ora"
        try Data("someone else's".utf8).write(to: URL(fileURLWithPath: theirs))
        try w.drag(PaintWindow.line(from: (50, 100), to: (350, 100)))
        try w.key("ctrl+shift+s")
        try w.key("ctrl+u")
        try w.type(theirs)
        try w.key("Return")
        #expect(try eventually { try title(w).contains("— theirs.ora exists: Return replaces it, any other key goes back") })
        try w.key("Escape")
        #expect(try eventually { !(try title(w).contains("exists")) })
        #expect(try String(contentsOfFile: theirs, encoding: .utf8) == "someone else's", "kept")
        try w.key("ctrl+shift+s")
        try w.key("ctrl+u")
        try w.type(theirs)
        try w.key("Return")
        #expect(try eventually { try title(w).contains("exists") })
        try w.key("Return")
        #expect(try eventually { lines(w).last == theirs })
        #expect(try Data(contentsOf: URL(fileURLWithPath: theirs)).prefix(2) == Data("PK".utf8), "replaced by the document")
        #expect(try w.quit().status == 0)
    }
}
