import Foundation
import Geometry

/// A video file made by ffmpeg from raw frames piped to it (BGRA, as the canvas is in memory):
/// no frame touches the disk on the way. ffmpeg writes a temporary file beside the output,
/// renamed into place when it has finished well.
final class VideoEncoder: FrameSink {
    /// The containers and codecs by the output's extension: H.264 for the ones that take it.
    static let formats: [String: (muxer: String, codec: [String])] = [
        "mp4": ("mp4", ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-movflags", "+faststart"]),
        "m4v": ("mp4", ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-movflags", "+faststart"]),
        "mov": ("mov", ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-movflags", "+faststart"]),
        "mkv": ("matroska", ["-c:v", "libx264", "-pix_fmt", "yuv420p"]),
        "webm": ("webm", ["-c:v", "libvpx-vp9", "-pix_fmt", "yuv420p", "-b:v", "0", "-crf", "32"]),
    ]

    /// The extension of `path` when it names a video this encoder makes.
    static func format(of path: String) -> String? {
        let ext = (path as NSString).pathExtension.lowercased()
        return formats[ext] == nil ? nil : ext
    }

    private let output: String
    private let temporary: String
    private let frameBytes: Int
    private var encoder: ChildProcess?

    /// Starts ffmpeg (found on $PATH) for `size` frames at `fps` into `output`.
    init(output: String, size: Size, fps: Double) throws(TimelapseError) {
        guard let ext = Self.format(of: output), let format = Self.formats[ext] else {
            throw TimelapseError("\(output): say .mp4, .mkv, .mov or .webm for a video, or end the name with / for a folder of PNG frames")
        }
        guard let ffmpeg = ChildProcess.find("ffmpeg") else {
            throw TimelapseError("quicksilver: ffmpeg is not on PATH; it encodes the video (Debian package ffmpeg: sudo apt-get install ffmpeg)")
        }
        self.output = output
        let folder = (output as NSString).deletingLastPathComponent
        let name = (output as NSString).lastPathComponent
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.isEmpty ? "." : folder, isDirectory: &isFolder), isFolder.boolValue,
              access(folder.isEmpty ? "." : folder, W_OK) == 0 else {
            throw TimelapseError("quicksilver: cannot write \(output): \(folder) is not a writable folder")
        }
        temporary = (folder.isEmpty ? "." : folder) + "/.\(name).partial-\(getpid())"
        frameBytes = size.area * 4
        let args = ["-hide_banner", "-loglevel", "error", "-y",
                    "-f", "rawvideo", "-pix_fmt", "bgra", "-video_size", "\(size.width)x\(size.height)",
                    "-framerate", Self.rate(fps), "-i", "pipe:0", "-an"]
            + format.codec + ["-f", format.muxer, temporary]
        do {
            encoder = try ChildProcess(ffmpeg, args)
        } catch {
            throw TimelapseError("quicksilver: \(error)")
        }
    }

    /// A frame rate as ffmpeg reads it: the number itself, exact for whole ones.
    private static func rate(_ fps: Double) -> String {
        fps == fps.rounded() ? String(Int(fps)) : String(fps)
    }

    func write(_ frame: [UInt32]) throws(TimelapseError) {
        guard let encoder else { throw TimelapseError("quicksilver: the encoder has finished") }
        precondition(frame.count * 4 == frameBytes, "frame size")
        do {
            try encoder.write(frame)
        } catch {
            throw failed(encoder)
        }
    }

    func finish() throws(TimelapseError) {
        guard let encoder else { return }
        guard encoder.finish() == 0 else { throw failed(encoder) }
        self.encoder = nil
        guard rename(temporary, output) == 0 else {
            let why = String(cString: strerror(errno))
            unlink(temporary)
            throw TimelapseError("quicksilver: cannot write \(output): \(why)")
        }
    }

    /// ffmpeg failed: what it said, and nothing left behind.
    private func failed(_ encoder: ChildProcess) -> TimelapseError {
        let status = encoder.finish()
        let said = encoder.lastErrorLine
        self.encoder = nil
        unlink(temporary)
        return TimelapseError("quicksilver: ffmpeg failed (exit status \(status))\(said.isEmpty ? "" : ": \(said)")")
    }

    func abandon() {
        guard let encoder else { return }
        self.encoder = nil
        encoder.stop()
        unlink(temporary)
    }

    deinit { abandon() }
}
