import ArgumentParser
import Compute
import Kernels
import Paint
import PNGFile
import X11Window

/// `quicksilver` (or `quicksilver window`): opens the paint window.
struct WindowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "window",
        abstract: "Open the paint window (the default).",
        discussion: KeyMap.help
    )

    @Option(help: "X display to open (default: $DISPLAY).")
    var display: String?

    @Option(help: "Window size, WxH.")
    var size: WindowSize = WindowSize(Size(width: 1280, height: 720))

    @Option(help: "Background colour, #rrggbb.")
    var background: String = "#ffffff"

    @Option(help: "Record the session to this replay file (render it with `quicksilver render`).")
    var record: String?

    @Option(help: "Folder for Ctrl+S screenshots (default: the XDG pictures folder, ~/Pictures, or the current folder).")
    var exportDir: String?

    @Flag(help: "Print frame and latency statistics on exit.")
    var stats = false

    @Option(help: "Worker threads for the compute pass (default: all cores).")
    var threads: Int?

    func validate() throws {
        if Color(hex: background) == nil || background.utf8.count != 7 { throw ValidationError("--background must be #rrggbb") }
        if let threads, threads < 1 { throw ValidationError("--threads must be at least 1") }
    }

    func run() throws {
        let background = Color(hex: background) ?? .white
        let window: X11Window
        do { window = try X11Window(display: display, size: size.size, title: "Quicksilver") } catch {
            printError("quicksilver: \(error)")
            throw Exit.failure
        }
        var recorder: LineWriter?
        if let record {
            do {
                let writer = try LineWriter(creating: record)
                writer.append(Replay.line(for: Replay.Header(size: window.size, background: background)))
                recorder = writer
            } catch {
                printError("quicksilver: cannot record to \(error)")
                throw Exit.failure
            }
        }
        let session = Session(size: window.size, background: background, compute: ComputeContext(threads: threads))
        let app = WindowApp(window: window, session: session, recorder: recorder,
                            exporter: Exporter(folder: exportDir), collectStats: stats)
        let loop = FrameLoop(hz: 60, fds: [window.connectionFileDescriptor])
        loop.run(app)
        app.finish(loop)
        window.close()
    }
}

/// `WxH`, as an argument.
struct WindowSize: ExpressibleByArgument {
    let size: Size
    init(_ size: Size) { self.size = size }
    init?(argument: String) {
        let parts = argument.split(separator: "x")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]),
              Replay.Header.sizes.contains(w), Replay.Header.sizes.contains(h) else { return nil }
        size = Size(width: w, height: h)
    }
    var defaultValueDescription: String { size.description }
}
