import Foundation
import PNGFile
import Testing
import TestSupport

/// `quicksilver window FILE.png`: a picture to paint over, never written; bad files refused.
@Suite(.serialized, .enabled(if: canStartXServer, "needs Xvfb and xdotool (make test installs them)"))
struct PictureTests {
    /// A picture with a gradient, a few transparent pixels on its last row.
    private func picture(width: Int, height: Int, at path: String) throws -> PNGImage {
        var pixels: [UInt32] = []
        for y in 0..<height {
            for x in 0..<width {
                let alpha: UInt32 = y == height - 1 && x < 10 ? 0 : 0xFF
                pixels.append(alpha << 24 | UInt32(x * 255 / max(1, width - 1)) << 16 | UInt32(y * 255 / max(1, height - 1)) << 8 | 0x40)
            }
        }
        let image = PNGImage(width: width, height: height, pixels: pixels)
        try image.write(to: path)
        return image
    }

    @Test func aPictureIsTheCanvasAndIsNeverWritten() throws {
        let x = try XServer()
        let dir = try temporaryFolder()
        let path = dir + "/shot.png"
        let original = try picture(width: 360, height: 240, at: path)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let w = try PaintWindow(on: x, extraArgs: [path, "--record", dir + "/session.jsonl"])
        let opened = try w.screenshot().image
        #expect(opened.width == 360 && opened.height == 240)
        // Opaque pixels as they are; transparent ones are bare canvas: the white background.
        #expect(opened[100, 100] == original[100, 100] && opened[3, 239] == 0xFFFF_FFFF)
        try w.drag(PaintWindow.line(from: (20, 120), to: (340, 120)))
        let annotated = try w.screenshot().image
        #expect(annotated.ink(180, 120) > 200 && annotated[180, 60] == original[180, 60])
        #expect(try w.grab(width: 360, height: 240) == annotated, "the window is the picture's size")
        // The recording starts from the picture too (flushed when the stroke ended).
        #expect(try runProgram(binary, ["render", dir + "/session.jsonl", "-o", dir + "/recorded.png"]).status == 0)
        #expect(try PNGImage.read(from: dir + "/recorded.png") == annotated)
        // Killed: the next start brings back the picture and the stroke, pixel for pixel.
        kill(w.process.pid, SIGKILL)
        _ = w.process.wait()
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes, "the picture was never written")
        let again = try PaintWindow(on: x, stateDir: w.stateDir)
        #expect(try again.screenshot().image == annotated)
        _ = try again.quit()
        // And the session renders headlessly to the same pixels.
        let session = try sessionFiles(in: w.stateDir)[0]
        #expect(try runProgram(binary, ["render", session, "-o", dir + "/r.png"]).status == 0)
        #expect(try PNGImage.read(from: dir + "/r.png") == annotated)
    }

    /// `cat picture.png | quicksilver window /dev/stdin`: a pipe is read to its end, once.
    @Test func aPictureFromAPipeOpens() throws {
        let x = try XServer()
        let dir = try temporaryFolder()
        let original = try picture(width: 200, height: 120, at: dir + "/p.png")
        // Standard input is a FIFO a thread writes the picture into, as `cat` would a pipe.
        func pipe(_ bytes: [UInt8], name: String) throws -> String {
            let path = dir + "/" + name
            try makeFIFO(path)
            Thread.detachNewThread {
                let fd = open(path, O_WRONLY | O_CLOEXEC)
                writeAll(bytes, to: fd)
                close(fd)
            }
            return path
        }
        let stdin = try pipe(Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/p.png"))), name: "picture")
        let w = try PaintWindow(on: x, extraArgs: ["/dev/stdin"], stdin: stdin)
        let opened = try w.screenshot().image
        #expect(opened.width == 200 && opened.height == 120 && opened[100, 60] == original[100, 60])
        _ = try w.quit()
        // A replay cannot come from a pipe (its pictures are named beside it): said, not hung.
        let replay = try pipe(Array("{\"quicksilver\": 1, \"width\": 8, \"height\": 8}\n".utf8), name: "replay")
        let r = try Launched(binary, ["window", "/dev/stdin"], environment: x.environment, stdin: replay).wait()
        #expect(r.status == 2 && r.stderr == "/dev/stdin: not a PNG file\n", "\(r.stderr)")
    }

    @Test func aPictureLargerThanTheScreenOpensInAWindowThatFitsShownWhole() throws {
        let x = try XServer(width: 800, height: 600)
        let dir = try temporaryFolder()
        _ = try picture(width: 2000, height: 1100, at: dir + "/big.png")
        let w = try PaintWindow(on: x, extraArgs: [dir + "/big.png"])
        #expect(try x.xdotool("getwindowgeometry", w.id).contains("Geometry: 800x600"))
        #expect(try eventually { try x.xdotool("getwindowname", w.id).hasSuffix("— 25 %") }, "the largest zoom out that shows it whole")
        // The title is set before the first frame; until that frame is presented the window
        // shows its background, which is not the desk either: wait for the desk beside the picture.
        var shown = try w.grab(width: 800, height: 600)
        #expect(try eventually { shown = try w.grab(width: 800, height: 600); return shown[501, 100] == deskColour })
        #expect(shown[499, 274] != deskColour && shown[501, 100] == deskColour && shown[100, 276] == deskColour)
        let export = try w.screenshot().image
        #expect(export.width == 2000 && export.height == 1100, "exports are the whole canvas at 100 %")
        _ = try w.quit()
    }

    @Test func aBadFileIsOneLineExitTwoAndNothingWritten() throws {
        let dir = try temporaryFolder()
        let state = try temporaryFolder()
        try Data("not a picture at all".utf8).write(to: URL(fileURLWithPath: dir + "/fake.png"))
        _ = try picture(width: 16385, height: 2, at: dir + "/wide.png")
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0]).write(to: URL(fileURLWithPath: dir + "/cut.png"))
        try Data().write(to: URL(fileURLWithPath: dir + "/empty.png"))
        try FileManager.default.createDirectory(atPath: dir + "/folder.png", withIntermediateDirectories: false)
        try makeFIFO(dir + "/fifo.png")
        let cases: [(String, String)] = [
            ("fake.png", "fake.png: not a PNG file"),
            ("wide.png", "wide.png: 16385x2 pixels is larger than the 16384x16384 limit"),
            ("cut.png", "cut.png: cut off: the data ends before the picture does"),
            ("missing.png", "missing.png: cannot open: No such file or directory"),
            ("empty.png", "empty.png: empty file: not a PNG picture"),
            ("folder.png", "folder.png: is a folder, not a file"),
            // Nothing writes to it: empty at once, where open() used to wait for a writer for good.
            ("fifo.png", "fifo.png: empty file: not a PNG picture"),
        ]
        for (name, message) in cases {
            // No display is needed to refuse a file: it is read before the window opens.
            let r = try runProgram(binary, ["window", dir + "/" + name], environment: ["XDG_STATE_HOME": state, "DISPLAY": ":9999"])
            #expect(r.status == 2, "\(name): \(r.stderr)")
            #expect(r.stderr.hasPrefix(dir + "/" + message) && r.stderr.filter { $0 == "\n" }.count == 1, "\(name): \(r.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: state + "/quicksilver").isEmpty, "nothing written")
    }
}
