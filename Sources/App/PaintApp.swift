import Clock
import Compute
import Events
import Files
import Foundation
import Geometry
import Input
import Journal
import Kernels
import Paint
import PNGFile
import ReplayFormat
import Strokes
import UI

/// The window's app: input events → (pressure, key bindings) → session → frames, then the
/// record and the journal of exactly what each frame played. The frame loop calls it; it sees
/// the window only as an `AppWindow`.
public final class PaintApp: FrameLoopDelegate {
    private let window: AppWindow
    private let session: Session
    /// `--record`'s file and the session journal: what each frame played is written to both.
    private let recorder: Journal?
    private let journal: Journal?
    /// Made readable by the journals' writer when writing fails or works again.
    private let wakeup: Wakeup?
    /// What the journals' health was last said to be: a change is said once, on stderr and in
    /// the title.
    private var reportedHealth: [Journal.Health] = []
    /// Ctrl+Q was pressed while the journal could not be written: the next one quits anyway.
    private var quitDespiteUnsaved = false
    private let signals: SignalFD?
    private let exporter: Exporter
    private let console: Console
    private var pressure = Pressure()
    /// The window's view of the canvas; pointer samples are mapped through it.
    private var view: ViewControl
    /// The view as last queued for the session.
    private var queuedView: ViewTransform
    /// Space is held: a button-1 drag pans instead of drawing.
    private var spaceHeld = false
    /// What button 1 is doing, from its press to its release.
    private var mode = PointerMode.idle
    /// The on-canvas tools (palette, outline, status strip, shading editor); nil without them.
    private let toolsInput: ToolsInput?
    public var tools: Tools? { toolsInput?.tools }
    /// A stylus's eraser end is erasing: the brush kind to go back to when it lifts.
    private var kindBeforeEraser: BrushKind?
    /// A colour being typed (`#` …).
    private var colorEntry = ColorEntry()
    /// The colour picker: armed by `c`, it takes the next button-1 press.
    private var picker = Picker.off
    /// Input that arrived after a pick's click, held until the pick is made (at the next frame,
    /// once everything before the click has been played), so that order is kept.
    private var heldBack: [InputEvent] = []
    /// The title must be redrawn though nothing else changed (typing a colour).
    private var titleIsStale = false

    /// What button 1 is doing between its press and its release.
    private enum PointerMode: Equatable {
        case idle
        case drawing
        /// Space held: the drag moves the view.
        case panning
        /// Pressed on the palette (on the ring or the square, the drag goes on choosing).
        case palette(Palette.Hit)
        /// Pressed in the shading editor (on a handle or a bar, the drag goes on moving it).
        case editor(ShadingEditor.Hit)
        /// A press that only closed something or picked a colour: it draws nothing.
        case swallowing

        var isInPalette: Bool { if case .palette = self { true } else { false } }
    }

    private enum Picker: Equatable {
        case off, armed
        /// Clicked at this canvas point: the colour is taken at the next frame.
        case picking(x: Double, y: Double)
    }
    private var stopRequested = false
    /// Ctrl+S (the picture) or Ctrl+Shift+S (the document) waits for the frame: it saves what it plays.
    private var exportRequested: Exporter.Kind?
    private var copyRequested = false
    /// Where a paste asked for goes (canvas point under the pointer at Ctrl+V).
    private var pasteAt: (x: Double, y: Double)?
    /// Pastes so far: each one's picture is kept as `<journal>.paste-N.png` (and beside the recording).
    private var pastes = 0
    /// What the title says once the frame is drawn ("saved …", "pasted …"), then forgets.
    private var status: String?
    /// What the title (and status strip) show now.
    private var shownStatus: Status?
    private var stats: FrameStats?
    /// The index of the last frame drawn (the final one after the loop ends comes after it).
    private var lastFrame = 0
    /// Pen samples are drawn and presented as they arrive.
    private let lowLatency: Bool
    /// How far ahead the pen's predicted tail reaches (0: none), and what predicts it.
    private let predictSeconds: Double
    private var predictor = Predictor()
    /// A predicted tail is shown, since this time (loop seconds): it goes once its horizon has
    /// passed with no sample (a mouse that stopped sends none).
    private var predictedSince: Double?
    /// Immediate (ink path) presents so far.
    public private(set) var inkPresents = 0
    /// `window --play`: the file's events still to be played, frame by frame on the loop's
    /// clock, and the player drawing them to the window. They reach neither the journal nor the
    /// recording: both already open with them (the continuation). Input is ignored meanwhile,
    /// but a key or a button jumps to the end (Ctrl+Q quits, once the play is played out).
    private var play: Play?

    /// A `window --play` under way.
    private struct Play {
        var file: Playthrough
        var player: ReplayPlayer
        /// The loop time when the play began (nil until its first frame).
        var start: Double?
        /// A key or a click asked for the end.
        var jumpToEnd = false
        /// The start commands, played once the play has ended (a `continued` line follows the
        /// file's events).
        let afterwards: [Command]
    }

    /// The loop frame the window's own clock starts after (its journal's times count from there).
    private var clockStart = 0
    /// The frame clock following the display's vertical blanks, where it reports them.
    private var displaySync = DisplaySync()
    /// The clock's source and period, as `--stats` says it.
    public var clockDescription: String { displaySync.describe(reportsVBlanks: window.reportsVBlanks, hz: 60) }

    /// - Parameters:
    ///   - recorder: `--record`: the replay file, its opening already written.
    ///   - journal: the session journal, if the session is journaled.
    ///   - wakeup: what the journals signal when their health changes (polled by the loop).
    ///   - signals: SIGTERM, SIGINT and SIGHUP, which close the window cleanly.
    ///   - startCommands: commands played in the first frame (and recorded), e.g. `--pulse`.
    ///   - view: how the window first shows the canvas (see `ViewControl.opening`).
    ///   - lowLatency: pen samples are drawn and presented as they arrive (the immediate ink
    ///     path), not at the next frame.
    ///   - uiScale: the on-canvas tools' scale (1 at 96 dpi); nil: no on-canvas tools.
    ///   - playing: events to play first, at their pace, into `session` (at the canvas they start
    ///     from), not journaled; `startCommands` follow them.
    public init(window: AppWindow, session: Session, recorder: Journal? = nil, journal: Journal? = nil,
                wakeup: Wakeup? = nil, exporter: Exporter, collectStats: Bool = false, signals: SignalFD? = nil,
                console: Console = .standard, startCommands: [Command] = [], view: ViewControl = ViewControl(),
                lowLatency: Bool = true, predictMilliseconds: Double = 16, uiScale: Double? = nil,
                playing: Playthrough? = nil) {
        self.view = view
        self.lowLatency = lowLatency
        predictSeconds = max(0, predictMilliseconds) / 1000
        queuedView = session.viewTransform
        self.window = window
        self.session = session
        self.recorder = recorder
        self.journal = journal
        self.wakeup = wakeup
        reportedHealth = [recorder, journal].map { _ in .writing }
        self.signals = signals
        self.exporter = exporter
        self.console = console
        stats = collectStats ? FrameStats() : nil
        toolsInput = uiScale.map { ToolsInput(tools: Tools(windowSize: window.size, scale: $0)) }
        session.overlay = toolsInput?.tools
        // In the frames after the start: the first `l` then costs what any frame of the editor does.
        toolsInput?.tools.prepareEditor(for: session.brush.shading)
        if let playing {
            play = Play(file: playing, player: ReplayPlayer(session: session, presenter: window), afterwards: startCommands)
        } else {
            for c in startCommands { session.handle(.command(c)) }
            queueViewIfMoved()
        }
        updateTitle(status: nil)
    }

    public var shouldStop: Bool { stopRequested }

    public var hasBufferedInput: Bool { window.hasBufferedEvents }

    public func frameLoopDidWake(_ loop: FrameLoop) -> Bool {
        if signals?.take() != nil { stopRequested = true }
        if wakeup?.take() == true { reportJournalHealth() }
        if play != nil {
            for event in window.pendingEvents() { handleWhilePlaying(event) }
            journal?.tick(now: loop.now)
            recorder?.tick(now: loop.now)
            return true
        }
        let events = window.pendingEvents()
        if !events.isEmpty { stats?.inputArrived(at: loop.now) }
        for event in events {
            if case .picking = picker { heldBack.append(event) } else { handle(event) }
        }
        queueViewIfMoved()
        if predictSeconds > 0, !events.isEmpty {
            let predicted = mode == .drawing ? predictor.predict(horizon: predictSeconds) : nil
            session.predict(predicted)
            predictedSince = predicted == nil ? nil : loop.now
        }
        let blanks = window.takeVBlanks()
        if !blanks.isEmpty { displaySync.heard(blanks, loop: loop, nowNS: loop.nowNS) }
        let inked = lowLatency && drawInk(loop)
        journal?.tick(now: loop.now)
        recorder?.tick(now: loop.now)
        // While ink flows the clock keeps ticking: the title and everything else are its.
        if inked { return true }
        if case .picking = picker { return true }
        return session.needsDraw || exportRequested != nil || copyRequested || status != nil || titleIsStale || tools?.hasDamage == true
    }

    public func frameLoop(_ loop: FrameLoop, draw frame: FrameInfo) -> Bool {
        if play != nil { return playFrame(frame, loop) }
        let start = loop.now
        if let since = predictedSince, start - since >= predictSeconds {
            session.predict(nil)
            predictedSince = nil
        }
        tools?.catchUp()
        let drawn = session.draw(frame, to: window)
        if record(drawn.played, inFrame: frame.index) { strokeEnded(now: loop.now) }
        if case .picking(let x, let y) = picker { pick(at: x, y) }
        if var s = stats, !drawn.presented.isEmpty {
            window.waitForPresentCompletion()
            s.presented(started: start, completed: loop.now, by: .frame)
            stats = s
        }
        if let kind = exportRequested {
            exportRequested = nil
            export(kind)
        }
        if copyRequested {
            copyRequested = false
            copy()
        }
        updateTitle(status: status)
        status = nil
        titleIsStale = false
        displaySync.frameDrawn(seconds: loop.now - start)
        // The clock listens to the display's blanks, to tick just before each (one more is heard
        // after the last frame of a burst: one wake-up, then sleep).
        if window.reportsVBlanks { window.askForVBlank() }
        return session.needsDraw || predictedSince != nil || tools?.isCatchingUp == true
    }

    /// Ends the session: what is still queued is played (a stroke ended by a signal, say) and
    /// journaled, the journal is marked clean, the recording flushed, statistics printed.
    public func finish(_ loop: FrameLoop) {
        if var p = play {
            p.player.feed(p.file.takeRest())
            play = p
            endPlay()
        }
        let last = FrameInfo(index: lastFrame + 1, timestamp: loop.now, targetTimestamp: loop.now)
        let drawn = session.draw(last, to: window)
        if record(drawn.played, inFrame: last.index) { strokeEnded(now: loop.now) }
        for (log, what) in [(journal, "the session"), (recorder, "the recording")] {
            guard let log, let failure = log.close() else { continue }
            let lost = log.strokesNotSaved
            console.err("quicksilver: \(what) could not be written to the end (\(failure)): \(lost) stroke\(lost == 1 ? "" : "s") not saved; "
                + "it is kept up to the last line written")
        }
        if var stats {
            stats.clock = clockDescription
            console.out(stats.report(framesDrawn: loop.framesDrawn, missed: loop.missedDeadlines))
        }
    }

    /// Plays the events of the file now due (all of them after a jump) and shows them.
    private func playFrame(_ frame: FrameInfo, _ loop: FrameLoop) -> Bool {
        guard var p = play else { return false }
        lastFrame = max(lastFrame, frame.index)
        if p.start == nil {
            // The canvas the file starts from, before its first events are due.
            session.draw(frame, to: window)
            p.start = loop.now
        }
        let due = p.jumpToEnd ? p.file.takeRest() : p.file.take(at: loop.now - (p.start ?? loop.now))
        if !due.isEmpty {
            p.player.feed(due)
            // Only whole frames of the player are due: this one's events are all in.
            p.player.flush()
        }
        play = p
        if p.file.isDone { endPlay() }
        updateTitle(status: nil)
        return true
    }

    /// The play is over: the window's own session goes on from here, as if it had just
    /// opened on the played file, with its clock starting now.
    private func endPlay() {
        guard var p = play else { return }
        p.player.finish()
        play = nil
        clockStart = lastFrame
        queuedView = session.viewTransform
        for c in p.afterwards { session.handle(.command(c)) }
        queueViewIfMoved()
    }

    /// Input during a play: a key or a button jumps to its end (Ctrl+Q, the close button and
    /// signals quit); the window's own chores go on.
    private func handleWhilePlaying(_ event: InputEvent) {
        switch event {
        case .key(let key):
            if case .quit? = KeyMap.action(for: key, brush: session.upcomingBrush) { quit() } else { play?.jumpToEnd = true }
        case .pointerDown:
            // The drag it begins draws nothing, even once the play has ended.
            play?.jumpToEnd = true
            mode = .swallowing
        case .pointerUp: mode = .idle
        case .button(_, isDown: true, _): play?.jumpToEnd = true
        case .resize:
            session.windowChanged()
            tools?.windowResized(to: window.size)
        case .expose: window.presentAll()
        case .close: quit()
        default: break
        }
    }

    private func handle(_ event: InputEvent) {
        switch event {
        case .pointerDown(let s) where picker == .armed:
            let at = view.transform.canvasPoint(x: s.x, y: s.y)
            picker = .picking(x: at.x, y: at.y)
            mode = .swallowing
        case .pointerDown(let s):
            predictor.reset()
            press(s)
        case .pointerMove(let s):
            switch mode {
            case .swallowing: break
            case .panning: view.pan(to: s.x, s.y)
            case .palette(let grab): toolsInput?.dragPalette(grab, x: s.x, y: s.y, brush: session.upcomingBrush)
            case .editor(let grab): toolsInput?.previewShading(grab, x: s.x, y: s.y)
            case .idle, .drawing:
                if view.isPanning { view.pan(to: s.x, s.y) } else { session.handle(.pointerMove(onCanvas(s))) }
            }
        case .pointerUp(let s):
            release(s)
        case .hover(let s):
            showOutline(at: s)
        case .leave:
            tools?.showOutline(nil)
        case .button(let button, let down, let s):
            switch button {
            case .middle where down && !session.isStroking: view.beginPan(at: s.x, s.y)
            case .middle: if mode != .panning { view.endPan() }
            case .wheelUp, .wheelDown:
                let steps = button == .wheelUp ? 1 : -1
                if s.mods.contains(.control) {
                    view.zoom(by: steps, around: s.x, s.y)
                } else if s.mods.contains(.shift) {
                    view.scroll(down: 0, right: -steps)
                } else {
                    view.scroll(down: -steps, right: 0)
                }
            case .wheelLeft: view.scroll(down: 0, right: -1)
            case .wheelRight: view.scroll(down: 0, right: 1)
            case .right where down && mode != .drawing: toolsInput?.togglePalette(atX: s.x, y: s.y, brush: session.upcomingBrush)
            case .right: break
            }
        case .modifiers(let mods, let t): pressure.modifiersChanged(mods, at: t)
        case .key(let key):
            switch colorEntry.key(key) {
            case .typed, .cancelled:
                titleIsStale = true
                return
            case .accepted(let color):
                session.handle(.command(.brush(color: color)))
                return
            case .passed:
                break
            }
            if key.name == "Escape", picker == .armed {
                setPicker(.off)
                return
            }
            if key.name == "Escape", tools?.palette != nil {
                tools?.showPalette(nil)
                return
            }
            if key.name == "space" { spaceHeld = true }
            switch KeyMap.action(for: key, brush: session.upcomingBrush) {
            case .command(let c)?: session.handle(.command(c))
            case .screenshot?: exportRequested = .picture
            case .saveDocument?: exportRequested = .document
            case .copy?: copyRequested = true
            case .paste?:
                pasteAt = view.transform.canvasPoint(x: key.x, y: key.y)
                window.requestClipboardImage()
            case .quit?: quit()
            case .zoom(let steps)?: view.zoom(by: steps, around: key.x, key.y)
            case .resetView?: view.reset()
            case .pickColor?: setPicker(.armed)
            case .toggleTools?: tools.map { $0.setHidden(!$0.hidden) }
            case .shadingEditor?: toolsInput?.toggleEditor(brush: session.upcomingBrush)
            case nil: break
            }
        case .keyRelease(let key):
            if key.name == "space" { spaceHeld = false }
        case .resize:
            // The canvas keeps its size: the window shows more or less of it.
            session.windowChanged()
            tools?.windowResized(to: window.size)
        case .expose: window.presentAll()
        case .close: quit()
        case .paste(let answer):
            guard let at = pasteAt else { return }
            pasteAt = nil
            paste(answer, at: at)
        }
    }

    // MARK: - Button 1, routed by what is under it

    /// Button 1 went down: on a piece of UI, it acts there (a press outside an open palette
    /// only closes it); on the canvas it pans (Space held) or draws.
    private func press(_ s: PointerSample) {
        toolsInput?.tools.showOutline(nil)
        switch toolsInput?.tools.hit(s.x, s.y) ?? .canvas {
        case .outsidePalette:
            toolsInput?.tools.showPalette(nil)
            mode = .swallowing
        case .palette(let hit):
            mode = .palette(hit)
            if let c = toolsInput?.press(hit, brush: session.upcomingBrush) { session.handle(.command(c)) }
        case .editor(let hit):
            mode = .editor(hit)
            toolsInput?.previewShading(hit, x: s.x, y: s.y)
        case .canvas where spaceHeld:
            mode = .panning
            view.beginPan(at: s.x, s.y)
        case .canvas:
            // The eraser end erases whatever brush is selected, for this stroke.
            if s.tool == .eraser, session.upcomingBrush.tip.kind != .eraser {
                kindBeforeEraser = session.upcomingBrush.tip.kind
                session.handle(.command(.brush(kind: .eraser)))
            }
            if session.upcomingBrush.tip.kind != .eraser { toolsInput?.strokeStarted(in: session.upcomingBrush.color) }
            mode = .drawing
            session.handle(.pointerDown(onCanvas(s)))
        }
    }

    /// Button 1 came up: what its press began ends; a colour or a shading chosen in a panel is a
    /// command now.
    private func release(_ s: PointerSample) {
        let was = mode
        mode = .idle
        switch was {
        case .swallowing, .idle: break
        case .panning: view.endPan()
        case .drawing:
            session.handle(.pointerUp(onCanvas(s)))
            if let kind = kindBeforeEraser {
                kindBeforeEraser = nil
                session.handle(.command(.brush(kind: kind)))
            }
        case .palette:
            if let c = toolsInput?.releasePalette(brush: session.upcomingBrush) { session.handle(.command(c)) }
        case .editor:
            if let c = toolsInput?.releaseEditor(brush: session.upcomingBrush) { session.handle(.command(c)) }
        }
        showOutline(at: s)
    }

    /// The brush's outline under the pointer, while no button is down.
    private func showOutline(at s: PointerSample) {
        toolsInput?.outline(x: s.x, y: s.y, tip: session.upcomingBrush.tip, pressure: pressure.outline(s), zoom: view.transform.zoom, shown: mode == .idle)
    }

    /// Pastes the clipboard's image centred at `at` (canvas), as one undo step; its PNG is kept
    /// beside the journal and the recording, which name it, so a replay pastes it again.
    private func paste(_ answer: ClipboardImage, at: (x: Double, y: Double)) {
        guard case .image(let bytes) = answer else {
            if case .nothing(let why) = answer { status = why }
            return
        }
        let image: PNGImage
        do { image = try PNGImage.decode(bytes, maxSide: SessionStart.maxSide) } catch {
            status = "the clipboard's image cannot be read: \(error.message)"
            return
        }
        pastes += 1
        let name = "paste-\(pastes).png"
        // The journal names the picture: without it beside the journal, recovery could not
        // replay the paste, so a paste that cannot be kept is not made.
        for log in [journal, recorder].compactMap({ $0 }) {
            do { try log.keep(picture: bytes, as: name) } catch {
                console.err("quicksilver: cannot keep the pasted picture: \(error)")
                status = "the paste could not be kept, so it was not made"
                return
            }
        }
        let size = Size(width: image.width, height: image.height)
        let x = Int((at.x - Double(size.width) / 2).rounded()), y = Int((at.y - Double(size.height) / 2).rounded())
        session.handle(.command(.paste(PastedImage(file: name, x: x, y: y, size: size, pixels: image.pixels))))
        status = "pasted \(size)"
    }

    private func setPicker(_ new: Picker) {
        if (picker == .off) != (new == .off) { window.setCrosshair(new != .off) }
        picker = new
        titleIsStale = true
    }

    /// Takes the colour at canvas point (x, y), now that everything before the click has been
    /// played, as a brush colour command (recorded, so replays pick it too); then the input
    /// held back meanwhile goes on, in order.
    private func pick(at x: Double, _ y: Double) {
        setPicker(.off)
        if let color = session.color(at: x, y) {
            session.handle(.command(.brush(color: color)))
            status = "picked \(color)"
        } else {
            status = "no colour outside the canvas"
        }
        let held = heldBack
        heldBack = []
        for event in held {
            if case .picking = picker { heldBack.append(event) } else { handle(event) }
        }
        queueViewIfMoved()
    }

    /// A sample as the session draws it: its pressure decided, its position on the canvas. The
    /// predictor hears of it too, with its time.
    private func onCanvas(_ s: PointerSample) -> StrokeSample {
        var sample = pressure.decide(s)
        (sample.x, sample.y) = view.transform.canvasPoint(x: sample.x, y: sample.y)
        if predictSeconds > 0 { predictor.add(t: s.time, x: sample.x, y: sample.y) }
        return sample
    }

    /// Queues the view for the session (and so the record) when it moved: once per wake-up at
    /// most, since a view changes no pixel of the canvas and its place among samples (already
    /// mapped to the canvas) does not matter.
    private func queueViewIfMoved() {
        guard view.transform != queuedView else { return }
        queuedView = view.transform
        session.handle(.view(view.transform))
    }

    /// Records and journals the events frame `index` played, each stamped with the middle of
    /// that frame: a replay then batches them into exactly the same frames (which the mercurial
    /// brush's spray depends on). Returns true when a stroke or a command ended among them.
    ///
    /// The stamp never goes back (the frame loop promises it; this keeps the promise for the
    /// journal too): a journal whose times go back cannot be restored, and that would lose the
    /// drawing, where a later stamp changes at most which frame a replay batches an event into.
    private func record(_ played: [SessionEvent], inFrame index: Int) -> Bool {
        lastFrame = max(lastFrame, index)
        let t = (Double(lastFrame - clockStart) + 0.5) / ReplayPlayer.framesPerSecond
        var ended = false
        for event in played {
            let timed = Replay.TimedEvent(t: t, event: event)
            recorder?.record(timed)
            journal?.record(timed)
            switch event {
            case .pointerUp, .command: ended = true
            case .pointerDown, .pointerMove, .resize, .view: break
            }
        }
        return ended
    }

    /// The immediate ink path: the pen samples just queued are drawn and presented now, if the
    /// last present has completed (else they wait for the next wake-up, which its completion
    /// brings). They are recorded with the frame that would have played them: the pixels, the
    /// recording and the journal are those the frame path would have made.
    private func drawInk(_ loop: FrameLoop) -> Bool {
        guard !window.isPresentPending else { return false }
        let started = loop.now
        let drawn = session.drawInk(to: window)
        guard !drawn.played.isEmpty else { return false }
        if record(drawn.played, inFrame: loop.upcomingFrame) { strokeEnded(now: loop.now) }
        if !drawn.presented.isEmpty {
            inkPresents += 1
            if var s = stats {
                window.waitForPresentCompletion()
                s.presented(started: started, completed: loop.now, by: .ink)
                stats = s
            }
        }
        return true
    }

    /// A stroke or command has been played: sync the journal (and maybe compact it).
    private func strokeEnded(now: Double) {
        recorder?.strokeEnded(now: now, session: session)
        journal?.strokeEnded(now: now, session: session)
    }

    /// The canvas as a screenshot saves it and the clipboard serves it: whole, at 100 %.
    private func picture() -> PNGImage {
        let shot = session.snapshot()
        return PNGImage(width: shot.width, height: shot.height, pixels: shot.pixels)
    }

    private func export(_ kind: Exporter.Kind) {
        let what = kind == .picture ? "screenshot" : "saving the document"
        do {
            let merged = picture()
            let path = try kind == .picture ? exporter.save(merged) : exporter.save(session.documentImage(), merged: merged)
            console.out(path)
            status = "saved \(path)"
        } catch {
            console.err("quicksilver: \(what) failed: \(error)")
            status = "\(what) failed"
        }
    }

    private func copy() {
        let image = picture()
        do {
            status = window.offerClipboard(png: try image.encode()) ? "copied \(image.width)x\(image.height) to the clipboard"
                : "the clipboard could not be taken"
        } catch {
            console.err("quicksilver: copy failed: \(error)")
            status = "copy failed"
        }
    }

    /// Ctrl+Q or the window's close button: quits, unless a journal cannot be written, when
    /// it says so first and the next one quits anyway (a signal always quits).
    private func quit() {
        guard journalWarning != nil, !quitDespiteUnsaved else {
            stopRequested = true
            return
        }
        quitDespiteUnsaved = true
        status = "quit now and the strokes not yet written are lost: Ctrl+Q again quits, Ctrl+S saves a screenshot"
    }

    /// Says once, on stderr and in the title, when a journal's writes start failing and when
    /// they work again.
    private func reportJournalHealth() {
        for (i, (log, what)) in [(recorder, "the recording"), (journal, "the journal")].enumerated() {
            guard let log else { continue }
            let health = log.health
            guard health != reportedHealth[i] else { continue }
            reportedHealth[i] = health
            titleIsStale = true
            switch health {
            case .failing(let e):
                console.err("quicksilver: cannot write \(what) \(e.path): \(e.message); drawing goes on, kept in memory, "
                    + "and is written as soon as the disk takes it")
            case .writing:
                console.err("quicksilver: \(what) \(log.path) is written again: nothing was lost")
                quitDespiteUnsaved = false
            }
        }
    }

    /// What the title says while a journal cannot be written.
    private var journalWarning: String? {
        let failing = zip(reportedHealth, ["recording", "journal"]).compactMap { health, what -> String? in
            guard case .failing(let e) = health else { return nil }
            return "\(what) NOT SAVED (\(e.reason)), retrying"
        }
        return failing.isEmpty ? nil : failing.joined(separator: ", ")
    }

    /// The status as it stands, with `message` (what the last action did).
    private func currentStatus(message: String?) -> Status {
        var prompt = colorEntry.prompt
        if picker != .off { prompt = "pick a colour: click on the canvas (Escape cancels)" }
        if let play { prompt = "playing \(play.file.percent) % (a key or a click: to the end)" }
        return Status(brush: session.brush, pressure: pressure.shown, layer: Status.describeLayer(session.document),
                      zoom: view.transform.percent, prompt: prompt, warning: journalWarning, message: message,
                      journaled: journal != nil)
    }

    /// Shows the status in the title (and wherever else it is shown) when it changed.
    private func updateTitle(status message: String?) {
        var s = currentStatus(message: message)
        // What the last action did stays said until another message replaces it or something
        // else the status shows changes, the pressure aside (it moves with every sample of a
        // pen, and with the modifier keys that simulate it: the Ctrl of Ctrl+V among them). A
        // frame that brings nothing new (the clock kept ticking for the editor's preparation,
        // say) does not wipe it either.
        if message == nil, let shown = shownStatus, let kept = shown.message {
            var same = s
            same.message = kept
            same.pressure = shown.pressure
            if same == shown { s.message = kept }
        }
        guard s != shownStatus else { return }
        if s.title != shownStatus?.title { window.setTitle(s.title) }
        shownStatus = s
        tools?.showStatus(s.strip)
        toolsInput?.sync(with: session.brush, choosing: mode.isInPalette)
    }
}
