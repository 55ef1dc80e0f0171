import App
import Foundation
import Input
import Portal
import Testing
import TestSupport

/// Names through the desktop's file chooser, as the app drives it (a fake chooser): asked
/// instead of the strip, the window going on meanwhile, one dialog at a time, the answer saving
/// or opening as the strip's Return would, and the strip when no chooser answers.
@Suite struct ChooserTests {
    @Test func saveAsAsksTheChooserAndItsAnswerSaves() throws {
        let chooser = FakeChooser()
        let h = try Harness(chooser: chooser)
        h.step([.pointerDown(sample(30, 30, t: 0)), .pointerUp(sample(170, 90, t: 0.01)), h.key("s", [.control, .shift])])
        #expect(chooser.questions.count == 1)
        #expect(chooser.questions.first?.kind == .save && chooser.questions.first?.name == "untitled.ora")
        #expect(h.app.status?.prompt == "the file chooser is open")
        // The window goes on while the dialog is open: a stroke draws, and a second Ctrl+S
        // does not open a second dialog.
        h.step([.pointerDown(sample(30, 100, t: 0.1)), .pointerUp(sample(170, 100, t: 0.11)), h.key("s", .control)])
        #expect(h.window.image.pixels[100 * 200 + 100] != 0xFFFF_FFFF, "the second stroke was drawn")
        #expect(chooser.questions.count == 1 && h.app.status?.message == "the file chooser is open")
        let path = h.folder + "/chosen.ora"
        chooser.answers(.chosen([path], filter: nil))
        h.step([])
        #expect(h.out.all.last == path)
        #expect(h.app.status?.document == "chosen.ora" && h.app.status?.prompt == nil)
        #expect(FileManager.default.fileExists(atPath: path))
    }

    @Test func cancelledSavesNothing() throws {
        let chooser = FakeChooser()
        let h = try Harness(chooser: chooser)
        h.step([h.key("s", .control)])
        chooser.answers(.cancelled)
        h.step([])
        #expect(h.app.status?.message == "nothing saved" && h.app.status?.prompt == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: h.folder).filter { $0.hasSuffix(".ora") }.isEmpty)
        h.step([h.key("s", .control)])
        #expect(chooser.questions.count == 2, "asked again")
    }

    @Test func openOpensTheChosenFile() throws {
        let chooser = FakeChooser()
        let h = try Harness(chooser: chooser)
        h.step([h.key("o", .control)])
        #expect(chooser.questions.first?.kind == .open && chooser.questions.first?.folder == h.folder)
        chooser.answers(.chosen([h.folder + "/x.ora"], filter: nil))
        h.step([])
        #expect(h.app.opensNext == h.folder + "/x.ora" && h.app.shouldStop)
    }

    @Test func noChooserThereAsksInTheStrip() throws {
        let chooser = FakeChooser()
        let h = try Harness(chooser: chooser)
        h.step([h.key("s", [.control, .shift])])
        chooser.mayAnswer = false
        chooser.answers(.unavailable(PortalError(.noBus, "no session bus")))
        h.step([])
        #expect(h.app.status?.prompt?.hasPrefix("save as: \(h.folder)/untitled.ora_ ") == true)
        h.step([.key(KeyPress(.escape, time: 0)), h.key("o", .control)])
        #expect(chooser.questions.count == 1, "known absent: the strip asks at once")
        #expect(h.app.status?.prompt?.hasPrefix("open: ") == true)
    }
}
