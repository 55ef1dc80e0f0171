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

    /// ffmpeg's limit on a raw frame (libavutil's av_image_check_size): (width + 128) ×
    /// (height + 128) under INT_MAX / 8. Past it ffmpeg says only "pipe:0: Invalid argument".
    /// libx264 has none smaller (16384x16124 encodes); VP9's is its memory (below).
    static let maxPaddedPixels = Int(Int32.max) / 8

    /// What each codec's encoder holds a pixel of frame, measured (peak RSS of ffmpeg over the
    /// frame's pixels): libx264 19 bytes at 8192x8192 and 16384x16124, libvpx-vp9 111 to 116
    /// at 4096x4096 and 6144x6144 (it keeps 25 frames of look-ahead). With room to spare.
    static let encoderBytesPerPixel = ["libx264": 20, "libvpx-vp9": 120]

    /// Why frames of `size` cannot be made into a video of format `ext` (an extension of
    /// `formats`), in one line that says what fits; nil when they can. Said before ffmpeg is
    /// started, which would fail only once the first frame comes.
    static func refusal(of size: Size, format ext: String, availableBytes: Int? = availableMemory()) -> String? {
        let codec = formats[ext]?.codec.drop { $0 != "-c:v" }.dropFirst().first ?? "libx264"
        let name = codec == "libvpx-vp9" ? "VP9 (.\(ext))" : "H.264 (.\(ext))"
        if (size.width + 128) * (size.height + 128) >= maxPaddedPixels {
            // The largest frame of this shape that fits, in even sides.
            let scale = (Double(maxPaddedPixels - 1) / Double((size.width + 128) * (size.height + 128))).squareRoot()
            let fits = Size(width: Int(Double(size.width + 128) * scale - 128) & ~1, height: Int(Double(size.height + 128) * scale - 128) & ~1)
            return "quicksilver: a \(size.width)x\(size.height) frame is too large for ffmpeg to encode: it takes frames of "
                + "(width + 128) × (height + 128) under \(maxPaddedPixels) pixels (16254x16254, 16384x16124); "
                + "\(fits.width)x\(fits.height) fits this shape (--size), or end the output with / for PNG frames"
        }
        if let availableBytes, let perPixel = encoderBytesPerPixel[codec], size.area * perPixel > availableBytes {
            let side = Int((Double(availableBytes / perPixel)).squareRoot()) & ~1
            return "quicksilver: a \(size.width)x\(size.height) frame is too large for \(name) here: its encoder needs about "
                + "\(perPixel) bytes a pixel, \(gib(size.area * perPixel)) GiB, and \(gib(availableBytes)) GiB of memory is available; "
                + "\(side)x\(side) fits (--size)\(codec == "libvpx-vp9" ? ", or H.264 (.mp4) needs a sixth as much" : "")"
        }
        return nil
    }

    private static func gib(_ bytes: Int) -> String { String((Double(bytes) / Double(1 << 30) * 10).rounded() / 10) }

    /// The memory this machine has available (MemAvailable and SwapFree of /proc/meminfo), nil
    /// where it cannot be read.
    static func availableMemory() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8) else { return nil }
        var total = 0, found = false
        for line in text.split(separator: "\n") where line.hasPrefix("MemAvailable:") || line.hasPrefix("SwapFree:") {
            guard let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else { continue }
            total += kilobytes * 1024
            found = true
        }
        return found ? total : nil
    }

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
        if let refusal = Self.refusal(of: size, format: ext) { throw TimelapseError(refusal) }
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
