import Foundation
import PNGFile
import Testing

/// `quicksilver timelapse`: the real binary on recorded sessions, its frames read back (the PNG
/// folder exactly, the video through ffmpeg).
@Suite struct TimelapseTests {
    private let demo = packageRoot.appendingPathComponent("Resources/demo.jsonl").path

    /// The frames of a PNG folder, in order.
    private func frames(in folder: String) throws -> [PNGImage] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".png") }.sorted()
        return try names.map { try PNGImage.read(from: folder + "/" + $0) }
    }

    /// `render` of `replay`.
    private func render(_ replay: String, in dir: String) throws -> PNGImage {
        let out = dir + "/render-\(UUID().uuidString).png"
        let r = try runProgram(binary, ["render", replay, "-o", out])
        #expect(r.status == 0, "\(r.stderr)")
        return try PNGImage.read(from: out)
    }

    /// Pixels unlike `background` by more than `tolerance` in a channel: the ink.
    private func ink(_ image: PNGImage, background: UInt32, tolerance: Int = 0) -> Int {
        var n = 0
        for p in image.pixels {
            for shift: UInt32 in [16, 8, 0] {
                let a = Int((p >> shift) & 0xFF), b = Int((background >> shift) & 0xFF)
                if abs(a - b) > tolerance { n += 1; break }
            }
        }
        return n
    }

    /// Mean absolute difference per channel between two images of one size.
    private func meanDifference(_ a: PNGImage, _ b: PNGImage) -> Double {
        var sum = 0
        for (p, q) in zip(a.pixels, b.pixels) {
            for s in [16, 8, 0] { sum += abs(Int((p >> UInt32(s)) & 0xFF) - Int((q >> UInt32(s)) & 0xFF)) }
        }
        return Double(sum) / Double(a.pixels.count * 3)
    }

    @Test func pngFramesRunFromTheOpeningCanvasToTheRenderAndTheInkGrows() throws {
        let dir = try temporaryFolder()
        let r = try runProgram(binary, ["timelapse", demo, "-o", dir + "/frames/", "--seconds", "3", "--fps", "10"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.isEmpty, "a progress bar only on a terminal: \(r.stderr)")
        let shots = try frames(in: dir + "/frames")
        // 3 s at 10 fps: the drawing, then the hold (a fifth of so short a video: 0.6 s).
        try #require(shots.count == 30)
        // The opening canvas: the demo's header alone, played.
        let header = try String(contentsOfFile: demo, encoding: .utf8).split(separator: "\n")[0]
        let opening = dir + "/opening.jsonl"
        try (header + "\n").write(toFile: opening, atomically: true, encoding: .utf8)
        #expect(shots[0] == (try render(opening, in: dir)))
        let final = try render(demo, in: dir)
        #expect(shots[29] == final)
        for hold in shots[24...] { #expect(hold == final) }
        #expect(shots[23] == final && shots[22] != final)
        let background = shots[0].pixels[0]
        let inks = shots.map { ink($0, background: background) }
        #expect(inks[0] == 0)
        for i in 1..<inks.count { #expect(inks[i] >= inks[i - 1], "frame \(i + 1) has less ink than frame \(i): \(inks)") }
        // The drawing is spread over the frames: most of them add ink.
        let growing = (1..<24).filter { inks[$0] > inks[$0 - 1] }.count
        #expect(growing >= 18, "\(inks)")
    }

    @Test func aVideoDecodedBackStartsAtTheOpeningEndsAtTheRenderAndGrows() throws {
        guard which("ffmpeg") != nil, which("ffprobe") != nil else {
            Issue.record("ffmpeg is not installed (make test installs it)")
            return
        }
        let dir = try temporaryFolder()
        let video = dir + "/demo.mp4"
        let r = try runProgram(binary, ["timelapse", demo, "-o", video, "--seconds", "2", "--fps", "15"])
        #expect(r.status == 0, "\(r.stderr)")
        let probe = try runProgram(which("ffprobe")!, ["-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                                                       "stream=codec_name,width,height,nb_read_frames", "-of", "csv=p=0", video])
        #expect(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "h264,960,540,30", "\(probe.stdout)\(probe.stderr)")
        try FileManager.default.createDirectory(atPath: dir + "/decoded", withIntermediateDirectories: false)
        let decode = try runProgram(which("ffmpeg")!, ["-v", "error", "-i", video, dir + "/decoded/%04d.png"])
        #expect(decode.status == 0, "\(decode.stderr)")
        let shots = try frames(in: dir + "/decoded")
        try #require(shots.count == 30)
        let final = try render(demo, in: dir)
        let background = final.pixels[0]
        // Lossy: near, not equal. The opening is the bare background.
        let blank = PNGImage(width: 960, height: 540, pixels: Array(repeating: background, count: 960 * 540))
        #expect(meanDifference(shots[0], blank) < 1.0)
        #expect(meanDifference(shots[29], final) < 2.0)
        let inks = shots.map { ink($0, background: background, tolerance: 48) }
        #expect(inks[0] == 0)
        // The codec's noise may move a pixel or two across the line between frames.
        for i in 1..<inks.count { #expect(inks[i] + 50 >= inks[i - 1], "frame \(i + 1) lost ink: \(inks)") }
        #expect(inks[14] > inks[5] && inks[29] > inks[14], "\(inks)")
    }

    @Test func aLongPauseIsSqueezed() throws {
        let dir = try temporaryFolder()
        let replay = dir + "/pause.jsonl"
        func stroke(_ y: Int, at t: Double) -> [String] {
            ["{\"t\": \(t), \"type\": \"down\", \"x\": 10, \"y\": \(y)}"]
                + (1...30).map { "{\"t\": \(t + Double($0) / 60), \"type\": \"move\", \"x\": \(10 + 3 * $0), \"y\": \(y)}" }
                + ["{\"t\": \(t + 0.5), \"type\": \"up\", \"x\": 100, \"y\": \(y)}"]
        }
        let lines = ["{\"quicksilver\": 1, \"width\": 120, \"height\": 80}", "{\"t\": 0, \"type\": \"brush\", \"size\": 4, \"color\": \"#000000\"}"]
            + stroke(20, at: 0) + stroke(60, at: 600)
        try (lines.joined(separator: "\n") + "\n").write(toFile: replay, atomically: true, encoding: .utf8)
        let r = try runProgram(binary, ["timelapse", replay, "-o", dir + "/frames/", "--speed", "1", "--fps", "10"])
        #expect(r.status == 0, "\(r.stderr)")
        let shots = try frames(in: dir + "/frames")
        // Two half-second strokes and ten minutes between them: about 1.5 s of drawing, then the
        // hold; in real time the pause alone would be 6,000 frames.
        #expect((20...30).contains(shots.count), "\(shots.count) frames")
        // The pause is still there, briefly: frames with the first stroke done and none of the second.
        let between = shots.filter { $0[100, 20] != 0xFFFF_FFFF && $0[10, 60] == 0xFFFF_FFFF }
        #expect(between.count >= 2)
        let final = try render(replay, in: dir)
        #expect(shots.last == final)
    }

    /// A session whose frame is fitted to the ink at the end: every picture shows that frame
    /// (the ink's box), the last one as `render` draws it.
    @Test func aFittedFrameIsTheFrameOfEveryPicture() throws {
        let dir = try temporaryFolder()
        let replay = dir + "/fit.jsonl"
        let lines = ["{\"quicksilver\": 1, \"width\": 120, \"height\": 80}", "{\"t\": 0, \"type\": \"brush\", \"size\": 4}",
                     "{\"t\": 0, \"type\": \"down\", \"x\": -30, \"y\": -20}", "{\"t\": 0.5, \"type\": \"move\", \"x\": 60, \"y\": 40}",
                     "{\"t\": 1, \"type\": \"up\", \"x\": 170, \"y\": 110}", "{\"t\": 1.5, \"type\": \"frame\", \"action\": \"fit\"}"]
        try (lines.joined(separator: "\n") + "\n").write(toFile: replay, atomically: true, encoding: .utf8)
        let r = try runProgram(binary, ["timelapse", replay, "-o", dir + "/frames/", "--seconds", "1", "--fps", "5"])
        #expect(r.status == 0, "\(r.stderr)")
        let shots = try frames(in: dir + "/frames"), final = try render(replay, in: dir)
        #expect(final.width > 200 && final.height > 130, "\(final.width)x\(final.height)")
        #expect(shots.allSatisfy { $0.width == final.width && $0.height == final.height })
        #expect(shots.last == final)
    }

    /// Picturing the session mid-play (while strokes are embossed off the frame loop) changes
    /// nothing: the mercurial replay still ends as `render` draws it.
    @Test func theMercurialReplayEndsAsRenderDrawsIt() throws {
        let dir = try temporaryFolder()
        let mercurial = packageRoot.appendingPathComponent("Resources/mercurial.jsonl").path
        let r = try runProgram(binary, ["timelapse", mercurial, "-o", dir + "/frames/", "--seconds", "2", "--fps", "5"])
        #expect(r.status == 0, "\(r.stderr)")
        let shots = try frames(in: dir + "/frames")
        try #require(shots.count == 10)
        let final = try render(mercurial, in: dir)
        #expect(shots[9] == final)
        #expect(Set(shots.map(\.pixels)).count >= 6, "the frames move through the drawing")
    }

    /// A session that opened a picture starts from it, not from a blank canvas.
    @Test func aSessionThatOpenedAPictureStartsFromIt() throws {
        let dir = try temporaryFolder()
        var pixels: [UInt32] = []
        for y in 0..<48 {
            for x in 0..<64 {
                let r = UInt32(x * 4), g = UInt32(y * 5)
                pixels.append(0xFF00_0080 | r << 16 | g << 8)
            }
        }
        let picture = PNGImage(width: 64, height: 48, pixels: pixels)
        try picture.write(to: dir + "/opening.png")
        let header = "{\"quicksilver\": 1, \"width\": 64, \"height\": 48, \"snapshot\": \"opening.png\"}"
        let replay = dir + "/s.jsonl", opening = dir + "/o.jsonl"
        var lines = [header, "{\"t\": 0, \"type\": \"brush\", \"size\": 3, \"color\": \"#ffffff\"}"]
        for i in 0...20 {
            let type = i == 0 ? "down" : i == 20 ? "up" : "move"
            lines.append("{\"t\": \(Double(i) / 30), \"type\": \"\(type)\", \"x\": \(10 + 2 * i), \"y\": 24}")
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: replay, atomically: true, encoding: .utf8)
        try (header + "\n").write(toFile: opening, atomically: true, encoding: .utf8)
        let r = try runProgram(binary, ["timelapse", replay, "-o", dir + "/frames/", "--seconds", "1", "--fps", "10"])
        #expect(r.status == 0, "\(r.stderr)")
        let shots = try frames(in: dir + "/frames")
        try #require(shots.count == 10)
        let start = try render(opening, in: dir)
        #expect(shots[0] == start)
        #expect(shots[0][30, 24] == picture[30, 24])
        let final = try render(replay, in: dir)
        #expect(shots[9] == final && final != start)
    }

    @Test func withoutFFmpegItSaysWhichPackageAndWritesNothing() throws {
        let dir = try temporaryFolder()
        let r = try runProgram(binary, ["timelapse", demo, "-o", dir + "/out.mp4"], environment: ["PATH": dir])
        #expect(r.status == 1)
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.count == 1 && r.stderr.contains("ffmpeg") && r.stderr.contains("Debian package ffmpeg"), "\(r.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }

    @Test func aBadSessionNamesTheLineAndWritesNothing() throws {
        let dir = try temporaryFolder()
        let replay = dir + "/bad.jsonl"
        try "{\"quicksilver\": 1, \"width\": 50, \"height\": 50}\n{\"t\": 0, \"type\": \"down\", \"x\": 1}\n"
            .write(toFile: replay, atomically: true, encoding: .utf8)
        let r = try runProgram(binary, ["timelapse", replay, "-o", dir + "/frames/"])
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix(replay + ":2: ") && r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["bad.jsonl"])
    }

    @Test func outputsItCannotMakeAreSaidInOneLineAndNothingIsWritten() throws {
        let dir = try temporaryFolder()
        try FileManager.default.createDirectory(atPath: dir + "/full", withIntermediateDirectories: false)
        try Data().write(to: URL(fileURLWithPath: dir + "/full/keep.txt"))
        let cases: [([String], String)] = [
            (["-o", dir + "/out.gif"], "say .mp4"),
            (["-o", dir + "/odd.mp4", "--size", "641x480"], "sides must be even"),
            (["-o", dir + "/missing/out.mp4"], "not a writable folder"),
            (["-o", dir + "/full/"], "not empty"),
        ]
        for (args, said) in cases {
            let r = try runProgram(binary, ["timelapse", demo, "--seconds", "1", "--fps", "5"] + args)
            #expect(r.status == 1, "\(args)")
            #expect(r.stderr.split(separator: "\n").count == 1 && r.stderr.contains(said), "\(args): \(r.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["full"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/full") == ["keep.txt"])
    }

    @Test func sizeFitsTheCanvasCentredOnBlack() throws {
        let dir = try temporaryFolder()
        let r = try runProgram(binary, ["timelapse", demo, "-o", dir + "/frames/", "--seconds", "0.5", "--fps", "4", "--size", "480x480"])
        #expect(r.status == 0, "\(r.stderr)")
        let shots = try frames(in: dir + "/frames")
        try #require(!shots.isEmpty)
        let last = shots[shots.count - 1]
        #expect(last.width == 480 && last.height == 480)
        // 960x540 fits as 480x270, 105 rows of black above and below.
        #expect(last[240, 50] == 0xFF00_0000 && last[240, 430] == 0xFF00_0000)
        #expect(last[5, 240] != 0xFF00_0000)
    }

    /// SIGTERM, SIGINT or SIGHUP mid-timelapse: one line, the signal's exit status, and nothing
    /// left behind: no partial video or folder of frames, no log in $TMPDIR (ffmpeg's stderr is a
    /// file with no name), and the ffmpeg it started is gone.
    @Test(arguments: [(SIGTERM, "SIGTERM", "video.mp4"), (SIGINT, "SIGINT", "frames/"), (SIGHUP, "SIGHUP", "video.webm")])
    func aSignalLeavesNothingBehind(signal: Int32, name: String, output: String) throws {
        let dir = try temporaryFolder(), tmp = try temporaryFolder()
        // Long enough to be stopped in the middle: a minute of frames at 240 fps.
        let p = try Launched(binary, ["timelapse", demo, "-o", dir + "/" + output, "--seconds", "60", "--fps", "240"],
                             environment: ["TMPDIR": tmp])
        let started = eventually(timeout: 60) { (try? FileManager.default.contentsOfDirectory(atPath: dir))?.contains { $0.contains(".partial-") } == true }
        try #require(started, "the output's partial file appears: \(p.stderr)")
        usleep(200_000)
        kill(p.pid, signal)
        let r = p.wait()
        #expect(r.status == 128 + signal, "\(r.stderr)")
        #expect(r.stderr == "quicksilver: timelapse stopped by \(name): \(dir)/\(output) not written\n", "\(r.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty, "nothing left in the output's folder")
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp).isEmpty, "nothing left in TMPDIR")
    }
}
