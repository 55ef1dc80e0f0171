import App
import Clock
import Compute
import Events
import Files
import Foundation
import Geometry
import Input
import Journal
import Kernels
import Paint
import PNGFile
import Portal
import ReplayFormat
import Strokes
import Testing
import TestSupport

@Suite struct ClipboardTests {
    /// A PNG of `size` filled with `colour`.
    private func png(_ size: Size, _ colour: UInt32) throws -> [UInt8] {
        try PNGImage(width: size.width, height: size.height, pixels: [UInt32](repeating: colour, count: size.area)).encode()
    }

    @Test func ctrlCPutsTheCanvasOnTheClipboardExactlyAsTheExportSavesIt() throws {
        let h = try Harness()
        h.input([.key(KeyPress("+", time: 0, x: 50, y: 50)), .pointerDown(sample(30, 30, t: 0)),
                 .pointerUp(sample(170, 90, t: 0.01)), h.key("c", .control), h.key("e", [.control, .shift])])
        h.draw(frame: 1)
        let copied = try #require(h.window.clipboard)
        let saved = try #require(h.out.all.last)
        #expect(copied == Array(try Data(contentsOf: URL(fileURLWithPath: saved))), "the same bytes as the screenshot, whatever the view")
        #expect(try PNGImage.decode(copied).width == 200)
        #expect(h.app.status?.message?.hasPrefix("exported ") == true, "the export, written in the background, said last")
    }

    @Test func ctrlVPastesCentredAtThePointerAsOneUndoStepAndKeepsThePicture() throws {
        let h = try Harness()
        h.input([.key(KeyPress("v", mods: .control, time: 0, x: 100, y: 60))])
        #expect(h.window.pasteRequests == 1)
        h.input([.paste(.image(try png(Size(width: 20, height: 10), 0xFFFF_0000)))])
        h.draw(frame: 1)
        let canvas = h.session.layerPixels
        func at(_ x: Int, _ y: Int) -> UInt32 { canvas[y * 200 + x] }
        #expect(at(90, 55) == 0xFFFF_0000 && at(109, 64) == 0xFFFF_0000, "the 20x10 picture from (90, 55)")
        #expect(at(89, 55) == 0 && at(110, 60) == 0 && at(100, 65) == 0)
        #expect(h.app.status?.message == "pasted 20x10")
        h.input([h.key("z", .control)])
        h.draw(frame: 2)
        #expect(h.session.layerPixels.allSatisfy { $0 == 0 }, "one undo step")
        h.app.finish(h.loop)
        // The recording names the picture it kept beside itself, and renders to what was shown.
        let text = try String(contentsOfFile: h.recordPath, encoding: .utf8)
        #expect(text.contains("\"type\": \"paste\", \"image\": \"record.jsonl.paste-1.png\", \"x\": 90, \"y\": 55"))
        #expect(FileManager.default.fileExists(atPath: h.folder + "/record.jsonl.paste-1.png"))
        #expect(FileManager.default.fileExists(atPath: h.journal.path + ".paste-1.png"))
        let journal = try String(contentsOfFile: h.journal.path, encoding: .utf8)
        #expect(journal.contains("\"image\": \"journal.jsonl.paste-1.png\""))
        let pasted = try Playback.load(h.recordPath, compute: ComputeContext(threads: 1)).session
        #expect(pasted.layerPixels == h.session.layerPixels)
    }

    /// Recovery replays a paste from the picture beside the journal: a paste whose picture
    /// cannot be kept there is not made at all, rather than journaled without it.
    @Test func aPasteWhosePictureCannotBeKeptBesideTheJournalIsNotMade() throws {
        let h = try Harness()
        // A folder where the picture would go: no file can be renamed over it, root or not.
        try FileManager.default.createDirectory(atPath: h.journal.path + ".paste-1.png", withIntermediateDirectories: false)
        h.input([.key(KeyPress("v", mods: .control, time: 0, x: 100, y: 60))])
        h.input([.paste(.image(try png(Size(width: 20, height: 10), 0xFFFF_0000)))])
        h.draw(frame: 1)
        #expect(h.app.status?.message == "the paste could not be kept, so it was not made")
        #expect(h.err.all.contains { $0.hasPrefix("quicksilver: cannot keep the pasted picture: ") })
        #expect(h.session.layerPixels.allSatisfy { $0 == 0 })
        h.app.finish(h.loop)
        #expect(!((try? String(contentsOfFile: h.journal.path, encoding: .utf8)) ?? "").contains("paste"))
    }

    @Test func noImageOnTheClipboardIsSaidInTheTitleAndChangesNothing() throws {
        let h = try Harness()
        h.input([.key(KeyPress("v", mods: .control, time: 0, x: 10, y: 10)), .paste(.nothing("the clipboard holds no image"))])
        h.draw(frame: 1)
        #expect(h.app.status?.message == "the clipboard holds no image")
        h.input([.key(KeyPress("v", mods: .control, time: 0, x: 10, y: 10)), .paste(.image(Array("not a png".utf8)))])
        h.draw(frame: 2)
        #expect(h.app.status?.message?.hasPrefix("the clipboard's image cannot be read") == true)
        #expect(h.session.layerPixels.allSatisfy { $0 == 0 })
        h.app.finish(h.loop)
        #expect(!FileManager.default.fileExists(atPath: h.recordPath + ".paste-1.png"))
    }
}
