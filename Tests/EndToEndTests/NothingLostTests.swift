import Foundation
import PNGFile
import Testing

/// The ways a hostile tester lost drawings, each tried on the real window: a disk that fills
/// and empties again, a read-only state folder, an undo after a restore, an undo past a
/// compaction, a live session opened a second time, a journal damaged in the middle.
@Suite(.serialized, .enabled(if: canStartXServer, "needs Xvfb and xdotool (make test installs them)"))
struct NothingLostTests {
    /// A horizontal stroke at height `y`.
    private func stroke(_ w: PaintWindow, y: Int) throws {
        try w.drag(PaintWindow.line(from: (30, y), to: (370, y), steps: 8))
    }

    /// The journal's "up" lines: the strokes it holds.
    private func strokes(in journal: String) -> Int {
        ((try? String(contentsOfFile: journal, encoding: .utf8)) ?? "").components(separatedBy: "\"type\": \"up\"").count - 1
    }

    private func title(_ w: PaintWindow) throws -> String { try w.x.xdotool("getwindowname", w.id) }

    private func killNine(_ w: PaintWindow) {
        kill(w.process.pid, SIGKILL)
        _ = w.process.wait()
    }

    private func mount(_ args: [String]) throws {
        let r = try runProgram("/bin/mount", args)
        if r.status != 0 { throw HarnessError("mount \(args): \(r.stderr)") }
    }

    @Test(.enabled(if: getuid() == 0, "mounting a small tmpfs needs root"))
    func aDiskThatFillsAndEmptiesAgainLosesNoStroke() throws {
        let x = try XServer()
        let state = try temporaryFolder()
        try mount(["-t", "tmpfs", "-o", "size=96k", "tmpfs", state])
        defer { _ = try? runProgram("/bin/umount", [state]) }
        let w = try PaintWindow(on: x, stateDir: state)
        for i in 0..<4 { try stroke(w, y: 20 + i * 8) }
        let journal = try #require(try eventually { try sessionFiles(in: state).count == 1 } ? sessionFiles(in: state).first : nil)
        #expect(eventually { strokes(in: journal) == 4 })

        // The disk fills: strokes go on, the window says at once that they are not saved.
        _ = try runProgram("/bin/dd", ["if=/dev/zero", "of=" + state + "/filler", "bs=1k", "count=1000"])
        for i in 4..<12 { try stroke(w, y: 20 + i * 8) }
        w.process.waitForStderr("cannot write the journal")
        #expect(w.process.stderr.contains("No space left on device"), "\(w.process.stderr)")
        #expect(try eventually { try title(w).contains("journal NOT SAVED (No space left on device)") }, "\((try? title(w)) ?? "")")
        let written = strokes(in: journal)
        #expect(written < 12, "the full disk took some strokes (\(written))")
        #expect(try String(contentsOfFile: journal, encoding: .utf8).hasSuffix("}\n"), "the file ends on a whole line")

        // Room again: what waited is written, and the window says so.
        try FileManager.default.removeItem(atPath: state + "/filler")
        w.process.waitForStderr("is written again")
        #expect(try eventually { try !title(w).contains("NOT SAVED") })
        for i in 12..<16 { try stroke(w, y: 20 + i * 8) }
        let shown = try w.screenshot().image
        #expect(eventually { strokes(in: journal) == 16 })
        killNine(w)

        let again = try PaintWindow(on: x, stateDir: state)
        #expect(try again.screenshot().image == shown, "every stroke is back, pixel for pixel")
        #expect(try again.quit().stderr.contains("(16 strokes): it did not end cleanly"))
    }

    @Test(.enabled(if: getuid() == 0, "a read-only bind mount needs root"))
    func aReadOnlyStateFolderIsSaidAtOnceAndQuittingAsksFirst() throws {
        let x = try XServer()
        let state = try temporaryFolder()
        let folder = state + "/quicksilver"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try mount(["--bind", folder, folder])
        defer { _ = try? runProgram("/bin/umount", [folder]) }
        try mount(["-o", "remount,ro,bind", folder])

        let w = try PaintWindow(on: x, stateDir: state)
        try stroke(w, y: 100)
        w.process.waitForStderr("cannot write the journal")
        #expect(w.process.stderr.contains("Read-only file system"), "said at once, not at exit: \(w.process.stderr)")
        #expect(try eventually { try title(w).contains("journal NOT SAVED") })
        // Quitting would lose the stroke: the first Ctrl+Q says so and the window stays.
        try w.key("ctrl+q")
        #expect(try eventually { try title(w).contains("Ctrl+Q again quits") })
        #expect(w.process.isRunning)

        try mount(["-o", "remount,rw,bind", folder])
        w.process.waitForStderr("is written again")
        try stroke(w, y: 200)
        let shown = try w.screenshot().image
        let done = try w.quit()
        #expect(done.status == 0 && !done.stderr.contains("could not be written"), "\(done.stderr)")
        let restored = try PaintWindow(on: x, extraArgs: ["--restore"], stateDir: state)
        #expect(try restored.screenshot().image == shown)
        _ = try restored.quit()
    }

    @Test func anUndoAfterARestoreIsKeptHoweverOftenTheSessionIsContinued() throws {
        let x = try XServer()
        let state = try temporaryFolder()
        let first = try PaintWindow(on: x, stateDir: state)
        try stroke(first, y: 80)
        try stroke(first, y: 160)
        let blank = PNGImage(width: 400, height: 300, pixels: Array(repeating: 0xFFFF_FFFF, count: 400 * 300))
        #expect(try first.quit().status == 0)

        // Continued once: one stroke undone, then a crash.
        let second = try PaintWindow(on: x, extraArgs: ["--restore"], stateDir: state)
        try second.key("ctrl+z")
        let oneStroke = try second.screenshot().image
        #expect(oneStroke.ink(200, 80) > 200 && oneStroke.ink(200, 160) == 0)
        killNine(second)

        // Recovered: the undo holds; undo reaches back past both restores, and redo returns.
        let third = try PaintWindow(on: x, stateDir: state)
        #expect(try third.screenshot().image == oneStroke, "the undo made after the restore is kept")
        try third.key("ctrl+z")
        #expect(try third.screenshot().image == blank, "the first stroke, drawn two windows ago, is undone too")
        try third.key("ctrl+y")
        try third.key("ctrl+y")
        let redone = try third.screenshot().image
        #expect(redone.ink(200, 80) > 200 && redone.ink(200, 160) > 200, "and both redone")
        try third.key("ctrl+z")
        killNine(third)
        let thirdJournal = try #require(try sessionFiles(in: state).last { strokes(in: $0) == 2 && (try? String(contentsOfFile: $0, encoding: .utf8))?
            .components(separatedBy: "\"type\": \"continued\"").count == 3 })

        let fourth = try PaintWindow(on: x, stateDir: state)
        #expect(try fourth.screenshot().image == oneStroke)
        _ = try fourth.quit()
        // The third window's journal replays on its own to what that window showed last.
        let out = try temporaryFolder() + "/third.png"
        #expect(try runProgram(binary, ["render", thirdJournal, "-o", out]).status == 0)
        #expect(try PNGImage.read(from: out) == oneStroke)
    }

    @Test func undoReachesPastACompactionInTheWindowAndAfterACrash() throws {
        let x = try XServer()
        let state = try temporaryFolder()
        let w = try PaintWindow(on: x, extraArgs: ["--journal-compact-bytes", "1500"], stateDir: state)
        var shown = [try w.screenshot().image]
        for y in [40, 90, 140, 190, 240] {
            try stroke(w, y: y)
            shown.append(try w.screenshot().image)
        }
        let journal = try #require(try eventually { try sessionFiles(in: state).count == 1 } ? sessionFiles(in: state).first : nil)
        #expect(eventually { (try? String(contentsOfFile: journal, encoding: .utf8))?.contains("\"history\": ") == true }, "compacted")
        #expect(strokes(in: journal) < 4)
        for k in 1...4 {
            try w.key("ctrl+z")
            #expect(try w.screenshot().image == shown[5 - k], "undo \(k), past the compaction")
        }
        killNine(w)

        // Recovered: as the window showed it, undo and redo reaching into the history beside it.
        let again = try PaintWindow(on: x, stateDir: state)
        #expect(try again.screenshot().image == shown[1])
        try again.key("ctrl+z")
        #expect(try again.screenshot().image == shown[0], "the first stroke, from before the compaction, undone")
        for _ in 1...4 { try again.key("ctrl+y") }
        #expect(try again.screenshot().image == shown[4])
        _ = try again.quit()
        let out = try temporaryFolder() + "/crashed.png"
        #expect(try runProgram(binary, ["render", journal, "-o", out]).status == 0)
        #expect(try PNGImage.read(from: out) == shown[1], "render draws what the window showed")
    }

    @Test func aDamagedHistoryIsSaidAndThePictureRestoredWithoutIt() throws {
        let x = try XServer()
        let state = try temporaryFolder()
        let w = try PaintWindow(on: x, extraArgs: ["--journal-compact-bytes", "1500"], stateDir: state)
        for y in [40, 90, 140, 190] { try stroke(w, y: y) }
        let shown = try w.screenshot().image
        let journal = try #require(try eventually { try sessionFiles(in: state).count == 1 } ? sessionFiles(in: state).first : nil)
        #expect(eventually { (try? String(contentsOfFile: journal, encoding: .utf8))?.contains("\"history\": ") == true }, "compacted")
        killNine(w)
        let header = try String(contentsOfFile: journal, encoding: .utf8).prefix { $0 != "\n" }
        let name = try #require(header.components(separatedBy: "\"history\": \"").dropFirst().first?.prefix { $0 != "\"" })
        let history = (journal as NSString).deletingLastPathComponent + "/" + name
        try Data("damaged".utf8).write(to: URL(fileURLWithPath: history))

        let again = try PaintWindow(on: x, stateDir: state)
        #expect(try again.screenshot().image == shown, "the snapshot and the events are restored")
        let stderr = try again.quit().stderr
        // The name is cut to 40 characters, as every name a file gives is in a message.
        #expect(stderr.contains("quicksilver: warning: \(journal):1: cannot read the undo history \"\(name.prefix(40))…\": "
                                + "not a Quicksilver history file; restored without it: undo stops at its snapshot"), "\(stderr)")
    }

    @Test func aLiveSessionOpenedAgainIsCopiedNeverTakenOver() throws {
        let x = try XServer()
        let state = try temporaryFolder()
        let a = try PaintWindow(on: x, stateDir: state)
        try stroke(a, y: 60)
        let aJournal = try #require(try eventually { try sessionFiles(in: state).count == 1 } ? sessionFiles(in: state).first : nil)
        #expect(eventually { strokes(in: aJournal) == 1 })

        let b = try PaintWindow(on: x, extraArgs: ["--restore"], stateDir: state)
        b.process.waitForStderr("is open in another window")
        #expect(b.process.stderr.contains("quicksilver: \(aJournal) is open in another window: this window continues a copy of it"))
        #expect(try b.screenshot().image.ink(200, 60) > 200, "the copy shows what A showed")
        try stroke(b, y: 240)
        #expect(try b.quit().status == 0)

        try stroke(a, y: 120)
        try stroke(a, y: 180)
        let shownByA = try a.screenshot().image
        #expect(eventually { strokes(in: aJournal) == 3 })
        killNine(a)

        let c = try PaintWindow(on: x, stateDir: state)
        #expect(try c.screenshot().image == shownByA, "A is recovered whole, not skipped for B's copy")
        let stderr = try c.quit().stderr
        #expect(stderr.contains("restored the previous session from \(aJournal) (3 strokes)"), "\(stderr)")
    }

    @Test(arguments: ["{\"t\": 0.35, \"type\": \"down\", \"x\": 50, \"y\": 2\u{0}\n",
                      "{\"t\": 0.35, \"type\": \"layer\", \"name\": \"from a newer version\"}\n"])
    func aJournalDamagedInTheMiddleIsRestoredUpToTheDamage(damage: String) throws {
        let x = try XServer()
        let state = try temporaryFolder()
        let folder = state + "/quicksilver"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let text = """
        {"quicksilver": 1, "width": 400, "height": 300}
        {"t": 0, "type": "down", "x": 50, "y": 100, "pressure": 0.5}
        {"t": 0.1, "type": "move", "x": 350, "y": 100, "pressure": 0.5}
        {"t": 0.2, "type": "up", "x": 350, "y": 100, "pressure": 0.5}

        """ + damage + """
        {"t": 0.5, "type": "down", "x": 50, "y": 200, "pressure": 0.5}
        {"t": 0.6, "type": "up", "x": 350, "y": 200, "pressure": 0.5}

        """
        let journal = folder + "/session-20260101-100000-1.jsonl"
        try text.write(toFile: journal, atomically: true, encoding: .utf8)

        let w = try PaintWindow(on: x, stateDir: state)
        let shot = try w.screenshot().image
        #expect(shot.ink(200, 100) > 200, "what came before the damage is back")
        #expect(shot.ink(200, 200) == 0, "nothing after it is played")
        try stroke(w, y: 250)
        let shown = try w.screenshot().image
        let stderr = try w.quit().stderr
        #expect(stderr.contains("quicksilver: warning: \(journal):5: "), "\(stderr)")
        #expect(stderr.contains("restored what came before line 5 and left the file as it is"), "\(stderr)")
        #expect(try String(contentsOfFile: journal, encoding: .utf8) == text, "the damaged file is kept as it was")
        let continued = try #require(try sessionFiles(in: state).first { $0 != journal })
        let out = try temporaryFolder() + "/continued.png"
        #expect(try runProgram(binary, ["render", continued, "-o", out]).status == 0)
        #expect(try PNGImage.read(from: out) == shown)
        // Strict where a person asked for the file: `window FILE` names the line.
        let strict = try runProgram(binary, ["window", journal], environment: x.environment)
        #expect(strict.status == 2 && strict.stderr.hasPrefix("\(journal):5: "), "\(strict.stderr)")
    }
}

/// A stroke drawn right after opening a big picture is on disk as fast as any other: the
/// journal names the picture (and its bytes' hash) at once, and its copy follows beside it,
/// whatever the copy is doing. Shown without a clock: the state folder has room for the
/// journal's lines but not for the copy, which never gets written (before, the journal waited
/// for a snapshot of the picture, which never fitted either, and the stroke was never saved).
@Suite(.serialized, .enabled(if: canStartXServer, "needs Xvfb and xdotool (make test installs them)"))
struct OpenedPictureTests {
    /// A picture of noise: as costly to copy or encode, byte for byte, as pictures get.
    private func noise(width: Int, height: Int) throws -> String {
        let path = try temporaryFolder() + "/photo.png"
        var state: UInt32 = 7
        let pixels = (0..<(width * height)).map { _ -> UInt32 in
            state = state &* 1_664_525 &+ 1_013_904_223
            return 0xFF00_0000 | state >> 8
        }
        try PNGImage(width: width, height: height, pixels: pixels).write(to: path)
        return path
    }

    @Test(.enabled(if: getuid() == 0, "mounting a small tmpfs needs root"))
    func aStrokeRightAfterOpeningAPictureIsSavedWhateverItsCopyIsDoing() throws {
        let x = try XServer()
        let picture = try noise(width: 1000, height: 700)
        let state = try temporaryFolder()
        let r = try runProgram("/bin/mount", ["-t", "tmpfs", "-o", "size=256k", "tmpfs", state])
        try #require(r.status == 0, "\(r.stderr)")
        defer { _ = try? runProgram("/bin/umount", [state]) }
        let w = try PaintWindow(on: x, extraArgs: [picture], stateDir: state)
        try w.drag(PaintWindow.line(from: (40, 150), to: (360, 150), steps: 8))
        let journal = try #require(try eventually { try sessionFiles(in: state).count == 1 } ? sessionFiles(in: state).first : nil,
                                   "the journal is made: \(w.process.stderr)")
        #expect(eventually { ((try? String(contentsOfFile: journal, encoding: .utf8)) ?? "").contains("\"type\": \"up\"") },
                "the stroke reaches it")
        let text = try String(contentsOfFile: journal, encoding: .utf8)
        #expect(text.contains("\"opened\": {\"path\": \"\(picture)\""), "it names the picture opened: \(text.prefix(300))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: state + "/quicksilver").allSatisfy { !$0.contains(".opened-") },
                "the copy did not fit")
        kill(w.process.pid, SIGKILL)
        _ = w.process.wait()

        // Restarted: the picture (read from itself, unchanged) and the stroke.
        let again = try PaintWindow(on: x, stateDir: state)
        let said = try again.quit().stderr
        #expect(said.contains("(1 stroke): it did not end cleanly"), "\(said)")
    }
}
