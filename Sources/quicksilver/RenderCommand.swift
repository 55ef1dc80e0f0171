import ArgumentParser
import Compute
import Journal
import Paint
import PNGFile

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

    @Option(parsing: .unconditional, help: "Worker threads for the compute pass (1…1024; default: all cores). The output is the same for any count.")
    var threads: Int?

    func validate() throws {
        try OptionRanges.threads.check(threads)
        if !DocumentFile.isOpenRaster(output) && !output.lowercased().hasSuffix(".png") {
            throw ValidationError("-o \(output): render writes a PNG (.png) or an OpenRaster document (.ora)")
        }
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
        let shot = session.snapshot()
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
