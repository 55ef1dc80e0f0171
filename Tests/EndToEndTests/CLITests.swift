import Foundation
import PNGFile
import Testing

@Suite struct RenderCLITests {
    private func write(_ text: String, name: String = "r.jsonl") throws -> (dir: String, path: String) {
        let dir = try temporaryFolder()
        let path = dir + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return (dir, path)
    }

    @Test func rendersAReplayToAPNG() throws {
        let (dir, replay) = try write("""
        {"quicksilver": 1, "width": 120, "height": 80, "background": "#ffffff"}
        {"t": 0, "type": "brush", "size": 6, "color": "#ff0000"}
        {"t": 0, "type": "down", "x": 10, "y": 40}
        {"t": 0.02, "type": "move", "x": 60, "y": 40}
        {"t": 0.04, "type": "move", "x": 110, "y": 40}
        {"t": 0.05, "type": "up", "x": 110, "y": 40}

        """)
        let out = dir + "/out.png"
        let r = try runProgram(binary, ["render", replay, "-o", out, "--threads", "2"])
        #expect(r.status == 0, "\(r.stderr)")
        let png = try PNGImage.read(from: out)
        #expect(png.width == 120 && png.height == 80)
        for x in 10...110 { #expect(png[x, 40] == 0xFFFF_0000, "x=\(x)") }
        #expect(png[60, 10] == 0xFFFF_FFFF && png[60, 70] == 0xFFFF_FFFF)
        // Same bytes on every run and thread count.
        let again = dir + "/again.png"
        try runProgram(binary, ["render", replay, "-o", again, "--threads", "1"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == Data(contentsOf: URL(fileURLWithPath: again)))
    }

    /// A replay means what the window showed: undo and redo included, with the undo memory its
    /// header gives (none: an undo finds nothing), whatever the defaults.
    @Test func renderPlaysUndoAndRedoAsTheWindowDid() throws {
        func rendered(_ header: String, _ events: [String]) throws -> PNGImage {
            let lines = ["{\"quicksilver\": 1, \"width\": 120, \"height\": 80\(header)}"] + events
            let (dir, replay) = try write(lines.joined(separator: "\n") + "\n")
            let r = try runProgram(binary, ["render", replay, "-o", dir + "/out.png"])
            #expect(r.status == 0, "\(r.stderr)")
            return try PNGImage.read(from: dir + "/out.png")
        }
        func stroke(_ y: Int, at t: Double) -> [String] {
            ["{\"t\": \(t), \"type\": \"down\", \"x\": 10, \"y\": \(y)}", "{\"t\": \(t), \"type\": \"up\", \"x\": 110, \"y\": \(y)}"]
        }
        let two = stroke(20, at: 0) + stroke(60, at: 0.1)
        let undone = try rendered("", two + ["{\"t\": 0.2, \"type\": \"undo\"}"])
        #expect(undone.ink(60, 20) > 200 && undone.ink(60, 60) == 0, "the second stroke is undone")
        let redone = try rendered("", two + ["{\"t\": 0.2, \"type\": \"undo\"}", "{\"t\": 0.3, \"type\": \"redo\"}"])
        #expect(redone.ink(60, 20) > 200 && redone.ink(60, 60) > 200, "and redone")
        let clearUndone = try rendered("", two + ["{\"t\": 0.2, \"type\": \"clear\"}", "{\"t\": 0.3, \"type\": \"undo\"}"])
        #expect(clearUndone == redone, "an undone clear brings everything back")
        let noMemory = try rendered(", \"undoMegabytes\": 0", two + ["{\"t\": 0.2, \"type\": \"undo\"}"])
        #expect(noMemory == redone, "with no undo memory (as the header says the window had) an undo does nothing")
    }

    @Test func badReplayExitsTwoNamesTheLineAndWritesNothing() throws {
        let (dir, replay) = try write("""
        {"quicksilver": 1, "width": 120, "height": 80}
        {"t": 0, "type": "down", "x": 10, "y": 40}
        {"t": 0.1, "type": "move", "x": 10, "y": 40, "color": "#fff"}

        """, name: "bad.jsonl")
        let out = dir + "/out.png"
        let r = try runProgram(binary, ["render", replay, "-o", out])
        #expect(r.status == 2)
        #expect(r.stderr == "\(replay):3: unknown field \"color\" in a \"move\" event\n")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test func badReplayNeverDamagesAnExistingOutput() throws {
        let (dir, replay) = try write("{\"quicksilver\": 1, \"width\": 0, \"height\": 80}\n")
        let out = dir + "/keep.png"
        try Data("precious".utf8).write(to: URL(fileURLWithPath: out))
        let r = try runProgram(binary, ["render", replay, "-o", out])
        #expect(r.status == 2 && r.stderr.contains(":1: \"width\" must be in 1…16384, got 0"))
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "precious")
    }

    /// A process killed while it writes a file leaves nothing behind: no hidden temporary (a
    /// chaos run found them beside journals after kills), and no output. The kill is the
    /// kernel's own, at a byte count rather than a moment: RLIMIT_FSIZE sends SIGXFSZ when the
    /// render's PNG (a noisy pasted picture, ~1 MB) passes 256 KiB. Before unnamed temporaries
    /// this left `.out.png.XXXXXX`, 256 KiB of it.
    @Test func aProcessKilledMidWriteLeavesNoFileBehind() throws {
        var seed: UInt32 = 12345
        let pixels = (0..<(512 * 512)).map { _ -> UInt32 in seed = seed &* 1_664_525 &+ 1_013_904_223; return seed | 0xFF00_0000 }
        let (dir, replay) = try write("""
        {"quicksilver": 1, "width": 512, "height": 512, "background": "#ffffff"}
        {"t": 0, "type": "paste", "image": "noise.png", "x": 0, "y": 0}

        """)
        try PNGImage(width: 512, height: 512, pixels: pixels).write(to: dir + "/noise.png")
        let before = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        // Through Python, which gives SIGXFSZ its default action back and unblocks it (the test
        // runner's threads block it, and a child inherits that), then sets the file size limit.
        let limited = "import os, resource, signal, sys; signal.signal(signal.SIGXFSZ, signal.SIG_DFL); "
            + "signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGXFSZ]); "
            + "resource.setrlimit(resource.RLIMIT_FSIZE, (1 << 18, 1 << 18)); os.execv(sys.argv[1], sys.argv[1:])"
        let r = try runProgram("/usr/bin/env", ["python3", "-c", limited, binary, "render", replay, "-o", dir + "/out.png"])
        #expect(r.status == SIGXFSZ, "killed by SIGXFSZ mid-write: \(r.status) \(r.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == before, "nothing left, hidden or not")
    }

    @Test func unwritableOutputExitsOne() throws {
        let (_, replay) = try write("{\"quicksilver\": 1, \"width\": 4, \"height\": 4}\n")
        let r = try runProgram(binary, ["render", replay, "-o", "/nonexistent-folder/out.png"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("/nonexistent-folder/out.png") && r.stderr.contains("No such file or directory"))
    }

    @Test func missingReplayExitsOne() throws {
        let r = try runProgram(binary, ["render", "/nonexistent.jsonl", "-o", "/tmp/x.png"])
        #expect(r.status == 1 && r.stderr.contains("/nonexistent.jsonl: cannot open"))
    }

    /// Each of these once gave no line, a wrong exit status or an NSCocoaErrorDomain number.
    @Test func filesThatAreNotWhatTheySeemSayWhatIsWrongInOneLine() throws {
        let header = "{\"quicksilver\": 1, \"width\": 64, \"height\": 48}\n"
        let cases: [(name: String, text: String, message: String)] = [
            ("empty", "", ":1: empty file: expected the header"),
            ("paste", header + "{\"t\": 0, \"type\": \"paste\", \"image\": \"gone.png\", \"x\": 0, \"y\": 0}\n",
             ":2: cannot read the pasted picture \"gone.png\": cannot open: No such file or directory"),
            ("snapshot", "{\"quicksilver\": 1, \"width\": 64, \"height\": 48, \"snapshot\": \"gone.png\"}\n",
             ":1: cannot read the snapshot \"gone.png\": cannot open: No such file or directory"),
        ]
        for c in cases {
            let (dir, replay) = try write(c.text, name: c.name + ".jsonl")
            let r = try runProgram(binary, ["render", replay, "-o", dir + "/out.png"])
            #expect(r.status == 2 && r.stderr.hasPrefix(replay + c.message) && r.stderr.filter { $0 == "\n" }.count == 1,
                    "\(c.name): \(r.stderr)")
        }
        let dir = try temporaryFolder()
        let file = dir + "/state-is-a-file"
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        let window = try runProgram(binary, ["window"], environment: ["XDG_STATE_HOME": file, "DISPLAY": ":9999"])
        #expect(window.status == 1 && window.stderr == "quicksilver: \(file)/quicksilver: cannot create the sessions folder: \(file) is a file, not a folder\n",
                "\(window.stderr)")
        let sessions = try runProgram(binary, ["sessions", "--state-dir", dir + "/missing"])
        #expect(sessions.status == 1 && sessions.stderr == "quicksilver: \(dir)/missing: no such folder\n", "\(sessions.stderr)")
    }

    @Test func helpAndVersion() throws {
        let help = try runProgram(binary, ["--help"])
        // The benchmarks are a program of their own (quicksilver-bench), not a subcommand.
        #expect(help.status == 0 && help.stdout.contains("render") && !help.stdout.contains("bench"), "\(help.stdout)")
        let windowHelp = try runProgram(binary, ["window", "--help"])
        #expect(windowHelp.stdout.contains("Ctrl+Z") && windowHelp.stdout.contains("--record"))
        let version = try runProgram(binary, ["--version"])
        #expect(version.status == 0 && !version.stdout.isEmpty)
    }

    @Test func hostileFilesFailCleanlyOrRender() throws {
        let header = "{\"quicksilver\": 1, \"width\": 64, \"height\": 48}\n"
        let hostile: [(name: String, bytes: [UInt8], status: Int32, message: String)] = [
            ("huge-numbers", Array((header + "{\"t\": 1e300, \"type\": \"down\", \"x\": 1.7e308, \"y\": -1.7e308}\n"
                + "{\"t\": 1e300, \"type\": \"move\", \"x\": -1.7e308, \"y\": 1e-320}\n"
                + "{\"t\": 1.7e308, \"type\": \"up\", \"x\": 5, \"y\": 5}\n").utf8), 0, ""),
            ("deep", Array((header + "{\"t\": 0, \"type\": \"clear\", \"x\": " + String(repeating: "[", count: 100_000) + "\n").utf8),
             2, ":2: nested deeper than 16 levels"),
            ("utf8", Array(header.utf8) + Array("{\"t\": 0, \"type\": \"cl".utf8) + [0xC3, 0x28] + Array("ear\"}\n".utf8),
             2, ":2: invalid UTF-8 in string"),
            ("long-line", Array(header.utf8) + [UInt8](repeating: 0x20, count: 4 << 20) + Array("\n".utf8),
             2, ":2: line longer than 1048576 bytes"),
            ("nul", Array(header.utf8) + [0, 0, 0, 0x0a], 2, ":2: expected a value, found byte 0x0"),
        ]
        let dir = try temporaryFolder()
        for h in hostile {
            let path = dir + "/" + h.name + ".jsonl"
            try Data(h.bytes).write(to: URL(fileURLWithPath: path))
            let out = dir + "/" + h.name + ".png"
            let r = try runProgram(binary, ["render", path, "-o", out])
            #expect(r.status == h.status, "\(h.name): \(r.stderr)")
            if h.status == 2 {
                // Exactly one line, FILE:LINE: what.
                #expect(r.stderr.hasPrefix(path + h.message) && r.stderr.filter { $0 == "\n" }.count == 1, "\(h.name): \(r.stderr)")
                #expect(!FileManager.default.fileExists(atPath: out))
            } else {
                #expect(try PNGImage.read(from: out).width == 64)
            }
        }
    }

    @Test func theDemoReplayRenders() throws {
        let out = try temporaryFolder() + "/demo.png"
        let r = try runProgram(binary, ["render", packageRoot.appendingPathComponent("Resources/demo.jsonl").path, "-o", out])
        #expect(r.status == 0, "\(r.stderr)")
        let png = try PNGImage.read(from: out)
        let golden = try PNGImage.read(from: packageRoot.appendingPathComponent("Tests/Fixtures/golden/demo.png").path)
        #expect(png.width == 960 && png.height == 540)
        #expect(png == golden, "the command renders the demo exactly as the golden image")
    }
}

/// Every option's real range is checked, and a refusal says which range, in one line, before
/// anything is done: no crash, no ffmpeg started, nothing written.
@Suite struct OptionRangeTests {
    private let demo = packageRoot.appendingPathComponent("Resources/demo.jsonl").path

    @Test(arguments: [
        (["timelapse", "DEMO", "-o", "OUT.mp4", "--speed", "1e-320"], "--speed must be in 0.000001…1000000, got 1e-320"),
        (["timelapse", "DEMO", "-o", "OUT.mp4", "--speed", "inf"], "--speed must be in 0.000001…1000000, got inf"),
        (["timelapse", "DEMO", "-o", "OUT.mp4", "--speed", "1e308"], "--speed must be in 0.000001…1000000, got 1e+308"),
        (["timelapse", "DEMO", "-o", "OUT.mp4", "--fps", "-5"], "--fps must be in 1…240, got -5"),
        (["timelapse", "DEMO", "-o", "OUT.mp4", "--seconds", "nan"], "--seconds must be in 0.1…86400, got nan"),
        (["render", "DEMO", "-o", "OUT.png", "--threads", "0"], "--threads must be in 1…1024, got 0"),
        (["render", "DEMO", "-o", "OUT.jpg"], "render writes a PNG (.png) or an OpenRaster document (.ora)"),
        (["window", "--undo-megabytes", "-1"], "--undo-megabytes must be in 1…1048576, got -1"),
        (["window", "--play", "DEMO", "--speed", "0"], "--speed must be in 0.000001…1000000, got 0"),
    ])
    func refusedInOneLineSayingTheRange(args: [String], message: String) throws {
        let dir = try temporaryFolder()
        let r = try runProgram(binary, args.map { $0 == "DEMO" ? demo : $0.hasPrefix("OUT") ? dir + "/" + $0 : $0 })
        #expect(r.status != 0)
        #expect(r.stderr.split(separator: "\n").first?.hasSuffix(message) == true, "\(r.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty, "nothing written")
    }

    /// A speed in range can still make a video longer than a day of this drawing: refused after
    /// the first pass, saying the least speed that fits, before ffmpeg starts.
    @Test func aSpeedThatMakesAVideoLongerThanADayIsRefused() throws {
        let dir = try temporaryFolder()
        let r = try runProgram(binary, ["timelapse", demo, "-o", dir + "/frames/", "--speed", "0.00001"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("--speed must be at least 0.000095") && r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }
}
