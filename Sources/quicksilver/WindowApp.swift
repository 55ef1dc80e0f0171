import Clock
import Compute
import Files
import Foundation
import Journal
import Kernels
import Paint
import PNGFile
import Strokes
import X11Window

/// The window's app: X input → (pressure, key bindings, recording) → session → frames.
/// The frame loop calls it; it owns no X code beyond the `X11Window` it is given.
final class WindowApp: FrameLoopDelegate {
    private let window: X11Window
    private let session: Session
    private let recorder: LineWriter?
    private let journal: Journal?
    private let signals: SignalFD
    private let exporter: Exporter
    private var pressure = PressureSimulator()
    private var stopRequested = false
    private var exportRequested = false
    private var title = ""
    private var stats: FrameStats?
    /// Events queued for the next frame, recorded and journaled when that frame plays them.
    private var unrecorded: [InputEvent] = []

    init(window: X11Window, session: Session, recorder: LineWriter?, journal: Journal?, exporter: Exporter,
         collectStats: Bool, signals: SignalFD, startCommands: [Command]) {
        self.window = window
        self.session = session
        self.recorder = recorder
        self.journal = journal
        self.signals = signals
        self.exporter = exporter
        stats = collectStats ? FrameStats() : nil
        for c in startCommands { pass(.command(c, time: 0)) }
        updateTitle(status: nil)
    }

    var shouldStop: Bool { stopRequested }

    func frameLoopDidWake(_ loop: FrameLoop) -> Bool {
        if signals.take() != nil { stopRequested = true }
        let events = window.pendingEvents()
        if !events.isEmpty { stats?.inputArrived(at: loop.now) }
        for event in events { handle(event) }
        journal?.tick(now: loop.now)
        return session.needsDraw || exportRequested
    }

    func frameLoop(_ loop: FrameLoop, draw frame: FrameInfo) -> Bool {
        let start = loop.now
        let ended = record(playedIn: frame)
        let presented = session.draw(frame, to: window)
        if ended { strokeEnded(now: loop.now) }
        if var s = stats, !presented.isEmpty {
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

    /// Ends the session: the journal is marked clean, the recording flushed, statistics printed.
    func finish(_ loop: FrameLoop) {
        // Play what is still queued (a stroke ended by the signal, say) so it is journaled as drawn.
        let last = FrameInfo(index: lastFrame + 1, timestamp: loop.now, targetTimestamp: loop.now)
        let ended = record(playedIn: last)
        session.draw(last, to: window)
        if ended { strokeEnded(now: loop.now) }
        journal?.close()
        if let e = journal?.writeError { printError("quicksilver: the journal could not be written: \(e)") }
        if let recorder {
            do { try recorder.sync() } catch { printError("quicksilver: cannot record to \(error)") }
        }
        if let stats { printLine(stats.report(framesDrawn: loop.framesDrawn, missed: loop.missedDeadlines)) }
    }

    private func handle(_ event: InputEvent) {
        switch event {
        case .pointerDown(let s): pass(.pointerDown(withPressure(s)))
        case .pointerMove(let s): pass(.pointerMove(withPressure(s)))
        case .pointerUp(let s):
            pass(.pointerUp(withPressure(s)))
        case .modifiers(let mods, let t):
            pressure.setModifiers(shift: mods.contains(.shift), control: mods.contains(.control), at: t)
        case .key(let key):
            switch KeyMap.action(for: key, brush: session.brush) {
            case .command(let c)?:
                pass(.command(c, time: key.time))
            case .screenshot?: exportRequested = true
            case .quit?: stopRequested = true
            case nil: break
            }
        case .resize: pass(event)
        case .command: pass(event)
        case .expose: window.presentAll()
        case .close: stopRequested = true
        }
    }

    /// Fills in simulated pressure for a device without it; what is recorded is what is used.
    private func withPressure(_ s: PointerSample) -> PointerSample {
        var s = s
        if s.pressure == nil {
            let p = pressure.pressure(shift: s.mods.contains(.shift), control: s.mods.contains(.control), at: s.time)
            // Four decimals: the journal stores it short and reads it back exactly.
            s.pressure = (p * 10_000).rounded() / 10_000
        }
        return s
    }

    /// Queues an event for the next frame (`record(playedIn:)` writes it down then).
    private func pass(_ event: InputEvent) {
        unrecorded.append(event)
        session.handle(event)
    }

    /// The index of the last frame drawn (the final one after the loop ends comes after it).
    private var lastFrame = 0

    /// Records and journals the events `frame` is about to play, each stamped with the middle of
    /// that frame: a replay then batches them into exactly the same frames (which the mercurial
    /// brush's spray depends on). Returns true when a stroke or a command ended among them.
    private func record(playedIn frame: FrameInfo) -> Bool {
        lastFrame = frame.index
        guard !unrecorded.isEmpty else { return false }
        let t = (Double(frame.index) + 0.5) / ReplayPlayer.framesPerSecond
        var ended = false
        for event in unrecorded {
            let timed = Replay.TimedEvent(t: t, event: event)
            if let recorder, let line = Replay.line(for: timed) { recorder.append(line) }
            journal?.record(timed)
            switch event {
            case .pointerUp, .command: ended = true
            default: break
            }
        }
        unrecorded.removeAll(keepingCapacity: true)
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
            printLine(path)
            updateTitle(status: "saved \(path)")
        } catch {
            printError("quicksilver: screenshot failed: \(error)")
            updateTitle(status: "screenshot failed")
        }
    }

    private func updateTitle(status: String?) {
        let b = session.brush
        var t = "Quicksilver — \(b.tip.kind.rawValue) \(b.tip.size) \(b.color) pressure \(String(format: "%.2f", pressure.value))"
        if let status { t += " — \(status)" }
        if t != title {
            title = t
            window.setTitle(t)
        }
    }
}
