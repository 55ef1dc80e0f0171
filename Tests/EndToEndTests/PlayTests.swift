import Foundation
import PNGFile
import Testing

/// `quicksilver window --play SESSION.jsonl`: the real binary on a private X server shows the
/// session being drawn, then the window is where `window SESSION.jsonl` opens.
@Suite(.serialized, .enabled(if: canStartXServer, "needs Xvfb and xdotool (make test installs them)"))
struct PlayTests {
    private let demo = packageRoot.appendingPathComponent("Resources/demo.jsonl").path
    /// The demo's canvas and background.
    private let width = 960, height = 540, background: UInt32 = 0xFFFB_F8F1

    private func ink(_ image: PNGImage) -> Int { image.pixels.filter { $0 != background }.count }
    private func title(_ w: PaintWindow) throws -> String { try w.x.xdotool("getwindowname", w.id) }

    /// `render` of `replay`.
    private func render(_ replay: String) throws -> PNGImage {
        let out = try temporaryFolder() + "/render.png"
        let r = try runProgram(binary, ["render", replay, "-o", out])
        #expect(r.status == 0, "\(r.stderr)")
        return try PNGImage.read(from: out)
    }

    /// The window opened on the demo, then after Ctrl+Z; its session's journal.
    private func opened(on x: XServer, _ extraArgs: [String] = []) throws -> (final: PNGImage, undone: PNGImage, journal: String) {
        let w = try PaintWindow(on: x, extraArgs: [demo] + extraArgs)
        var final = try w.grab(width: width, height: height)
        #expect(try eventually { final = try w.grab(width: width, height: height); return ink(final) > 0 })
        try w.key("ctrl+z")
        var undone = final
        #expect(try eventually { undone = try w.grab(width: width, height: height); return undone != final })
        #expect(try w.quit().status == 0)
        let journals = try sessionFiles(in: w.stateDir)
        try #require(journals.count == 1)
        return (final, undone, journals[0])
    }

    /// The demo's pointer presses in `journal`.
    private func presses(_ journal: String) throws -> Int {
        try String(contentsOfFile: journal, encoding: .utf8).components(separatedBy: #""type": "down""#).count - 1
    }

    @Test func aPlayShowsPartOfTheSessionThenAKeyJumpsToWhereOpeningItStarts() throws {
        let x = try XServer()
        let reference = try opened(on: x)

        let w = try PaintWindow(on: x, extraArgs: ["--play", demo, "--speed", "0.3"])
        // Mid-way: some of the drawing, not all of it, and the title says so.
        var part = 0
        #expect(try eventually(timeout: 60) {
            let shot = try w.grab(width: width, height: height)
            part = ink(shot)
            return try title(w).contains("playing") && part > 0 && part < ink(reference.final)
        }, "\(part) of \(ink(reference.final)) pixels inked")
        try w.key("x")
        #expect(try eventually { try !title(w).contains("playing") })
        #expect(try eventually { try w.grab(width: width, height: height) == reference.final })
        // The same undo history, and a journal with the demo's events once.
        try w.key("ctrl+z")
        #expect(try eventually { try w.grab(width: width, height: height) == reference.undone })
        #expect(try w.quit().status == 0)
        let journals = try sessionFiles(in: w.stateDir)
        try #require(journals.count == 1)
        #expect(try presses(journals[0]) == presses(demo))
        #expect(try presses(reference.journal) == presses(demo))
        #expect(try render(journals[0]) == render(reference.journal))
    }

    @Test func aPlayLeftAloneEndsAsOpeningTheSessionStarts() throws {
        let x = try XServer()
        let reference = try opened(on: x)
        let w = try PaintWindow(on: x, extraArgs: ["--play", demo, "--speed", "4"])
        #expect(try eventually(timeout: 60) { try !title(w).contains("playing") })
        #expect(try eventually { try w.grab(width: width, height: height) == reference.final })
        #expect(try w.quit().status == 0)
    }

    @Test func playNeedsASessionFile() throws {
        let r = try runProgram(binary, ["window", "--play"])
        #expect(r.status != 0 && r.stderr.contains("--play needs a session or replay FILE"), "\(r.stderr)")
        let s = try runProgram(binary, ["window", demo, "--speed", "2"])
        #expect(s.status != 0 && s.stderr.contains("--speed goes with --play"), "\(s.stderr)")
    }
}
