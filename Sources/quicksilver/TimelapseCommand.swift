import ArgumentParser
import Clock
import Compute
import Foundation
import Geometry
import Journal
import Paint

/// `quicksilver timelapse SESSION.jsonl -o OUT.mp4`: a video of a session being drawn, made
/// after the fact from its journal (nothing is captured while drawing). The file is played
/// twice through the one player, `Playback`: first to learn when it draws, then to picture it at
/// the frames the `TimelapsePlan` spreads over its drawing time; the last picture is the
/// session's final canvas, exactly what `render` writes.
struct TimelapseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timelapse",
        abstract: "Make a timelapse video of a recorded session or journal, from its opening canvas to its final one.",
        discussion: """
            The frames are spread evenly over the session's drawing time (a pause counts for at most half a second), \
            then the result is held for a second (a fifth of a shorter video). Frames are piped to ffmpeg (Debian package ffmpeg), never written \
            to disk in between: H.264 in .mp4, .mkv or .mov, VP9 in .webm. An output ending in / is a folder of \
            numbered PNG frames instead (ffmpeg is then not needed). By default the video lasts 30 seconds, or the \
            drawing's own time when that is shorter.
            """
    )

    @Argument(help: "The session journal or replay file (.jsonl).")
    var session: String

    @Option(name: .shortAndLong, help: "Where to write: OUT.mp4 (or .mkv, .mov, .webm), or DIR/ for PNG frames. Written whole or not at all.")
    var output: String

    // `.unconditional`: "--fps -5" is a value to refuse by its range, not a missing one.
    @Option(parsing: .unconditional, help: "The video's length in seconds, the final hold included (0.1…86400).")
    var seconds: Double?

    @Option(parsing: .unconditional, help: "Play the drawing this many times faster than it was drawn (0.000001…1000000; the video may last at most 86400 s).")
    var speed: Double?

    @Option(parsing: .unconditional, help: "Frames per second (1…240).")
    var fps: Double = 30

    @Option(help: "The frame size, WxH: the canvas scaled to fit, centred on black (default: the canvas's size, made even for video).")
    var size: WindowSize?

    @Option(parsing: .unconditional, help: "Worker threads for the compute pass (1…1024; default: all cores). The frames are the same for any count.")
    var threads: Int?

    /// The longest video made: a day.
    static let longestSeconds = 86_400.0

    func validate() throws {
        if seconds != nil && speed != nil { throw ValidationError("give --seconds or --speed, not both") }
        try OptionRange("--seconds", 0.1...Self.longestSeconds).check(seconds)
        try OptionRanges.speed.check(speed)
        try OptionRange("--fps", 1...240.0).check(fps)
        try OptionRanges.threads.check(threads)
    }

    func run() throws {
        // Before any thread starts (they inherit the mask): SIGTERM, SIGINT and SIGHUP wait in a
        // descriptor, read between frames, so the output is given up cleanly, never half-made.
        let signals = SignalFD()
        var sink: FrameSink?
        /// A signal that came: the output given up, one line said, the process ended.
        func stopIfSignalled() {
            guard let signal = signals.take() else { return }
            sink?.abandon()
            let name = [SIGTERM: "SIGTERM", SIGINT: "SIGINT", SIGHUP: "SIGHUP"][signal] ?? "signal \(signal)"
            printError("quicksilver: timelapse stopped by \(name): \(output) not written")
            Foundation.exit(128 + signal)
        }
        if let refusal = NotAReplay.refusal(session, command: "timelapse") {
            printError(refusal)
            throw Exit.badInput
        }
        let compute = ComputeContext(threads: threads)
        let toFolder = output.hasSuffix("/")
        if !toFolder && VideoEncoder.format(of: output) == nil {
            printError("\(output): say .mp4, .mkv, .mov or .webm for a video, or end the name with / for a folder of PNG frames")
            throw Exit.failure
        }
        // 4:2:0 video halves the colour planes: its sides must be even.
        if !toFolder, let size, size.size.width % 2 != 0 || size.size.height % 2 != 0 {
            printError("quicksilver: --size \(size.size.width)x\(size.size.height): a video's sides must be even")
            throw Exit.failure
        }
        /// The frames' size for a canvas of `canvas`.
        func sizeOfFrames(for canvas: Size) -> Size {
            size?.size ?? (toFolder ? canvas : Size(width: (canvas.width + 1) & ~1, height: (canvas.height + 1) & ~1))
        }
        // First pass: which frames draw, and the frame the session ends with.
        var played: [Int] = []
        func refuseTooLarge(_ canvas: Size) {
            if !toFolder, let ext = VideoEncoder.format(of: output), let refusal = VideoEncoder.refusal(of: sizeOfFrames(for: canvas), format: ext) {
                printError(refusal)
                Foundation.exit(Exit.failure.rawValue)
            }
        }
        let end = try play(compute) { moment, session in
            stopIfSignalled()
            switch moment {
            // Frames too large for the video are said at once, not after a whole playing.
            case .opening: refuseTooLarge(session.document.frame.size)
            case .frame(let f): played.append(f)
            }
        }
        // Every picture shows the frame the session ends with (what `render` writes), wherever
        // the frame was before it was fitted or moved.
        let shown = end.document.frame, canvas = shown.size
        refuseTooLarge(canvas)
        let length: TimelapsePlan.Length = seconds.map { .seconds($0) } ?? speed.map { .speed($0) } ?? .automatic
        if let speed, case let drawing = TimelapsePlan.drawingSeconds(playedFrames: played), drawing / speed > Self.longestSeconds {
            // The least speed that fits, rounded up to two significant digits.
            let least = drawing / Self.longestSeconds, unit = pow(10, (log10(least)).rounded(.down) - 1)
            printError("quicksilver: --speed \(OptionRange<Double>.text(speed)) makes a video of \(Int(drawing / speed)) s of this "
                + "\(Int(drawing.rounded(.up))) s drawing, and one may last \(Int(Self.longestSeconds)) s: --speed must be at least "
                + OptionRange<Double>.text((least / unit).rounded(.up) * unit))
            throw Exit.failure
        }
        let plan = TimelapsePlan(playedFrames: played, length: length, fps: fps)
        let frameSize = sizeOfFrames(for: canvas)
        let scaler = FrameScaler(canvas: canvas, output: frameSize)

        let made: FrameSink
        do throws(TimelapseError) {
            made = toFolder ? try PNGFrameFolder(folder: output, size: frameSize)
                : try VideoEncoder(output: output, size: frameSize, fps: fps)
        } catch {
            printError(error.description)
            throw Exit.failure
        }
        sink = made
        let progress = ProgressBar("timelapse", total: plan.totalFrames)
        var written = 0
        var failure: TimelapseError?
        /// Writes frames until `count` are written, all showing the session as it is now.
        func catchUp(to count: Int, _ session: Session) {
            stopIfSignalled()
            guard failure == nil, written < count else { return }
            // A finished stroke's emboss is in its frame however long it took to compute.
            session.settle()
            let frame = scaler.frame(session.snapshot(of: shown).pixels)
            do {
                while written < count {
                    stopIfSignalled()
                    try made.write(frame)
                    written += 1
                    progress.update(written)
                }
            } catch {
                failure = error
            }
        }
        // Second pass: the pictures. The last is taken once the file has been played, as `render` takes it.
        var index = 0
        let final = try play(compute) { moment, session in
            switch moment {
            case .opening: catchUp(to: plan.framesBefore(played: 0), session)
            case .frame:
                index += 1
                if index < played.count { catchUp(to: plan.framesBefore(played: index), session) }
            }
        }
        catchUp(to: plan.totalFrames, final)
        progress.finish()
        stopIfSignalled()
        do throws(TimelapseError) {
            if let failure { throw failure }
            try made.finish()
        } catch {
            printError(error.description)
            throw Exit.failure
        }
    }

    /// Plays the session file through `Playback`, telling `watch` of each moment; the session at the end.
    private func play(_ compute: ComputeContext, _ watch: @escaping (Playback.Moment, Session) -> Void) throws -> Session {
        do {
            return try Playback.load(session, compute: compute, watch: watch).session
        } catch {
            switch error {
            case .malformed:
                printError(error.description)
                throw Exit.badInput
            case .file:
                printError("quicksilver: \(error)")
                throw Exit.failure
            }
        }
    }
}
