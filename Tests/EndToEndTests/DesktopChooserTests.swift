import Foundation
import PNGFile
import Testing
import TestSupport

/// The desktop's file chooser in the real window: the real XDG desktop portal and its GTK
/// backend on a private session bus (`PortalSession`), the GTK dialog on the test's Xvfb found
/// with xdotool and typed into through XTest, the document written where it was told, while the
/// window goes on drawing.
@Suite(.serialized, .enabled(if: PortalSession.installed, "needs dbus-daemon, xdg-desktop-portal and xdg-desktop-portal-gtk (make test installs them)"))
struct DesktopChooserTests {
    private func title(_ w: PaintWindow) throws -> String { try w.x.xdotool("getwindowname", w.id) }

    /// The dialog's X id, once one titled `name` is shown.
    private func dialog(_ x: XServer, _ name: String) throws -> String {
        var found = ""
        eventually(timeout: 60) {
            found = (try? x.xdotool("search", "--onlyvisible", "--name", "^\(name)$"))?.split(separator: "\n").first.map(String.init) ?? ""
            return !found.isEmpty
        }
        guard !found.isEmpty else { throw HarnessError("no \"\(name)\" dialog appeared") }
        return found
    }

    /// The merged image of an OpenRaster file (its `mergedimage.png`, unzipped by Python's zipfile).
    private func mergedImage(of ora: String) throws -> PNGImage {
        let out = try temporaryFolder() + "/merged.png"
        let r = try runProgram(which("python3") ?? "/usr/bin/python3",
                               ["-c", "import sys, zipfile; open(sys.argv[2], 'wb').write(zipfile.ZipFile(sys.argv[1]).read('mergedimage.png'))",
                                ora, out])
        guard r.status == 0 else { throw HarnessError("not an OpenRaster file: \(r.stderr)") }
        return try PNGImage.read(from: out)
    }

    @Test func saveAsTypesTheNameIntoTheGTKDialogAndTheWindowGoesOnMeanwhile() throws {
        let x = try XServer()
        let portal = try PortalSession(on: x)
        let w = try PaintWindow(on: x, tools: true, environment: portal.environment)
        try w.drag(PaintWindow.line(from: (50, 100), to: (350, 100)))
        #expect(try eventually { try title(w).hasPrefix("*untitled — ") })

        try w.key("ctrl+shift+s")
        let dlg = try dialog(x, "Save drawing as")
        #expect(try eventually { try title(w).contains("— the file chooser is open") })
        // Moved aside (no window manager: both sit at 0,0), the window still draws, and a second
        // Ctrl+S opens no second dialog.
        try x.xdotool("windowmove", dlg, "420", "0")
        try x.xdotool("windowfocus", "--sync", w.id)
        try w.drag(PaintWindow.line(from: (50, 160), to: (350, 160)))
        try w.key("ctrl+s")
        #expect(try eventually { try title(w).contains("— the file chooser is open") })
        #expect(try x.xdotool("search", "--onlyvisible", "--name", "^Save drawing") == dlg, "one dialog")

        // The name typed into GTK's own entry through XTest (its folder is the export folder, as
        // suggested), the dialog given the focus as a window manager would.
        try x.xdotool("mousemove", "--window", dlg, "200", "20")
        try x.xdotool("windowfocus", "--sync", dlg)
        try x.xdotool("key", "ctrl+a")
        try x.xdotool("type", "--delay", "20", "drawn.ora")
        try x.xdotool("key", "Return")
        let path = w.exportDir + "/drawn.ora"
        #expect(try eventually(timeout: 60) { try title(w).hasPrefix("drawn.ora — Quicksilver — ") }, "\(portal.log)")
        #expect(w.process.stdout.split(separator: "\n").last.map(String.init) == path)
        let merged = try mergedImage(of: path)
        #expect(merged.ink(200, 100) > 200 && merged.ink(200, 160) > 200, "both strokes, the second drawn while the dialog was open")
        #expect(try w.quit().status == 0)
    }

    @Test func cancellingOpenDoesNothing() throws {
        let x = try XServer()
        let portal = try PortalSession(on: x)
        let w = try PaintWindow(on: x, environment: portal.environment)
        try w.key("ctrl+o")
        let dlg = try dialog(x, "Open drawing")
        try x.xdotool("mousemove", "--window", dlg, "200", "20")
        try x.xdotool("windowfocus", "--sync", dlg)
        try x.xdotool("key", "Escape")
        #expect(try eventually(timeout: 60) { try title(w).contains("— nothing opened") })
        #expect(w.process.isRunning, "the same window, no other file")
        #expect(try w.quit().status == 0)
    }

    @Test func withQuicksilverPortal0TheStripAsksThoughAPortalAnswers() throws {
        let x = try XServer()
        let portal = try PortalSession(on: x)
        let w = try PaintWindow(on: x, environment: portal.environment.merging(["QUICKSILVER_PORTAL": "0"]) { $1 })
        try w.key("ctrl+shift+s")
        #expect(try eventually { try title(w).contains("— save as: \(w.exportDir)/untitled.ora_ ") })
        #expect(try x.xdotool("search", "--onlyvisible", "--name", "^Save drawing").isEmpty)
        #expect(try w.quit().status == 0)
    }
}
