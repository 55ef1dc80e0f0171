import App
import Foundation
import Input
import Journal
import PNGFile
import Testing
import TestSupport

/// Save, Save As and Open by name through the app as the window drives it (keys in, files out):
/// the prompt in the status, the file written whole, the title's name and unsaved mark.
@Suite struct SaveTests {
    /// The keys that type `text`, as the X side delivers them.
    func typed(_ text: String) -> [InputEvent] {
        text.map { .key(KeyPress(.char($0), time: 0, text: String($0))) }
    }

    let enter = InputEvent.key(KeyPress(.enter, time: 0))

    @Test func aNewDocumentsFirstSaveAsksForANameAndWritesTheLayers() throws {
        let h = try Harness()
        h.step([.pointerDown(sample(30, 30, t: 0)), .pointerUp(sample(170, 90, t: 0.01)), h.key(.insert)])
        #expect(h.app.status?.document == "*untitled", "a new document, changed")
        h.step([h.key("s", .control)])
        #expect(h.app.status?.prompt == "save as: \(h.folder)/untitled.ora_ (Tab completes, Ctrl+U clears, Return saves, Escape cancels)")
        h.step([h.key("u", .control)] + typed(h.folder + "/sketch.ora") + [enter])
        let path = h.folder + "/sketch.ora"
        #expect(h.out.all.last == path)
        #expect(h.app.status?.document == "sketch.ora" && h.app.status?.message == "saved sketch.ora")
        let (doc, _) = try DocumentFile.read(ora: path, maxSide: 1024)
        #expect(doc.layers.count == 2 && doc.current == 1)
        #expect(doc.layers[0].pieces.contains { $0.pixels.contains { $0 >> 24 == 0xFF } }, "the stroke is on the first layer")
        // Saved, the next Ctrl+S writes there without asking; a change marks the title again.
        h.step([.pointerDown(sample(30, 110, t: 0.1)), .pointerUp(sample(170, 110, t: 0.11))])
        #expect(h.app.status?.document == "*sketch.ora")
        h.step([h.key("s", .control)])
        #expect(h.app.status?.prompt == nil)
        #expect(h.app.status?.document == "sketch.ora")
        let (again, _) = try DocumentFile.read(ora: path, maxSide: 1024)
        #expect(again.layers[1].bounds.maxY > 100 && again.layers[0] == doc.layers[0], "the new stroke is on the second layer")
    }

    @Test func saveAndSaveAsWriteTheSameBytes() throws {
        let h = try Harness()
        h.step([.pointerDown(sample(30, 30, t: 0)), .pointerUp(sample(170, 90, t: 0.01)), h.key(.insert),
                h.key("s", .control), h.key("u", .control)] + typed(h.folder + "/a.ora") + [enter])
        h.step([h.key("s", [.control, .shift]), h.key("u", .control)] + typed(h.folder + "/b.ora") + [enter])
        #expect(try Data(contentsOf: URL(fileURLWithPath: h.folder + "/a.ora")) == Data(contentsOf: URL(fileURLWithPath: h.folder + "/b.ora")))
    }

    @Test func savingAsPNGFlattensAndSaysSo() throws {
        let h = try Harness()
        h.step([.pointerDown(sample(30, 30, t: 0)), .pointerUp(sample(170, 90, t: 0.01)), h.key(.insert),
                 h.key("s", [.control, .shift]), h.key("u", .control)] + typed(h.folder + "/flat.png") + [enter])
        #expect(h.app.status?.message == "saved flat.png, flattened: a PNG keeps no layers (save as .ora to keep them)")
        let png = try PNGImage.read(from: h.folder + "/flat.png")
        #expect(png.pixels == h.window.image.pixels)
    }

    @Test func anExistingFileIsReplacedOnlyWhenReturnSaysSo() throws {
        let h = try Harness()
        let path = h.folder + "/mine.png"
        try Data("not mine to lose".utf8).write(to: URL(fileURLWithPath: path))
        h.step([h.key("s", [.control, .shift]), h.key("u", .control)] + typed(path) + [enter])
        #expect(h.app.status?.prompt == "mine.png exists: Return replaces it, any other key goes back")
        h.step([.key(KeyPress(.escape, time: 0))])
        #expect(try h.app.status?.prompt == nil && String(decoding: Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self) == "not mine to lose")
        h.step([h.key("s", [.control, .shift]), h.key("u", .control)] + typed(path) + [enter, enter])
        #expect(try PNGImage.read(from: path).width == 200, "replaced, as asked")
    }

    @Test func aNameThatCannotBeSavedIsRefusedInThePrompt() throws {
        let h = try Harness()
        h.step([h.key("s", .control), h.key("u", .control)] + typed("drawing.jpg") + [enter])
        #expect(h.app.status?.prompt == "save as: drawing.jpg_ (a name ending in .ora (layers kept) or .png (flattened))")
        h.step([h.key("u", .control)] + typed(h.folder + "/no/such/folder/a.ora") + [enter])
        #expect(h.app.status?.prompt?.contains("(no folder \(h.folder)/no/such/folder)") == true)
    }

    @Test func aSaveThatFailsSaysWhyAndKeepsTheChangesMarked() throws {
        let h = try Harness(document: { DocumentNames(path: $0 + "/gone/x.ora", folder: $0) })
        h.step([.pointerDown(sample(30, 30, t: 0)), .pointerUp(sample(170, 90, t: 0.01)), h.key("s", .control)])
        #expect(h.err.all.last?.hasPrefix("quicksilver: saving \(h.folder)/gone/x.ora failed: ") == true)
        #expect(h.app.status?.message?.hasPrefix("saving x.ora failed: ") == true && h.app.status?.document == "*x.ora")
    }

    @Test func tabCompletesFromTheFolder() throws {
        let h = try Harness()
        for name in ["drawing-one.ora", "drawing-two.ora", "sky.png"] {
            try Data().write(to: URL(fileURLWithPath: h.folder + "/" + name))
        }
        let tab = InputEvent.key(KeyPress(.tab, time: 0))
        h.step([h.key("o", .control), h.key("u", .control)] + typed(h.folder + "/s") + [tab])
        #expect(h.app.status?.prompt?.hasPrefix("open: \(h.folder)/sky.png_ ") == true)
        h.step([h.key("u", .control)] + typed(h.folder + "/d") + [tab])
        #expect(h.app.status?.prompt == "open: \(h.folder)/drawing-_ (drawing-one.ora  drawing-two.ora)")
        h.step(typed("t") + [tab, enter])
        #expect(h.app.opensNext == h.folder + "/drawing-two.ora" && h.app.shouldStop)
    }

    @Test func openRefusesWhatIsNotAFile() throws {
        let h = try Harness()
        h.step([h.key("o", .control)])
        #expect(h.app.status?.prompt?.hasPrefix("open: \(h.folder)/_") == true, "it starts in the export folder")
        h.step(typed("missing.ora") + [enter])
        #expect(h.app.status?.prompt == "open: \(h.folder)/missing.ora_ (no such file)" && !h.app.shouldStop)
        h.step([.key(KeyPress(.escape, time: 0))])
        #expect(h.app.status?.prompt == nil)
    }
}
