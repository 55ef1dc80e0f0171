import ArgumentParser
import Compute
import Paint
import PNGFile

/// `quicksilver render REPLAY -o OUT.png`: plays a replay through the same session the window
/// runs, on a virtual 60 Hz clock, and writes the final image.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a recorded session (JSON Lines replay) to a PNG, headlessly.",
        discussion: "The replay format is described in docs/replay-format.md. A malformed replay prints FILE:LINE: what is wrong, exits 2 and writes nothing."
    )

    @Argument(help: "The replay file (.jsonl).")
    var replay: String

    @Option(name: .shortAndLong, help: "Where to write the PNG (written atomically).")
    var output: String

    @Option(help: "Worker threads for the compute pass (default: all cores). The output is the same for any count.")
    var threads: Int?

    func validate() throws {
        if let threads, threads < 1 { throw ValidationError("--threads must be at least 1") }
    }

    func run() throws {
        let replay = try loadReplay(replay)
        let compute = ComputeContext(threads: threads)
        let session = Session(size: replay.header.size, background: replay.header.background, compute: compute)
        let presenter = OffscreenPresenter(size: replay.header.size)
        ReplayPlayer.play(replay.events, session: session, presenter: presenter)
        let shot = session.snapshot()
        let image = PNGImage(width: shot.width, height: shot.height, pixels: shot.pixels)
        do { try image.write(to: output) } catch {
            printError("quicksilver: cannot write \(error)")
            throw Exit.failure
        }
    }
}

/// Reads and checks a replay file; on any problem prints `FILE:LINE: what` and exits 2
/// (1 when the file cannot be read at all).
func loadReplay(_ path: String) throws -> Replay {
    var parser = ReplayParser()
    do {
        try LineReader.forEachLine(in: path) { line in try parser.feed(line) }
        return try parser.finish()
    } catch let e as ReplayError {
        printError("\(path):\(e.line): \(e.message)")
        throw Exit.badInput
    } catch let e as LineReader.LineTooLong {
        printError("\(path):\(e.line): line longer than \(e.limit) bytes")
        throw Exit.badInput
    } catch let e as FileError {
        printError("quicksilver: \(e)")
        throw Exit.failure
    }
}
