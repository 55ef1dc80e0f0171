import ArgumentParser
import Compute
import Journal
import Paint
import PNGFile
import ReplayFormat

/// `quicksilver render REPLAY -o OUT.png`: plays a replay through the same session the window
/// runs, on a virtual 60 Hz clock, and writes the final image.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a recorded session (JSON Lines replay) to a PNG or an OpenRaster document, headlessly.",
        discussion: "The replay format is described in docs/journal.md. A malformed replay prints FILE:LINE: what is wrong, exits 2 and writes nothing."
    )

    @Argument(help: "The replay file (.jsonl).")
    var replay: String

    @Option(name: .shortAndLong, help: "Where to write: OUT.png, the picture flattened; OUT.ora, the document with its layers (OpenRaster). Written atomically.")
    var output: String

    @Option(help: "What the PNG shows: frame, the document's frame (the replay's size at 0,0, unless its resize or frame lines move it; the default), or ink, the exact bounding box of all the paint on the shown layers, inside the frame or beyond it (refused when nothing is painted, or when the box is over 16384 px a side). PNG only.")
    var crop: RenderCrop = .frame

    @Option(parsing: .unconditional, help: "Worker threads for the compute pass (1…1024; default: all cores). The output is the same for any count.")
    var threads: Int?

    func validate() throws {
        try OptionRanges.threads.check(threads)
        if !DocumentFile.isOpenRaster(output) && !output.lowercased().hasSuffix(".png") {
            throw ValidationError("-o \(output): render writes a PNG (.png) or an OpenRaster document (.ora)")
        }
        if crop == .ink, DocumentFile.isOpenRaster(output) {
            throw ValidationError("--crop ink writes a PNG: an OpenRaster document keeps its frame and every layer whole")
        }
    }

    /// The command for `arguments` (those after `render`) when they are plain: one replay, and
    /// each of `-o`/`--output`, `--crop` and `--threads` at most once, with its value after it or
    /// after `=`, all of them valid. Nil for anything else (help, `--`, an unknown or repeated
    /// option, a value out of range), which ArgumentParser then reads, with its messages.
    static func plain(_ arguments: [String]) -> RenderCommand? {
        var replay: String?, output: String?, crop: RenderCrop?, threads: Int?
        var i = 0
        while i < arguments.count {
            let argument = arguments[i]
            i += 1
            guard argument.hasPrefix("-") else {
                guard replay == nil else { return nil }
                replay = argument
                continue
            }
            // The option's name and its value, from "--name=value" or the next argument.
            var name = argument, value: String
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                value = String(argument[argument.index(after: equals)...])
            } else {
                guard i < arguments.count else { return nil }
                value = arguments[i]
                i += 1
            }
            // (Only --threads takes a value that looks like an option, as ArgumentParser reads it.)
            switch name {
            case "-o", "--output":
                guard output == nil, !value.hasPrefix("-") else { return nil }
                output = value
            case "--crop":
                guard crop == nil, let c = RenderCrop(rawValue: value) else { return nil }
                crop = c
            case "--threads":
                guard threads == nil, let t = Int(value) else { return nil }
                threads = t
            default: return nil
            }
        }
        guard let replay, let output else { return nil }
        var command = RenderCommand()
        command.replay = replay
        command.output = output
        command.crop = crop ?? .frame
        command.threads = threads
        return (try? command.validate()) == nil ? nil : command
    }

    func run() throws {
        if let refusal = NotAReplay.refusal(replay, command: "render") {
            printError(refusal)
            throw Exit.badInput
        }
        let compute = ComputeContext(threads: threads)
        let session: Session
        // On a terminal, a bar for a file that takes more than a second to play.
        let progress = ProgressBar("render", total: ReplayLength.frames(of: replay) ?? 1, showAfter: 1)
        do {
            session = try Playback.load(replay, compute: compute) { moment, _ in
                if case .frame(let f) = moment { progress.update(f) }
            }.session
            progress.finish()
        } catch {
            progress.finish()
            switch error {
            case .malformed:
                printError(error.description)
                throw Exit.badInput
            case .file:
                printError("quicksilver: \(error)")
                throw Exit.failure
            }
        }
        session.settle()
        let ink = crop == .ink ? session.inkBounds() : nil
        if let ink, ink.isEmpty {
            printError("quicksilver: \(replay): --crop ink: nothing is painted, so there is no ink to crop to")
            throw Exit.failure
        }
        if let ink, !Replay.Header.sizes.contains(ink.width) || !Replay.Header.sizes.contains(ink.height) {
            printError("quicksilver: \(replay): --crop ink: the ink spans \(ink.width)x\(ink.height) px, more than a picture may be "
                       + "(\(Replay.Header.sizes.upperBound) px a side)")
            throw Exit.failure
        }
        if DocumentFile.isOpenRaster(output), let why = session.layersTooLargeToWrite() {
            printError("quicksilver: \(replay): cannot write \(output): \(why)")
            throw Exit.failure
        }
        let shot = ink.map { session.snapshot(of: $0) } ?? session.snapshot()
        let image = PNGImage(width: shot.width, height: shot.height, pixels: shot.pixels)
        do {
            if DocumentFile.isOpenRaster(output) {
                try DocumentFile.write(session.documentImage(), merged: image, to: output)
            } else {
                try image.write(to: output)
            }
        } catch {
            printError("quicksilver: cannot write \(error)")
            throw Exit.failure
        }
    }
}

/// What `render` writes of the canvas.
enum RenderCrop: String, ExpressibleByArgument, CaseIterable {
    /// The document's frame.
    case frame
    /// The exact bounding box of the ink, wherever it is.
    case ink
}
