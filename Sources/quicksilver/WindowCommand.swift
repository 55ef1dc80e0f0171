import App
import ArgumentParser
import Brushes
import Clock
import Compute
import Events
import Files
import Foundation
import Geometry
import Journal
import Kernels
import Paint
import PNGFile
import Portal
import ReplayFormat
import UI
import X11Window

/// `quicksilver` (or `quicksilver window`): opens the paint window.
struct WindowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "window",
        abstract: "Open the paint window (the default).",
        discussion: KeyMap.help + "\n" + environmentHelp
    )

    /// What the environment changes, for `--help` and the man page (after the keys with no blank
    /// line: the man page would have an empty input line, which man warns of).
    static let environmentHelp = """
        Environment:
          QUICKSILVER_PORTAL=0  ask for file names (Ctrl+S on a new
                                drawing, Ctrl+Shift+S, Ctrl+O) in the
                                status strip, never through the desktop's
                                file chooser (the XDG desktop portal on
                                the session bus), which is asked first
                                where one answers
        """

    @Argument(help: "A PNG picture or an OpenRaster document (.ora) to edit (Ctrl+S saves it back), or a session or replay file (.jsonl) to continue.")
    var file: String?

    @Option(help: "X display to open (default: $DISPLAY).")
    var display: String?

    @Option(help: "Window size, WxH: the size of a new blank canvas.")
    var size: WindowSize = WindowSize(Size(width: 1280, height: 720))

    @Option(help: "Background colour, #rrggbb.")
    var background: String = "#ffffff"

    @Option(help: "Record the session to this replay file (render it with `quicksilver render`).")
    var record: String?

    @Option(help: "Folder for screenshot exports (Ctrl+Shift+E) and a new document's first save (default: the XDG pictures folder, ~/Pictures, or the current folder).")
    var exportDir: String?

    @Flag(help: "Print frame and latency statistics on exit.")
    var stats = false

    @Flag(help: "Draw pen samples at the next frame instead of as they arrive (the immediate ink path, on by default).")
    var noLowLatency = false

    @Option(parsing: .unconditional, help: "How far ahead the pen's predicted tail reaches, in ms (0…25; 0: none). Shown only: never part of the picture.")
    var predictMs: Double = 16

    @Option(parsing: .unconditional, help: "The on-canvas tools' scale, 1…4 in half steps (default: from Xft.dpi, 96 dpi = 1, 192 = 2). Brush sizes stay in canvas pixels.")
    var uiScale: Double?

    @Flag(help: "Start with the on-canvas tools hidden, as Tab hides them (Tab shows them).")
    var hideTools = false

    @Option(parsing: .unconditional, help: "Worker threads for the compute pass (1…1024; default: all cores).")
    var threads: Int?

    @Option(help: "The sessions folder (default: $XDG_STATE_HOME/quicksilver, i.e. ~/.local/state/quicksilver).")
    var stateDir: String?

    @Option(parsing: .unconditional, help: "Size cap of the sessions folder, in MiB (1…1048576): beyond the newest 20, the oldest sessions that ended cleanly go first.")
    var sessionsMegabytes: Int = 1024

    @Flag(help: "Do not journal this session (a crash then loses it).")
    var noJournal = false

    @Flag(help: "Play the session or replay FILE in the window as it was drawn (pauses squeezed to half a second), then continue it; any key or click jumps to the end.")
    var play = false

    @Option(parsing: .unconditional, help: "With --play: play this many times faster than it was drawn (0.000001…1000000).")
    var speed: Double = 1

    @Flag(help: "Continue the newest session, however it ended.")
    var restore = false

    @Flag(help: "Start with the pulsing background (Image Performer): white → hue → black and back.")
    var pulse = false

    @Option(parsing: .unconditional, help: "Pulse hue, 0…1.")
    var pulseHue: Double = 0

    @Option(parsing: .unconditional, help: "Pulse purity centre, 0…1.")
    var pulseCentre: Double = 0.5

    @Option(parsing: .unconditional, help: "Pulse purity range, 0…1.")
    var pulseRange: Double = 0.7

    @Option(parsing: .unconditional, help: "Memory for undo steps of a new session, in MiB (1…1048576); the oldest steps are dropped beyond it. A continued session keeps its own (its journal says it), so it replays exactly.")
    var undoMegabytes: Int = 256

    @Option(help: "A MyPaint brush to start with: an installed one by name (classic/charcoal, as under mypaint-data/2.0/brushes) or a .myb file.")
    var brush: String?

    @Option(parsing: .unconditional, help: .hidden)
    var journalCompactBytes: Int = 64 << 20

    /// Reads the pointer from core X events even where XInput 2.2 is there (as a server without
    /// it does): for tests of that path.
    @Flag(help: .hidden)
    var coreInput = false

    func validate() throws {
        if Color(hex: background) == nil || background.utf8.count != 7 { throw ValidationError("--background must be #rrggbb") }
        try OptionRanges.threads.check(threads)
        try OptionRange("--undo-megabytes", max(1, Replay.Header.undoMegabyteRange.lowerBound)...Replay.Header.undoMegabyteRange.upperBound)
            .check(undoMegabytes)
        try OptionRange("--sessions-megabytes", 1...(1 << 20)).check(sessionsMegabytes)
        try OptionRange("--predict-ms", 0...25.0).check(predictMs)
        try OptionRange("--journal-compact-bytes", 1...Int.max).check(journalCompactBytes)
        if let uiScale, !(Widgets.scales.contains(uiScale) && (uiScale * 2).rounded() == uiScale * 2) {
            throw ValidationError("--ui-scale must be 1, 1.5, 2, … 4")
        }
        if play && file == nil { throw ValidationError("--play needs a session or replay FILE (.jsonl)") }
        try OptionRanges.speed.check(speed)
        if speed != 1 && !play { throw ValidationError("--speed goes with --play") }
        if restore && file != nil { throw ValidationError("--restore continues the newest session; give it no FILE") }
        for (name, v) in [("--pulse-hue", pulseHue), ("--pulse-centre", pulseCentre), ("--pulse-range", pulseRange)] {
            try OptionRange(name, 0...1.0).check(v)
        }
    }

    func run() throws {
        // First, before any thread exists: signals become a descriptor the frame loop polls.
        // Until it does, a signal ends the start-up at once: nothing has been written yet.
        let signals = SignalFD()
        let startUp = signals.watchDuringStartUp { signal in
            printError("quicksilver: stopped by signal \(signal) while starting; nothing was written")
            Foundation.exit(1)
        }
        ProcessCalls.useOneMallocArena()
        // Before anything is written: a brush that cannot be had stops here.
        var startBrush: MyPaintChoice?
        if let brush {
            switch BrushOption.choice(brush, brushes: InstalledBrushes()) {
            case .success(let choice): startBrush = choice
            case .failure(let why):
                printError("quicksilver: --brush \(brush): \(why.message)")
                throw Exit.badInput
            }
        }
        let background = Color(hex: background) ?? .white
        let compute = ComputeContext(threads: threads)
        let historyBytes = undoMegabytes << 20
        let store = noJournal ? nil : SessionStore(folder: stateDir ?? SessionStore.defaultFolder())
        if let store {
            do { try store.create() } catch {
                printError("quicksilver: \(error)")
                throw Exit.failure
            }
        }
        let started: SessionStart.Started
        do {
            started = try SessionStart.start(file.map { .file($0) } ?? (restore ? .restore : .fresh), store: store,
                                             compute: compute, historyBytes: historyBytes, background: background, playing: play)
        } catch {
            printError(error.description)
            throw Exit.badInput
        }
        if play && started.unplayed == nil {
            printError("quicksilver: \(file ?? ""): --play plays a session or replay file (.jsonl), not a picture")
            throw Exit.badInput
        }
        for note in started.notes { printError(note) }

        let window: X11Window
        do {
            window = try X11Window(display: display, size: started.session?.document.frame.size ?? size.size,
                                   title: "Quicksilver", fittingScreen: started.session != nil, coreInput: coreInput,
                                   icons: AppIcon.windowIcons())
        } catch {
            printError("quicksilver: \(error)")
            throw Exit.failure
        }
        if let restored = started.restored { printError(restored) }
        // The canvas keeps its size (the window's at the start, or the picture's or session's):
        // the window is a view onto it.
        let session = started.session ?? Session(size: window.size, background: background, compute: compute, historyBytes: historyBytes)
        let header = Replay.Header(size: session.document.frame.size, seed: session.seed, background: session.document.background,
                                   undoMegabytes: undoMegabytes)
        // Both files say what the journal and the recording failed to write as soon as it happens.
        let wakeup = Wakeup()
        var recorder: Journal?
        if let record {
            do {
                recorder = try Journal(path: record, kind: .recording, session: session, header: header,
                                       continuing: started.continuation, opened: started.opened, onHealthChange: wakeup.signal)
            } catch {
                printError("quicksilver: cannot record to \(error)")
                throw Exit.failure
            }
        }
        var journal: Journal?
        if let store {
            let now = Date()
            var sessionHeader = header
            sessionHeader.started = SessionStore.timestamp(now)
            do {
                journal = try Journal(path: store.newSessionPath(started: now), kind: .session(compactAfterBytes: journalCompactBytes),
                                      session: session, header: sessionHeader, continuing: started.continuation, opened: started.opened,
                                      onHealthChange: wakeup.signal)
            } catch {
                printError("quicksilver: cannot journal to \(error); this session is not protected against crashes")
            }
            prune(store)
        }
        X11Window.onConnectionLost { [journal] in
            journal?.flushNow()
            recorder?.flushNow()
            let saved = journal.flatMap { $0.isStarted ? "; the session is saved in \($0.path)" : nil } ?? ""
            printError("quicksilver: lost the connection to the X server\(saved)")
            Foundation.exit(1)
        }
        // A continued session's events are replayed before the window's own: the line between
        // them ends a stroke left live and starts the window's clock.
        var opening: [Command] = (started.continuation == nil ? [] : [.continued])
            + (pulse ? [.pulse(on: true, hue: pulseHue, centre: pulseCentre, range: pulseRange)] : [])
        if let startBrush { opening.append(.mypaint(startBrush)) }
        // The brushes chosen are remembered beside the sessions (even when they are not journaled).
        let brushes = BrushShelf(library: .installed(), file: RecentBrushesFile(folder: stateDir ?? SessionStore.defaultFolder()))
        if let startBrush, brushes.library.entry(named: startBrush.name) != nil { brushes.used(startBrush.name) }
        let exporter = Exporter(folder: exportDir)
        let environment = ProcessInfo.processInfo.environment
        let names = DocumentNames(path: started.opened?.path ?? started.document?.file, edited: started.document?.edited ?? false, folder: exporter.folder,
                                  files: .real(home: environment["HOME"] ?? "/", currentFolder: FileManager.default.currentDirectoryPath))
        let app = PaintApp(window: window, session: session, recorder: recorder, journal: journal, wakeup: wakeup,
                           exporter: exporter, collectStats: stats, signals: signals,
                           startCommands: opening,
                           view: .opening(frame: session.document.frame, window: window.size), lowLatency: !noLowLatency,
                           predictMilliseconds: predictMs, uiScale: uiScale ?? Widgets.scale(forDPI: window.resourceDPI),
                           playing: started.unplayed.map { Playthrough(events: $0, speed: speed) },
                           greeting: greeting(started), document: names, brushes: brushes,
                           chooser: fileChooser(environment, window: window, wakeup: wakeup))
        if hideTools { app.widgets?.setHidden(true) }
        let loop = FrameLoop(hz: Int(ReplayPlayer.framesPerSecond), clock: TimerFDClock(),
                             fds: [window.connectionFileDescriptor, window.alarmFileDescriptor, signals.fileDescriptor, wakeup.fileDescriptor])
        startUp.stop()
        loop.run(app)
        app.finish(loop)
        window.close()
        if let store { prune(store) }
        if app.document.edited, let journal, journal.isStarted {
            // Nothing is lost (the journal has it), but the file is not what the window showed.
            printError("quicksilver: \(app.document.path ?? "the drawing") has changes not saved to a file; they are kept in \(journal.path) "
                       + "(quicksilver window \(journal.path) continues it)")
        }
        if let next = app.opensNext { try open(next, after: journal) }
    }

    /// Ctrl+O: this session has ended (its journal stays, listed by `sessions`); the window
    /// opens again on `path`, with this one's options.
    private func open(_ path: String, after journal: Journal?) throws {
        if let journal { printError("quicksilver: opening \(path); the drawing before stays in \(journal.path)") }
        var args = ["window", path, "--size", size.size.description, "--background", background,
                    "--predict-ms", "\(predictMs)", "--undo-megabytes", "\(undoMegabytes)",
                    "--sessions-megabytes", "\(sessionsMegabytes)", "--journal-compact-bytes", "\(journalCompactBytes)"]
        for (flag, value) in [("--display", display), ("--export-dir", exportDir), ("--state-dir", stateDir),
                              ("--ui-scale", uiScale.map { "\($0)" }), ("--threads", threads.map { "\($0)" })] {
            if let value { args += [flag, value] }
        }
        for (flag, on) in [("--stats", stats), ("--no-low-latency", noLowLatency), ("--no-journal", noJournal), ("--core-input", coreInput)] where on {
            args.append(flag)
        }
        printError("quicksilver: cannot open \(path): \(ProcessCalls.execSelf(args))")
        throw Exit.failure
    }

    /// The desktop's file chooser, unless `QUICKSILVER_PORTAL=0`; it finds out on its own thread
    /// whether a portal answers on the session bus.
    private func fileChooser(_ environment: [String: String], window: X11Window, wakeup: Wakeup) -> FileChooser? {
        guard environment["QUICKSILVER_PORTAL"] != "0" else { return nil }
        let address = SessionBusAddress.find(environment: environment) { FileManager.default.fileExists(atPath: $0) }
        return PortalFileChooser(address: address, parentWindow: "x11:" + String(window.windowID, radix: 16), onAnswer: wakeup.signal)
    }

    /// What the status strip says first: what reading the file changed or recovered (said on
    /// stderr too, but a window's user may never see that), else on a blank start where the
    /// palette and the keys are.
    private func greeting(_ started: SessionStart.Started) -> String? {
        let said = started.notes.map { $0.hasPrefix("quicksilver: ") ? String($0.dropFirst(13)) : $0 }
        if !said.isEmpty { return said.joined(separator: "; ") }
        return started.session == nil ? KeyMap.greeting : nil
    }

    /// Keeps the sessions folder under its cap, saying what went.
    private func prune(_ store: SessionStore) {
        for gone in store.prune(capBytes: sessionsMegabytes << 20) {
            printError("quicksilver: removed the oldest session \(gone.path) (\(gone.bytes >> 10) KiB) to keep \(store.folder) under \(sessionsMegabytes) MiB")
        }
    }
}

/// `WxH`, as an argument.
struct WindowSize: ExpressibleByArgument {
    let size: Size
    init(_ size: Size) { self.size = size }
    init?(argument: String) {
        guard let size = Replay.Header.size(parsing: argument) else { return nil }
        self.size = size
    }
    var defaultValueDescription: String { size.description }
}

/// The X11 window is the app's window: it already has every member the seam asks for. Declared
/// here, where the two meet, so that neither module knows the other.
extension X11Window: AppWindow {}
