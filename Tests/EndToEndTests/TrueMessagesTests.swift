import Foundation
import PNGFile
import Testing

/// Files given where they do not belong, each told as what it is in one line (issue 27 item 8),
/// where the program once said something true of another file: a picture given to render was
/// "expected a value, found 'P'", a FIFO given to the window "empty file: not a PNG picture", a
/// 16384x16384 timelapse "ffmpeg failed: pipe:0: Invalid argument".
@Suite struct TrueMessagesTests {
    /// A replay of one short stroke on a canvas of `side`.
    private func replay(side: Int, in dir: String) throws -> String {
        let path = dir + "/r.jsonl"
        try """
        {"quicksilver": 1, "width": \(side), "height": \(side)}
        {"t": 0, "type": "down", "x": 10, "y": 20}
        {"t": 0.5, "type": "up", "x": 50, "y": 20}

        """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private func oneLine(_ r: Finished) -> String? {
        r.stderr.hasSuffix("\n") && r.stderr.filter { $0 == "\n" }.count == 1 ? String(r.stderr.dropLast()) : nil
    }

    @Test func aPictureOrADocumentGivenAsAReplayIsSaidToBeOne() throws {
        let dir = try temporaryFolder()
        let made = try runProgram(binary, ["render", try replay(side: 64, in: dir), "-o", dir + "/good.ora"])
        try #require(made.status == 0, "\(made.stderr)")
        try #require(runProgram(binary, ["render", dir + "/r.jsonl", "-o", dir + "/good.png"]).status == 0)
        let outputs = Set(try FileManager.default.contentsOfDirectory(atPath: dir))

        let ora = try runProgram(binary, ["render", dir + "/good.ora", "-o", dir + "/out.png"])
        #expect(ora.status == 2)
        #expect(oneLine(ora) == dir + "/good.ora: an OpenRaster document, not a replay: render plays a replay or session journal "
                + "(.jsonl, JSON Lines); quicksilver window \(dir)/good.ora opens a document to paint on", "\(ora.stderr)")
        let png = try runProgram(binary, ["timelapse", dir + "/good.png", "-o", dir + "/out.mp4"])
        #expect(png.status == 2)
        #expect(oneLine(png) == dir + "/good.png: a PNG picture, not a replay: timelapse plays a replay or session journal "
                + "(.jsonl, JSON Lines); quicksilver window \(dir)/good.png opens a picture to paint on", "\(png.stderr)")
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: dir)) == outputs, "nothing written")
    }

    @Test func aFIFONamedAsASessionIsSaidToBeOne() throws {
        let dir = try temporaryFolder()
        let fifo = dir + "/fifo.jsonl"
        try #require(mkfifo(fifo, 0o600) == 0)
        // No writer ever comes: the window must say what the file is without reading it.
        let r = try runProgram(binary, ["window", fifo], environment: ["DISPLAY": ":9999"])
        #expect(r.status != 0)
        #expect(oneLine(r) == fifo + ": a FIFO or pipe, not a regular file: the window continues a session or replay from a file, "
                + "beside the pictures it names (quicksilver render plays one from a pipe)", "\(r.stderr)")
    }

    /// ffmpeg takes no frame of (width + 128) × (height + 128) ≥ 2³¹ / 8 pixels: said before
    /// ffmpeg starts, with the largest frame of that shape that fits.
    @Test func aFrameTooLargeForTheCodecIsSaidWithWhatFits() throws {
        let dir = try temporaryFolder()
        let session = try replay(side: 16384, in: dir)
        for ext in ["mp4", "webm"] {
            let r = try runProgram(binary, ["timelapse", session, "-o", dir + "/out." + ext])
            #expect(r.status == 1)
            #expect(oneLine(r) == "quicksilver: a 16384x16384 frame is too large for ffmpeg to encode: it takes frames of (width + 128) × "
                    + "(height + 128) under 268435455 pixels (16254x16254, 16384x16124); 16254x16254 fits this shape (--size), "
                    + "or end the output with / for PNG frames", "\(r.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["r.jsonl"], "nothing written")
    }
}

/// What a small hostile document costs to open, measured: the 774-byte .ora of issue 27 (10,000
/// layers naming one PNG, on a 16384x16384 canvas), played as a replay's snapshot by `render`,
/// whose peak resident memory (wait4's ru_maxrss) is read. Before `DocumentLimits` it took 8 GB.
@Suite struct DocumentBudgetTests {
    /// An .ora of `count` layers on a `side`² canvas, every one naming the same 1x1 transparent
    /// PNG, built by Python's zipfile (not the code under test); and a replay opening it.
    private func document(side: Int, layers count: Int, in dir: String) throws -> (ora: String, replay: String) {
        let ora = dir + "/many.ora", replay = dir + "/many.jsonl"
        let script = """
        import sys, zipfile, zlib, struct
        def chunk(k, d): return struct.pack(">I", len(d)) + k + d + struct.pack(">I", zlib.crc32(k + d))
        png = b"\\x89PNG\\r\\n\\x1a\\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 6, 0, 0, 0)) \\
            + chunk(b"IDAT", zlib.compress(b"\\0\\0\\0\\0\\0")) + chunk(b"IEND", b"")
        side, count = int(sys.argv[2]), int(sys.argv[3])
        stack = '<image w="%d" h="%d"><stack>\\n' % (side, side) + '<layer src="a.png"/>\\n' * count + '</stack></image>\\n'
        with zipfile.ZipFile(sys.argv[1], "w") as z:
            z.writestr(zipfile.ZipInfo("mimetype"), "image/openraster")
            z.writestr("stack.xml", stack, compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)
            z.writestr("a.png", png)
        """
        let made = try runProgram("/usr/bin/env", ["python3", "-c", script, ora, "\(side)", "\(count)"])
        try #require(made.status == 0, "\(made.stderr)")
        try "{\"quicksilver\": 1, \"width\": 64, \"height\": 64, \"snapshot\": \"many.ora\"}\n"
            .write(toFile: replay, atomically: true, encoding: .utf8)
        return (ora, replay)
    }

    @Test func tenThousandEmptyLayersAreRefusedWithinTheBudget() throws {
        let dir = try temporaryFolder()
        let (ora, replay) = try document(side: 16384, layers: 10_000, in: dir)
        #expect(try FileManager.default.attributesOfItem(atPath: ora)[.size] as? Int ?? .max < 1100, "a file of about 774 bytes")
        let r = try runMeasuringMemory(binary, ["render", replay, "-o", dir + "/out.png"])
        #expect(r.status == 2)
        // Layer 4098 (4096 and the background this program saves) is on line 4099, after <image><stack>.
        #expect(r.stderr == replay + ":1: cannot read the snapshot \"many.ora\": stack.xml:4099: more layers than the 4096 "
                + "a document may hold\n", "\(r.stderr)")
        // The program itself and its libraries take about 30 MiB; the file is refused as its
        // stack.xml is read, before a layer is made.
        #expect(r.peakRSS > 0 && r.peakRSS < 256 << 20, "peak RSS \(r.peakRSS >> 20) MiB")
        #expect(!FileManager.default.fileExists(atPath: dir + "/out.png"))
    }

    /// As many layers as a document may hold, empty, on a 2048x2048 canvas: 64 GiB were each a
    /// whole canvas of pixels; opened and rendered in well under 1 GiB (the canvas's own
    /// pixels, the PNG written, and the program).
    @Test func theMostLayersADocumentMayHoldCostAlmostNothingEmpty() throws {
        let dir = try temporaryFolder()
        let (_, replay) = try document(side: 2048, layers: 4096, in: dir)
        let r = try runMeasuringMemory(binary, ["render", replay, "-o", dir + "/out.png"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.peakRSS > 0 && r.peakRSS < 1 << 30, "peak RSS \(r.peakRSS >> 20) MiB")
        let out = try PNGImage.read(from: dir + "/out.png")
        #expect(out.width == 2048 && out.height == 2048 && out.pixels.allSatisfy { $0 == 0xFFFF_FFFF }, "the white background")
    }

    /// /dev/zero never ends: given as a picture, directly or by a link named like one, it is
    /// refused from its first bytes (it once read 2 GiB before it was refused).
    @Test func aDeviceThatNeverEndsIsRefusedFromItsFirstBytes() throws {
        let dir = try temporaryFolder()
        try FileManager.default.createSymbolicLink(atPath: dir + "/zero.png", withDestinationPath: "/dev/zero")
        try FileManager.default.createSymbolicLink(atPath: dir + "/zero.ora", withDestinationPath: "/dev/zero")
        for (path, message) in [("/dev/zero", "not a PNG file"), (dir + "/zero.png", "not a PNG file"),
                                (dir + "/zero.ora", "not an OpenRaster file: not a zip archive")] {
            let r = try runMeasuringMemory(binary, ["window", path], environment: ["DISPLAY": ":9999"])
            #expect(r.status == 2 && r.stderr == path + ": " + message + "\n", "\(r.stderr)")
            #expect(r.peakRSS > 0 && r.peakRSS < 256 << 20, "\(path): peak RSS \(r.peakRSS >> 20) MiB")
        }
    }
}

