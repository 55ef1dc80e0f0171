import Foundation
import PNGFile
import Testing

/// Sessions as a user meets them: each window journals to a file of its own, an empty session
/// leaves nothing, `--restore` and `quicksilver window FILE` continue one, `quicksilver sessions`
/// lists them, and the folder keeps the newest within its cap.
@Suite(.serialized, .enabled(if: canStartXServer, "needs Xvfb and xdotool (make test installs them)"))
struct SessionsTests {
    private func sessions(_ state: String) throws -> Finished {
        try runProgram(binary, ["sessions"], environment: ["XDG_STATE_HOME": state])
    }

    @Test func anEmptySessionNeverReplacesTheOneBeforeIt() throws {
        let x = try XServer()
        let state = try temporaryFolder()
        let first = try PaintWindow(on: x, stateDir: state)
        try first.drag(PaintWindow.line(from: (40, 60), to: (360, 240)))
        let drawn = try first.screenshot().image
        #expect(try first.quit().status == 0)
        #expect(try sessionFiles(in: state).count == 1)

        // Started again: empty, by design; closed without drawing: it leaves nothing behind.
        let empty = try PaintWindow(on: x, stateDir: state)
        #expect(try empty.screenshot().image.pixels.allSatisfy { $0 == 0xFFFF_FFFF })
        try empty.key("bracketright")   // a brush change is not a change to the picture
        #expect(try empty.quit().status == 0)
        #expect(try sessionFiles(in: state).count == 1, "the empty session left no file")

        let restored = try PaintWindow(on: x, extraArgs: ["--restore"], stateDir: state)
        #expect(try restored.screenshot().image == drawn, "the drawing is back, pixel for pixel")
        let stderr = try restored.quit().stderr
        #expect(stderr.contains("restored the previous session from \(try sessionFiles(in: state)[0]) (1 stroke): as asked (--restore)"))
    }

    @Test func theListIsNewestFirstAndSaysHowEachEnded() throws {
        let x = try XServer()
        let state = try temporaryFolder()
        let none = try sessions(state)
        #expect(none.status == 0 && none.stdout.isEmpty && none.stderr.isEmpty, "an empty list prints nothing")

        let first = try PaintWindow(on: x, stateDir: state)
        try first.drag(PaintWindow.line(from: (40, 60), to: (360, 60)))
        try first.drag(PaintWindow.line(from: (40, 120), to: (360, 120)))
        _ = try first.quit()
        // Two seconds apart at least: session names and their order are by the second.
        sleep(1)
        let second = try PaintWindow(on: x, size: "320x200", stateDir: state)
        try second.drag(PaintWindow.line(from: (40, 60), to: (300, 60)))
        _ = try second.screenshot()
        kill(second.process.pid, SIGKILL)
        _ = second.process.wait()

        let list = try sessions(state)
        let lines = list.stdout.split(separator: "\n").map(String.init)
        #expect(list.status == 0 && lines.count == 2)
        let files = try sessionFiles(in: state)
        let line = #/^(\S+)  (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)  (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)  (\d+) strokes?  (\d+x\d+)  (.+)$/#
        let newest = try #require(lines.first.flatMap { try? line.wholeMatch(in: $0) })
        let oldest = try #require(lines.last.flatMap { try? line.wholeMatch(in: $0) })
        #expect(String(newest.1) == files[1] && String(oldest.1) == files[0], "the path first, newest first")
        #expect(newest.4 == "1" && newest.5 == "320x200" && newest.6 == "crashed, not recovered yet")
        #expect(oldest.4 == "2" && oldest.5 == "400x300" && oldest.6 == "ended cleanly")
        #expect(oldest.2 <= oldest.3 && oldest.3 <= newest.2, "started, then ended")

        // The next start restores the crashed one; once it draws, the list says so.
        let third = try PaintWindow(on: x, stateDir: state)
        try third.drag(PaintWindow.line(from: (10, 10), to: (20, 20)))
        _ = try third.quit()
        let after = try sessions(state).stdout
        #expect(after.split(separator: "\n").count == 3 && after.contains("crashed, recovered in session-"), "\(after)")
    }

    @Test func continuingAFileNeverChangesIt() throws {
        let x = try XServer()
        let state = try temporaryFolder()
        let first = try PaintWindow(on: x, stateDir: state)
        try first.drag(PaintWindow.line(from: (40, 60), to: (360, 60)))
        _ = try first.quit()
        let file = try sessionFiles(in: state)[0]
        let before = try Data(contentsOf: URL(fileURLWithPath: file))

        let again = try PaintWindow(on: x, extraArgs: [file], stateDir: state)
        try again.drag(PaintWindow.line(from: (40, 200), to: (360, 200)))
        let both = try again.screenshot().image
        #expect(both.ink(200, 60) > 200 && both.ink(200, 200) > 200, "the earlier drawing and the new stroke")
        _ = try again.quit()
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == before, "the file continued from is untouched")
        let files = try sessionFiles(in: state)
        #expect(files.count == 2)
        let lines = try String(contentsOfFile: files[1], encoding: .utf8).split(separator: "\n")
        #expect(lines[0].contains("\"continues\": \"\(file)\""))
        #expect(lines.contains { $0.contains("\"type\": \"continued\"") }, "the earlier events, then where this window took over")

        // And the new session renders on its own, as the window showed it, even once the file
        // it continued is gone.
        try FileManager.default.removeItem(atPath: file)
        let out = try temporaryFolder() + "/continued.png"
        #expect(try runProgram(binary, ["render", files[1], "-o", out]).status == 0)
        #expect(try PNGImage.read(from: out) == both)
    }

    @Test func theFolderKeepsTheNewestWithinItsCap() throws {
        let x = try XServer()
        let state = try temporaryFolder()
        let folder = state + "/quicksilver"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // 22 sessions that ended cleanly, ~200 KB each (4.4 MB), and an older one that crashed.
        let padding = String(repeating: " ", count: 200_000)
        for i in 0..<23 {
            let started = String(format: "2026-01-01T10:%02d:00Z", i)
            let text = "{\"quicksilver\": 1, \"width\": 64, \"height\": 48, \"started\": \"\(started)\"}\n"
                + "{\"t\": 0, \"type\": \"clear\"}\(padding)\n" + (i == 0 ? "" : "{\"t\": 1, \"type\": \"exit\"}\n")
            try text.write(toFile: folder + "/session-old-\(100 + i).jsonl", atomically: true, encoding: .utf8)
        }
        let w = try PaintWindow(on: x, extraArgs: ["--sessions-megabytes", "1"], stateDir: state)
        let stderr = try w.quit().stderr
        let removed = stderr.split(separator: "\n").filter { $0.contains("removed the oldest session") }
        #expect(removed.count == 2, "\(stderr)")
        #expect(removed.first?.contains("session-old-101.jsonl") == true && removed.last?.contains("session-old-102.jsonl") == true)
        let left = try sessionFiles(in: state).map { ($0 as NSString).lastPathComponent }
        #expect(left.count == 21 && left.first == "session-old-100.jsonl", "the crashed one is never deleted")
    }

    @Test func aJournalFromBeforeSessionsIsPickedUpAsOne() throws {
        let state = try temporaryFolder()
        try FileManager.default.createDirectory(atPath: state + "/quicksilver", withIntermediateDirectories: true)
        try """
        {"quicksilver": 1, "width": 400, "height": 300}
        {"t": 0, "type": "down", "x": 50, "y": 100, "pressure": 0.5}
        {"t": 0.2, "type": "up", "x": 350, "y": 100, "pressure": 0.5}
        {"t": 0.3, "type": "exit"}

        """.write(toFile: state + "/quicksilver/journal.jsonl", atomically: true, encoding: .utf8)
        let list = try sessions(state).stdout
        #expect(list.hasPrefix(state + "/quicksilver/journal.jsonl  ") && list.contains("  1 stroke  400x300  ended cleanly"), "\(list)")
        let x = try XServer()
        let w = try PaintWindow(on: x, extraArgs: ["--restore"], stateDir: state)
        #expect(try w.screenshot().image.ink(200, 100) > 200)
        _ = try w.quit()
    }
}
