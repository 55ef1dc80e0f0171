import Foundation
import PNGFile
import Testing
import TestSupport

/// Never lose a stroke: crashes, a dead X server, signals, shared-memory leaks, failing exports,
/// resize storms and damaged journals, each against the real window on a private Xvfb.
@Suite(.serialized, .enabled(if: canStartXServer, "needs Xvfb and xdotool (make test installs them)"))
struct RobustnessTests {
    /// Three strokes, one of them with Shift.
    private func drawSomething(_ w: PaintWindow) throws {
        try w.drag(PaintWindow.line(from: (30, 40), to: (370, 60)))
        try w.key("3")
        try w.drag([(40, 250), (150, 120), (250, 260), (360, 140)], shift: true)
        try w.key("x")
        try w.drag(PaintWindow.line(from: (200, 20), to: (210, 290)))
    }

    @Test func killNineThenRestartRestoresEveryEndedStroke() throws {
        let x = try XServer()
        let state = try temporaryFolder()
        let first = try PaintWindow(on: x, stateDir: state)
        try drawSomething(first)
        let (_, before) = try first.screenshot()
        kill(first.process.pid, SIGKILL)
        _ = first.process.wait()
        let crashed = try sessionFiles(in: state)
        let journal = try String(contentsOfFile: try #require(crashed.first), encoding: .utf8)

        // A start that cannot open its display says only that, and leaves the session as it was.
        let noDisplay = try runProgram(binary, ["window", "--display", ":987"], environment: ["XDG_STATE_HOME": state])
        #expect(noDisplay.status == 1 && noDisplay.stderr == "quicksilver: cannot open display \":987\"\n")
        #expect(try sessionFiles(in: state) == crashed)
        #expect(try String(contentsOfFile: crashed[0], encoding: .utf8) == journal)

        let second = try PaintWindow(on: x, stateDir: state)
        let after = try second.screenshot().image
        #expect(after == before, "pixel for pixel what the screenshot before the crash showed")
        #expect(try second.quit().stderr.contains("restored the previous session"))
    }

    @Test func cleanExitStartsEmptyAndRestoreBringsItBack() throws {
        let x = try XServer()
        let state = try temporaryFolder()
        let first = try PaintWindow(on: x, stateDir: state)
        try drawSomething(first)
        let drawn = try first.screenshot().image
        #expect(try first.quit().status == 0)

        let restored = try PaintWindow(on: x, extraArgs: ["--restore"], stateDir: state)
        #expect(try restored.screenshot().image == drawn)
        _ = try restored.quit()

        // After that clean exit, a plain start is an empty canvas.
        let fresh = try PaintWindow(on: x, stateDir: state)
        #expect(try fresh.screenshot().image.pixels.allSatisfy { $0 == 0xFFFF_FFFF })
        _ = try fresh.quit()
    }

    @Test(arguments: [SIGTERM, SIGINT, SIGHUP])
    func signalsCloseCleanly(signal: Int32) throws {
        let x = try XServer()
        let state = try temporaryFolder()
        let w = try PaintWindow(on: x, stateDir: state)
        try w.drag(PaintWindow.line(from: (50, 150), to: (350, 150)))
        let drawn = try w.screenshot().image
        kill(w.process.pid, signal)
        let done = w.process.wait(timeout: 20)
        #expect(done.status == 0, "\(done.stderr)")
        let journals = try sessionFiles(in: state)
        #expect(journals.count == 1)
        let journal = try String(contentsOfFile: try #require(journals.first), encoding: .utf8)
        #expect(journal.hasSuffix("\"type\": \"exit\"}\n"))
        let again = try PaintWindow(on: x, extraArgs: ["--restore"], stateDir: state)
        #expect(try again.screenshot().image == drawn)
        _ = try again.quit()
    }

    /// A start-up that waits (here on a pipe whose writer never writes; a big journal or a
    /// display that does not answer would do the same) still ends on SIGTERM, at once.
    @Test func sigtermEndsAStartUpThatWaits() throws {
        let dir = try temporaryFolder()
        let fifo = dir + "/never.png"
        try makeFIFO(fifo)
        let w = try Launched(binary, ["window", fifo, "--display", ":9999"])
        // The writer's open returns once the window has opened the FIFO: it is reading now.
        let writer = open(fifo, O_WRONLY | O_CLOEXEC)
        defer { close(writer) }
        #expect(writer >= 0)
        usleep(200_000)
        #expect(w.isRunning, "it waits for the picture")
        kill(w.pid, SIGTERM)
        let done = w.wait(timeout: 10)
        #expect(done.status == 1 && done.stderr == "quicksilver: stopped by signal 15 while starting; nothing was written\n", "\(done.stderr)")
    }

    @Test func losingTheXServerSavesTheSessionAndExits() throws {
        let state = try temporaryFolder()
        var before: PNGImage
        do {
            let x = try XServer()
            let w = try PaintWindow(on: x, stateDir: state)
            try drawSomething(w)
            before = try w.screenshot().image
            x.kill()
            let done = w.process.wait(timeout: 20)
            #expect(done.status == 1)
            let lines = done.stderr.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].contains("lost the connection to the X server"), "\(done.stderr)")
        }
        let x = try XServer()
        let w = try PaintWindow(on: x, stateDir: state)
        #expect(try w.screenshot().image == before)
        _ = try w.quit()
    }

    @Test func fiftyKillNineCyclesLeaveNoSharedMemory() throws {
        let x = try XServer()
        var killed: Set<Int32> = []
        var sawASegment = false
        for _ in 0..<50 {
            let w = try PaintWindow(on: x, extraArgs: ["--no-journal"])
            let pid = w.process.pid
            killed.insert(pid)
            // The test means something only if the windows do use shared memory.
            if !sawASegment { sawASegment = try eventually(timeout: 10) { try sharedMemoryCreators().contains(pid) } }
            kill(pid, SIGKILL)
            _ = w.process.wait()
        }
        // Segments created by any of the killed windows (other tests' windows may be running).
        // The server detaches a dead client's segments as it notices the hang-up: allow it time.
        #expect(sawASegment, "a live window's segment was seen")
        var leaked: [Int32] = []
        try eventually { leaked = try sharedMemoryCreators().filter { killed.contains($0) }; return leaked.isEmpty }
        #expect(leaked.isEmpty, "segments left by \(leaked.count) killed windows")
    }

    @Test func exportToAnUnwritableFolderFailsCleanlyAndDrawingGoesOn() throws {
        let x = try XServer()
        let notAFolder = try temporaryFolder() + "/file"
        try Data("x".utf8).write(to: URL(fileURLWithPath: notAFolder))
        let w = try PaintWindow(on: x, extraArgs: ["--export-dir", notAFolder])
        try w.drag(PaintWindow.line(from: (50, 100), to: (350, 100)))
        try w.key("ctrl+shift+e")
        w.process.waitForStderr("screenshot failed")
        #expect(w.process.stderr.contains("quicksilver: screenshot failed: \(notAFolder)/quicksilver-"))
        // The write is the background's: stderr hears of its failure before the next frame's title does.
        #expect(try eventually { try x.xdotool("getwindowname", w.id).hasSuffix("screenshot failed") })
        try w.drag(PaintWindow.line(from: (50, 200), to: (350, 200)))
        #expect(try eventually {
            let shown = try w.grab(width: 400, height: 300)
            return shown.ink(200, 100) > 200 && shown.ink(200, 200) > 200
        }, "the canvas is intact and drawing went on")
        #expect(try w.quit().status == 0)
    }

    @Test(.enabled(if: getuid() == 0, "mounting a small tmpfs needs root"))
    func exportToAFullDiskLeavesNoPartialFileAndWorksOnceThereIsRoom() throws {
        let x = try XServer()
        let disk = try temporaryFolder()
        guard try runProgram("/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", disk]).status == 0 else {
            Issue.record("cannot mount a tmpfs")
            return
        }
        defer { _ = try? runProgram("/bin/umount", [disk]) }
        let filler = disk + "/filler"
        _ = try runProgram("/bin/dd", ["if=/dev/zero", "of=" + filler, "bs=1k", "count=1000"])
        let w = try PaintWindow(on: x, extraArgs: ["--export-dir", disk])
        try w.drag(PaintWindow.line(from: (50, 100), to: (350, 100)))
        try w.key("ctrl+shift+e")
        w.process.waitForStderr("screenshot failed")
        #expect(w.process.stderr.contains("No space left on device"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: disk) == ["filler"], "no partial file")
        try FileManager.default.removeItem(atPath: filler)
        let (path, shot) = try w.screenshot()
        #expect(path.hasPrefix(disk + "/"))
        #expect(shot.ink(200, 100) > 200)
        _ = try w.quit()
    }

    @Test func resizeStormsKeepTheContent() throws {
        let x = try XServer()
        let w = try PaintWindow(on: x)
        try w.drag(PaintWindow.line(from: (100, 100), to: (300, 200)))
        let sizes = [(1, 1), (8192, 8192), (37, 900), (400, 300)] + (0..<120).map { (50 + $0 * 7 % 700, 40 + $0 * 13 % 500) } + [(400, 300)]
        for (width, height) in sizes { try x.xdotool("windowsize", w.id, "\(width)", "\(height)") }
        let shot = try w.screenshot().image
        #expect(shot.width == 400 && shot.height == 300, "the canvas kept its size")
        #expect(shot.ink(200, 150) > 200 && shot.ink(100, 250) == 0)
        #expect(try eventually { try w.grab(width: 400, height: 300) == shot }, "the window, back at 400x300, shows it whole")
        #expect(try w.quit().status == 0)
    }

    @Test func aKeyHeldDownAutorepeatsSafely() throws {
        let x = try XServer()
        let w = try PaintWindow(on: x)
        try x.xdotool("mousemove", "--window", w.id, "1", "1")
        try x.xdotool("keydown", "bracketright")
        // Autorepeat doubles the size ten times (8 → 512 needs six), then keeps repeating.
        let reached = try eventually { try x.xdotool("getwindowname", w.id).contains("pen 512 ") }
        usleep(500_000)   // held on past 512: a dozen more repeats
        try x.xdotool("keyup", "bracketright")
        #expect(reached, "autorepeat reaches the largest size")
        #expect(try x.xdotool("getwindowname", w.id).contains("pen 512 "), "doubling stops at the largest size")
        try w.drag(PaintWindow.line(from: (0, 150), to: (400, 150)))
        #expect(try w.screenshot().image.ink(200, 20) > 200, "a 512 px pen covers the window")
        #expect(try w.quit().status == 0)
    }

    @Test func aJournalCutOffMidLineIsRecoveredUpToThatLine() throws {
        let x = try XServer()
        let state = try temporaryFolder()
        try FileManager.default.createDirectory(atPath: state + "/quicksilver", withIntermediateDirectories: true)
        let journal = """
        {"quicksilver": 1, "width": 400, "height": 300}
        {"t": 0, "type": "down", "x": 50, "y": 100, "pressure": 0.5}
        {"t": 0.1, "type": "move", "x": 350, "y": 100, "pressure": 0.5}
        {"t": 0.2, "type": "up", "x": 350, "y": 100, "pressure": 0.5}
        {"t": 0.5, "type": "down", "x": 50, "y": 200, "pressure": 0.5}
        {"t": 0.6, "type": "move", "x": 350, "y": 2
        """
        try journal.write(toFile: state + "/quicksilver/journal.jsonl", atomically: true, encoding: .utf8)
        let w = try PaintWindow(on: x, stateDir: state)
        let shot = try w.screenshot().image
        #expect(shot.ink(200, 100) > 200, "the stroke that ended is back")
        let stderr = try w.quit().stderr
        #expect(stderr.contains("journal.jsonl:6: the last line was cut off"), "\(stderr)")
        #expect(stderr.contains("recovered up to line 5"))
    }

    /// The desktop's "Open with" hands a journal cut by a crash to `quicksilver window FILE`:
    /// it opens up to the damage, saying so in one line, in the window too, the file untouched.
    @Test func aJournalFileCutOffMidLineOpensUpToTheDamage() throws {
        let x = try XServer()
        let file = try temporaryFolder() + "/cut.jsonl"
        let journal = """
        {"quicksilver": 1, "width": 400, "height": 300}
        {"t": 0, "type": "down", "x": 50, "y": 100, "pressure": 0.5}
        {"t": 0.1, "type": "move", "x": 350, "y": 100, "pressure": 0.5}
        {"t": 0.2, "type": "up", "x": 350, "y": 100, "pressure": 0.5}
        {"t": 0.5, "type": "down", "x": 50, "y": 200, "pressure": 0.5}
        {"t": 0.6, "type": "move", "x": 350, "y": 2
        """
        try journal.write(toFile: file, atomically: true, encoding: .utf8)
        let w = try PaintWindow(on: x, extraArgs: [file])
        #expect(try eventually { try x.xdotool("getwindowname", w.id).contains("cut.jsonl:6: the last line was cut off") })
        #expect(try w.screenshot().image.ink(200, 100) > 200, "the stroke that ended is there")
        let stderr = try w.quit().stderr
        #expect(stderr.contains("cut.jsonl:6: the last line was cut off") && stderr.contains("recovered up to line 5"), "\(stderr)")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == journal, "the file untouched")
        // A damaged line that is not the last is still refused, in one line.
        try (journal + "\n{\"t\": 0.7, \"type\": \"up\", \"x\": 350, \"y\": 200}\n").write(toFile: file, atomically: true, encoding: .utf8)
        let refused = try runProgram(binary, ["window", file], environment: x.environment)
        #expect(refused.status == 2 && refused.stderr.contains("cut.jsonl:6:"), "\(refused.stderr)")
    }
}

/// The creator pid of every shared memory segment on this machine (`ipcs -m -p`); an error when
/// ipcs cannot say (an empty list would pass a leak check for nothing).
func sharedMemoryCreators() throws -> [Int32] {
    let r = try runProgram("/usr/bin/ipcs", ["-m", "-p"])
    guard r.status == 0 else { throw HarnessError("ipcs -m -p failed: \(r.stderr)") }
    return r.stdout.split(separator: "\n").compactMap { line in
        let fields = line.split(separator: " ")
        guard fields.count >= 4, Int(fields[0]) != nil else { return nil }
        return Int32(fields[2])
    }
}
