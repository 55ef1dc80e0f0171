import Foundation
import PNGFile
import Testing

/// Ctrl+C and Ctrl+V against a real clipboard client, xclip (`make test` installs it).
@Suite(.serialized, .enabled(if: canStartXServer && which("xclip") != nil, "needs Xvfb, xdotool and xclip (make test installs them)"))
struct ClipboardTests {
    /// Runs xclip on the CLIPBOARD selection of `x`; its output file, and its exit status.
    @discardableResult
    private func xclip(_ x: XServer, _ args: [String], input: String? = nil) throws -> (out: Data, status: Int32) {
        let dir = try temporaryFolder()
        let out = dir + "/out"
        var command = "exec xclip -selection clipboard " + args.joined(separator: " ")
        if let input { command += " -i '\(input)'" } else { command += " -o > '\(out)'" }
        let r = try runProgram("/bin/sh", ["-c", command], environment: x.environment)
        return ((try? Data(contentsOf: URL(fileURLWithPath: out))) ?? Data(), r.status)
    }

    /// A picture of noise, whose PNG is bigger than one X request holds (INCR both ways).
    private func noise(width: Int, height: Int, at path: String) throws -> PNGImage {
        var state: UInt32 = 12345
        let pixels = (0..<(width * height)).map { _ -> UInt32 in
            state = state &* 1_664_525 &+ 1_013_904_223
            return 0xFF00_0000 | (state >> 8)
        }
        let image = PNGImage(width: width, height: height, pixels: pixels)
        try image.write(to: path)
        return image
    }

    @Test func ctrlCServesTheCanvasAsTheExportWouldSaveIt() throws {
        let x = try XServer()
        let w = try PaintWindow(on: x)
        try w.drag(PaintWindow.line(from: (40, 60), to: (360, 240)))
        try w.key("ctrl+c")
        #expect(try eventually { try x.xdotool("getwindowname", w.id).hasSuffix("— copied 400x300 to the clipboard") })
        let targets = String(decoding: try xclip(x, ["-t", "TARGETS"]).out, as: UTF8.self)
        #expect(targets.split(separator: "\n").contains("image/png") && targets.contains("TARGETS"), "\(targets)")
        let copied = try xclip(x, ["-t", "image/png"]).out
        let (path, _) = try w.screenshot()
        #expect(copied == (try Data(contentsOf: URL(fileURLWithPath: path))), "the clipboard holds exactly the export's PNG")
        // Still served later, until another client takes the clipboard.
        #expect(try xclip(x, ["-t", "image/png"]).out == copied)
        let text = try temporaryFolder() + "/text"
        try Data("hi".utf8).write(to: URL(fileURLWithPath: text))
        try xclip(x, ["-t", "text/plain"], input: text)
        #expect(try eventually { try xclip(x, ["-t", "image/png"]).out != copied }, "another client took it: no longer ours")
        #expect(try w.quit().status == 0)
    }

    @Test func aLargeCanvasCrossesInIncrementsBothWays() throws {
        let x = try XServer()
        let dir = try temporaryFolder()
        let picture = try noise(width: 400, height: 300, at: dir + "/noise.png")
        #expect(try FileManager.default.attributesOfItem(atPath: dir + "/noise.png")[.size] as! Int > 262_144, "more than one request holds")
        let w = try PaintWindow(on: x, extraArgs: ["--record", dir + "/session.jsonl"])
        // xclip offers the picture; Ctrl+V with the pointer at the window's centre pastes it whole.
        try xclip(x, ["-t", "image/png"], input: dir + "/noise.png")
        try x.xdotool("mousemove", "--window", w.id, "200", "150", "key", "ctrl+v")
        #expect(try eventually { try x.xdotool("getwindowname", w.id).hasSuffix("— pasted 400x300") })
        let (path, shot) = try w.screenshot()
        #expect(shot == picture, "pasted pixel for pixel, centred")
        // And back out: read with xclip, the same bytes as the export.
        try w.key("ctrl+c")
        #expect(try eventually { try x.xdotool("getwindowname", w.id).contains("copied 400x300") })
        #expect(try xclip(x, ["-t", "image/png"]).out == (try Data(contentsOf: URL(fileURLWithPath: path))))
        // The paste is one undo step, and the recording keeps the picture beside it.
        try w.key("ctrl+z")
        #expect(try w.screenshot().image.pixels.allSatisfy { $0 == 0xFFFF_FFFF })
        try w.key("ctrl+y")
        #expect(try w.quit().status == 0)
        #expect(FileManager.default.fileExists(atPath: dir + "/session.jsonl.paste-1.png"))
        #expect(try runProgram(binary, ["render", dir + "/session.jsonl", "-o", dir + "/r.png"]).status == 0)
        #expect(try PNGImage.read(from: dir + "/r.png") == picture)
    }

    @Test func noImageOnTheClipboardIsSaidAndNothingChanges() throws {
        let x = try XServer()
        let w = try PaintWindow(on: x)
        try w.key("ctrl+v")
        #expect(try eventually { try x.xdotool("getwindowname", w.id).hasSuffix("— the clipboard is empty") })
        let dir = try temporaryFolder()
        try Data("just text".utf8).write(to: URL(fileURLWithPath: dir + "/t.txt"))
        try xclip(x, [], input: dir + "/t.txt")
        try w.key("ctrl+v")
        #expect(try eventually { try x.xdotool("getwindowname", w.id).hasSuffix("— the clipboard holds no image") })
        #expect(try w.screenshot().image.pixels.allSatisfy { $0 == 0xFFFF_FFFF })
        #expect(try w.quit().status == 0)
    }

    @Test(arguments: ["empty", "empty-incr"])
    func anEmptyImageIsSaidAndNothingChanges(ownerMode: String) throws {
        let x = try XServer()
        let w = try PaintWindow(on: x)
        let owner = try x.clipboardOwner(ownerMode)
        try w.key("ctrl+v")
        #expect(try eventually { try x.xdotool("getwindowname", w.id).hasSuffix("— the clipboard's image is empty") })
        #expect(try w.screenshot().image.pixels.allSatisfy { $0 == 0xFFFF_FFFF })
        #expect(try w.quit().status == 0)
        #expect(owner.isRunning, "it answered and still serves")
    }

    /// An owner that quits during the paste, before answering or between two INCR chunks: the
    /// window hears of its window's destruction and says so, though no input comes after Ctrl+V.
    @Test(arguments: ["quit-on-request", "quit-mid-incr"])
    func anOwnerThatQuitsMidPasteIsSaidWithoutFurtherInput(ownerMode: String) throws {
        let x = try XServer()
        let w = try PaintWindow(on: x)
        let owner = try x.clipboardOwner(ownerMode)
        try w.key("ctrl+v")
        // Nothing is sent to the window from here until the title has been read. The 5 s are
        // not a speed requirement but tell which path spoke: the only other way this paste ends
        // is the 10-second stall check, so a title within 5 s can only come from the owner's
        // death being heard (and 5 s is still ample for a slow machine to handle one event).
        #expect(try eventually(timeout: 5) {
            try x.xdotool("getwindowname", w.id).hasSuffix("— the clipboard's owner quit before sending its picture")
        })
        #expect(owner.wait(timeout: 20).status == 0, "the owner quit by itself")
        #expect(try w.screenshot().image.pixels.allSatisfy { $0 == 0xFFFF_FFFF })
        #expect(try w.quit().status == 0)
    }

    /// An owner that stays but stops sending mid-transfer is given up after the stall check's
    /// 10 seconds, and said then though no input comes to wake the idle window.
    @Test func anOwnerThatStopsAnsweringIsGivenUpWithoutFurtherInput() throws {
        let x = try XServer()
        let w = try PaintWindow(on: x)
        let owner = try x.clipboardOwner("stall-incr")
        try w.key("ctrl+v")
        #expect(try eventually(timeout: 30) {
            try x.xdotool("getwindowname", w.id).hasSuffix("— the clipboard's owner stopped answering")
        })
        #expect(owner.isRunning, "still there, only silent")
        #expect(try w.screenshot().image.pixels.allSatisfy { $0 == 0xFFFF_FFFF })
        #expect(try w.quit().status == 0)
    }

    @Test func aPasteSurvivesACrash() throws {
        let x = try XServer()
        let dir = try temporaryFolder()
        _ = try noise(width: 64, height: 48, at: dir + "/small.png")
        let w = try PaintWindow(on: x)
        try xclip(x, ["-t", "image/png"], input: dir + "/small.png")
        try x.xdotool("mousemove", "--window", w.id, "100", "100", "key", "ctrl+v")
        #expect(try eventually { try x.xdotool("getwindowname", w.id).hasSuffix("— pasted 64x48") })
        let before = try w.screenshot().image
        kill(w.process.pid, SIGKILL)
        _ = w.process.wait()
        let journal = try sessionFiles(in: w.stateDir)[0]
        #expect(FileManager.default.fileExists(atPath: journal + ".paste-1.png"), "the picture is kept beside the journal")
        let again = try PaintWindow(on: x, stateDir: w.stateDir)
        #expect(try again.screenshot().image == before)
        _ = try again.quit()
    }
}
