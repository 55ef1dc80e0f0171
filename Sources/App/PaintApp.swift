import Clock
import Compute
import Events
import Files
import Foundation
import Input
import Journal
import Paint
import PNGFile
import ReplayFormat

/// The window's app: input events → (pressure, key bindings) → session → frames, then the
/// record and the journal of exactly what each frame played. The frame loop calls it; it sees
/// the window only as an `AppWindow`.
public final class PaintApp: FrameLoopDelegate {
    private let window: AppWindow
    private let session: Session
    private let recorder: LineWriter?
    private let journal: Journal?
    private let signals: SignalFD?
    private let exporter: Exporter
    private let console: Console
    private var pressure = Pressure()
    private var stopRequested = false
    private var exportRequested = false
    private var title = ""
    private var stats: FrameStats?
    /// The index of the last frame drawn (the final one after the loop ends comes after it).
    private var lastFrame = 0

    /// - Parameters:
    ///   - recorder: `--record`: the replay file, its header already written.
    ///   - journal: the session journal, if the session is journaled.
    ///   - signals: SIGTERM, SIGINT and SIGHUP, which close the window cleanly.
    ///   - startCommands: commands played in the first frame (and recorded), e.g. `--pulse`.
    public init(window: AppWindow, session: Session, recorder: LineWriter? = nil, journal: Journal? = nil,
                exporter: Exporter, collectStats: Bool = false, signals: SignalFD? = nil,
                console: Console = .standard, startCommands: [Command] = []) {
        self.window = window
        self.session = session
        self.recorder = recorder
        self.journal = journal
        self.signals = signals
        self.exporter = exporter
        self.console = console
        stats = collectStats ? FrameStats() : nil
        for c in startCommands { session.handle(.command(c)) }
        updateTitle(status: nil)
    }

    public var shouldStop: Bool { stopRequested }

    public func frameLoopDidWake(_ loop: FrameLoop) -> Bool {
        if signals?.take() != nil { stopRequested = true }
        let events = window.pendingEvents()
        if !events.isEmpty { stats?.inputArrived(at: loop.now) }
        for event in events { handle(event) }
        journal?.tick(now: loop.now)
        return session.needsDraw || exportRequested
    }

    public func frameLoop(_ loop: FrameLoop, draw frame: FrameInfo) -> Bool {
        let start = loop.now
        let drawn = session.draw(frame, to: window)
        if record(drawn.played, in: frame) { strokeEnded(now: loop.now) }
        if var s = stats, !drawn.presented.isEmpty {
            window.waitForPresentCompletion()
            s.presented(started: start, completed: loop.now)
            stats = s
        }
        if exportRequested {
            exportRequested = false
            export()
        } else {
            updateTitle(status: nil)
        }
        return session.needsDraw
    }

    /// Ends the session: what is still queued is played (a stroke ended by a signal, say) and
    /// journaled, the journal is marked clean, the recording flushed, statistics printed.
    public func finish(_ loop: FrameLoop) {
        let last = FrameInfo(index: lastFrame + 1, timestamp: loop.now, targetTimestamp: loop.now)
        let drawn = session.draw(last, to: window)
        if record(drawn.played, in: last) { strokeEnded(now: loop.now) }
        journal?.close()
        if let e = journal?.writeError { console.err("quicksilver: the journal could not be written: \(e)") }
        if let recorder {
            do { try recorder.sync() } catch { console.err("quicksilver: cannot record to \(error)") }
        }
        if let stats { console.out(stats.report(framesDrawn: loop.framesDrawn, missed: loop.missedDeadlines)) }
    }

    private func handle(_ event: InputEvent) {
        switch event {
        case .pointerDown(let s): session.handle(.pointerDown(pressure.decide(s)))
        case .pointerMove(let s): session.handle(.pointerMove(pressure.decide(s)))
        case .pointerUp(let s): session.handle(.pointerUp(pressure.decide(s)))
        case .modifiers(let mods, let t): pressure.modifiersChanged(mods, at: t)
        case .key(let key):
            switch KeyMap.action(for: key, brush: session.brush) {
            case .command(let c)?: session.handle(.command(c))
            case .screenshot?: exportRequested = true
            case .quit?: stopRequested = true
            case nil: break
            }
        case .resize(let size, _): session.handle(.resize(size))
        case .expose: window.presentAll()
        case .close: stopRequested = true
        }
    }

    /// Records and journals the events `frame` played, each stamped with the middle of that
    /// frame: a replay then batches them into exactly the same frames (which the mercurial
    /// brush's spray depends on). Returns true when a stroke or a command ended among them.
    private func record(_ played: [SessionEvent], in frame: FrameInfo) -> Bool {
        lastFrame = frame.index
        let t = (Double(frame.index) + 0.5) / ReplayPlayer.framesPerSecond
        var ended = false
        for event in played {
            let timed = Replay.TimedEvent(t: t, event: event)
            recorder?.append(Replay.line(for: timed))
            journal?.record(timed)
            switch event {
            case .pointerUp, .command: ended = true
            case .pointerDown, .pointerMove, .resize: break
            }
        }
        return ended
    }

    /// A stroke or command has been played: sync the journal (and maybe compact it).
    private func strokeEnded(now: Double) {
        try? recorder?.flush()
        journal?.strokeEnded(now: now, session: session)
    }

    private func export() {
        let shot = session.snapshot()
        let image = PNGImage(width: shot.width, height: shot.height, pixels: shot.pixels)
        do {
            let path = try exporter.save(image)
            console.out(path)
            updateTitle(status: "saved \(path)")
        } catch {
            console.err("quicksilver: screenshot failed: \(error)")
            updateTitle(status: "screenshot failed")
        }
    }

    private func updateTitle(status: String?) {
        let b = session.brush
        var t = "Quicksilver — \(b.tip.kind.rawValue) \(b.tip.size) \(b.color) pressure \(String(format: "%.2f", pressure.simulated))"
        if let status { t += " — \(status)" }
        if t != title {
            title = t
            window.setTitle(t)
        }
    }
}
