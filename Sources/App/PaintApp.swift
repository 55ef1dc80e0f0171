import Clock
import Compute
import Events
import Geometry
import Input
import Journal
import Paint
import Portal
import UI

/// The window's app, the frame loop's delegate: each wake-up it hands the window's input to
/// the `PointerRouter`, which says what it means, and carries out what it says (queues events
/// on the `Session`, works the widgets, saves, copies, quits); each frame it draws, then
/// records and journals exactly what the frame played (`SessionLogs`). It sees the window only
/// as an `AppWindow`.
public final class PaintApp: FrameLoopDelegate {
    let window: AppWindow
    let session: Session
    var logs: SessionLogs
    /// What wakes the loop besides the window and the clock.
    let wakeups: Wakeups
    /// What the input means.
    public internal(set) var router = PointerRouter()
    /// The on-canvas UI (palette, shading editor, status strip, outline); nil without it.
    public let widgets: Widgets?
    var transfers: Transfers
    var ink: InkPath
    var statusLine = StatusLine()
    var stats: FrameStats?
    /// `window --play`: input is ignored meanwhile, but a key or a button jumps to the end.
    var play: Play?
    /// The frame clock following the display's vertical blanks, where it reports them.
    var displaySync = DisplaySync()
    /// Why the loop is to stop, once it is: Ctrl+Q, or another file to open in its place.
    var ending: Ending?
    /// What the desktop offers: MyPaint's brushes and its file chooser.
    var desktop: Desktop
    /// The layer panel's rows, with the thumbnails they keep.
    var layerRows = LayerRows()

    /// What the desktop offers beside the window.
    struct Desktop {
        /// The MyPaint brushes offered (the palette's ring, the brush chooser); nil: none.
        let brushes: BrushShelf?
        /// The desktop's file chooser, where Save As and Open ask for a name (nil: the strip
        /// asks).
        var chooser: NameChooser?
    }

    /// What wakes the loop besides the window and the clock: SIGTERM, SIGINT and SIGHUP, which
    /// close the window cleanly, and the background writers' wake-up (a journal's health
    /// changed, a save finished, the desktop's file chooser answered).
    struct Wakeups {
        let signals: SignalFD?
        let wakeup: Wakeup?
    }

    enum Ending: Equatable { case quit, open(String) }

    /// What the title and the status strip show now.
    public var status: Status? { statusLine.shown }
    /// Immediate (ink path) presents so far.
    public var inkPresents: Int { ink.presents }
    /// The clock's source and period, as `--stats` says it.
    public var clockDescription: String { displaySync.describe(reportsVBlanks: window.reportsVBlanks, hz: 60) }

    /// - Parameters:
    ///   - recorder: `--record`: the replay file, its opening already written.
    ///   - journal: the session journal, if the session is journaled.
    ///   - wakeup: what the journals signal when their health changes (polled by the loop).
    ///   - signals: SIGTERM, SIGINT and SIGHUP, which close the window cleanly.
    ///   - startCommands: commands played in the first frame (and recorded), e.g. `--pulse`.
    ///   - view: how the window first shows the canvas (see `ViewTransform.opening`).
    ///   - lowLatency: pen samples are drawn and presented as they arrive (the immediate ink
    ///     path), not at the next frame.
    ///   - uiScale: the on-canvas tools' scale (1 at 96 dpi); nil: no on-canvas tools.
    ///   - playing: events to play first, at their pace, into `session` (at the canvas they start
    ///     from), not journaled; `startCommands` follow them.
    ///   - greeting: what the status says first, until something replaces it (a blank first
    ///     start: where the palette and the keys are).
    ///   - document: the document's file (nil for a new one) and where saves look.
    ///   - brushes: the MyPaint brushes the palette's ring and the brush chooser offer.
    ///   - chooser: the desktop's file chooser, asked for names before the status strip is; its
    ///     answers are taken at each wake-up (its callback should signal `wakeup`).
    public init(window: AppWindow, session: Session, recorder: Journal? = nil, journal: Journal? = nil,
                wakeup: Wakeup? = nil, exporter: Exporter, collectStats: Bool = false, signals: SignalFD? = nil,
                console: Console = .standard, startCommands: [Command] = [], view: ViewTransform = .identity,
                lowLatency: Bool = true, predictMilliseconds: Double = 16, uiScale: Double? = nil,
                playing: Playthrough? = nil, greeting: String? = nil, document: DocumentNames = DocumentNames(),
                brushes: BrushShelf? = nil, chooser: FileChooser? = nil) {
        self.window = window
        desktop = Desktop(brushes: brushes, chooser: chooser.map { NameChooser(chooser: $0) })
        self.session = session
        logs = SessionLogs(recorder: recorder, journal: journal, console: console)
        wakeups = Wakeups(signals: signals, wakeup: wakeup)
        transfers = Transfers(exporter: exporter, console: console, names: document, wakeup: wakeup)
        ink = InkPath(lowLatency: lowLatency, predictMilliseconds: predictMilliseconds)
        stats = collectStats ? FrameStats() : nil
        widgets = uiScale.map { scale in
            let font = UIFont()
            if let failure = font.failure { console.err("quicksilver: \(failure); the on-canvas tools use a bitmap font of capitals") }
            return Widgets.standard(windowSize: window.size, scale: scale, font: font, help: KeyMap.bindings.map { ($0.keys, $0.does) },
                                    layers: true)
        }
        session.overlay = widgets
        if let brushes {
            widgets?.palette?.setFavourites(brushes.favourites, icons: brushes.icons)
            widgets?.chooser?.setBrushes(brushes.groups, icons: brushes.icons)
        }
        // In the frames after the start: the first `l` then costs what any frame of the editor does.
        widgets?.editor?.prepare(for: session.brush.shading)
        if let playing {
            play = Play(file: playing, session: session, presenter: window, afterwards: startCommands, view: view)
        } else {
            for c in startCommands { session.handle(.command(c)) }
            if view != session.view.transform { session.handle(.view(view)) }
        }
        statusLine.message = greeting
        showStatus()
    }

    public var shouldStop: Bool { ending != nil }

    /// The document's file and whether it has unsaved changes.
    public var document: DocumentNames { transfers.names }

    /// The file Ctrl+O chose, to open once this session has ended.
    public var opensNext: String? { if case .open(let path) = ending { path } else { nil } }

    public var hasBufferedInput: Bool { window.hasBufferedEvents }

    public func frameLoopDidWake(_ loop: FrameLoop) -> Bool {
        if wakeups.signals?.take() != nil { ending = .quit }
        if wakeups.wakeup?.take() == true, logs.reportHealth() { statusLine.isStale = true }
        takeFinishedWrites()
        takeChooserAnswer()
        let events = window.pendingEvents()
        if !events.isEmpty, play == nil { stats?.inputArrived(at: loop.now) }
        for event in events { route(event) }
        if play != nil {
            logs.tick(now: loop.now)
            return true
        }
        if !events.isEmpty { ink.predict(drawing: router.isDrawing, session: session, now: loop.now) }
        let blanks = window.takeVBlanks()
        if !blanks.isEmpty { displaySync.heard(blanks, loop: loop, nowNS: loop.nowNS) }
        let inked = ink.lowLatency && drawInk(loop)
        logs.tick(now: loop.now)
        // While ink flows the clock keeps ticking: the status and everything else are its.
        if inked || router.pendingPick != nil { return true }
        return session.needsDraw || transfers.hasRequests || statusLine.message != nil || statusLine.isStale || widgets?.hasDamage == true
    }

    public func frameLoop(_ loop: FrameLoop, draw frame: FrameInfo) -> Bool {
        if play != nil { return playFrame(frame, loop) }
        let start = loop.now
        ink.expire(session: session, now: start)
        widgets?.catchUp()
        let stamped = stampSamples(frame.index)
        let drawn = session.draw(frame, to: window)
        record(drawn.played, inFrame: frame.index, loop, stamped: stamped)
        if let at = router.pendingPick { pick(at: at) }
        if var s = stats, !drawn.presented.isEmpty {
            window.waitForPresentCompletion()
            s.presented(started: start, completed: loop.now, by: .frame)
            stats = s
        }
        if let said = transfers.carryOut(session, window: window) { statusLine.message = said }
        showStatus()
        displaySync.frameDrawn(seconds: loop.now - start)
        // The clock listens to the display's blanks, to tick just before each (one more is heard
        // after the last frame of a burst: one wake-up, then sleep).
        if window.reportsVBlanks { window.askForVBlank() }
        return session.needsDraw || ink.predictedSince != nil || widgets?.isCatchingUp == true
    }

    /// Ends the session: what is still queued is played (a stroke ended by a signal, say) and
    /// journaled, the journal is marked clean, the recording flushed, statistics printed.
    public func finish(_ loop: FrameLoop) {
        if play != nil {
            play?.playRest()
            endPlay()
        }
        let last = FrameInfo(index: logs.lastFrame + 1, timestamp: loop.now, targetTimestamp: loop.now)
        let stamped = stampSamples(last.index)
        record(session.draw(last, to: window).played, inFrame: last.index, loop, stamped: stamped)
        session.settle()
        waitForWrites()
        logs.close()
        if var stats {
            stats.clock = clockDescription
            transfers.console.out(stats.report(framesDrawn: loop.framesDrawn, missed: loop.missedDeadlines))
        }
    }

    // MARK: - Frames

    /// The immediate ink path: the pen samples just queued are drawn and presented now, if the
    /// last present has completed (else they wait for the next wake-up, which its completion
    /// brings). They are recorded with the frame that would have played them: the pixels, the
    /// recording and the journal are those the frame path would have made.
    func drawInk(_ loop: FrameLoop) -> Bool {
        guard !window.isPresentPending else { return false }
        let started = loop.now
        let stamped = stampSamples(loop.upcomingFrame, inkOnly: true)
        let drawn = session.drawInk(to: window)
        guard !drawn.played.isEmpty else { return false }
        record(drawn.played, inFrame: loop.upcomingFrame, loop, stamped: stamped)
        if !drawn.presented.isEmpty {
            ink.presented()
            if var s = stats {
                window.waitForPresentCompletion()
                s.presented(started: started, completed: loop.now, by: .ink)
                stats = s
            }
        }
        return true
    }

    /// Waits for the files being written (a save, a screenshot) and shows what they say: at the
    /// end of a session, and in tests.
    public func waitForWrites() {
        transfers.writes.wait()
        takeFinishedWrites()
        showStatus()
    }

    func takeFinishedWrites() {
        let (said, saved) = transfers.finishedWrites()
        // The journal notes the document's file, so that a restore after a crash goes on with it.
        // Events queued meanwhile play before the note, though the file does not hold them:
        // then it says edited.
        if saved, let file = transfers.names.path {
            session.handle(.command(.document(file: file, edited: transfers.names.edited || session.queuedCount > 0)))
        }
        if let said {
            statusLine.message = said
            statusLine.isStale = true
        }
    }

    /// With a MyPaint brush in use (chosen, by the frame's events too, or still drawing its
    /// stroke), gives the frame's queued samples the times the journal will hold, at their own
    /// gaps (a MyPaint brush's dtime comes from them), and returns them for `record`; nil otherwise.
    /// `inkOnly`: just the samples the ink path is about to play (`Session.queuedInkCount`), as
    /// early in the frame that records them as their gaps allow, for more may follow them before it.
    private func stampSamples(_ frame: Int, inkOnly: Bool = false) -> SampleTimes? {
        // The ink path plays no command, so no brush chosen after its samples.
        let chosen = !inkOnly && session.upcomingBrush.mypaint != nil
        guard session.brush.mypaint != nil || chosen || session.isDrawingMyPaint else { return nil }
        let own = session.queuedSampleTimes
        let stamped = logs.sampleTimes(own: inkOnly ? Array(own.prefix(session.queuedInkCount)) : own, inFrame: frame, early: inkOnly)
        session.stampQueued(stamped.times)
        return stamped
    }

    /// Records and journals what was played (syncing once a stroke or command ended), at the
    /// times `stamped` gave the samples if it did; a change to the picture marks the document edited.
    func record(_ played: [SessionEvent], inFrame index: Int, _ loop: FrameLoop, stamped: SampleTimes? = nil) {
        if logs.record(played, inFrame: index, stamped: stamped) { logs.strokeEnded(now: loop.now, session: session) }
        if played.contains(where: { if case .command(.layer) = $0 { true } else { $0.changesThePicture } }) { widgets?.layers?.needsRows = true }
        sayWhatCommandsDid(played)
        if played.contains(where: \.changesThePicture) {
            if !transfers.names.edited { statusLine.isStale = true }
            transfers.names.changed()
        }
    }

    /// A frame of a `window --play`.
    func playFrame(_ frame: FrameInfo, _ loop: FrameLoop) -> Bool {
        logs.frameDrawn(frame.index)
        if play?.frame(frame, now: loop.now, session: session, presenter: window) == true { endPlay() }
        showStatus()
        return true
    }

    /// The play is over: the window's own session goes on from here, as if it had just opened
    /// on the played file, with its clock starting now.
    func endPlay() {
        play?.end(session: session)
        play = nil
        logs.restartClock()
    }

    /// Shows the status in the title (and the status strip) when it changed, and the layers in
    /// their panel when the document changed, once no stroke is open: a thumbnail made again
    /// every frame of a stroke held up the ink (the pen is on the canvas, not on the panel).
    func showStatus() {
        if let panel = widgets?.layers, panel.needsRows, panel.isOpen, widgets?.hidden == false, !session.isStroking {
            panel.show(layerRows.panel(session.document, scale: panel.scale, visibleRows: panel.visibleRows))
        }
        widgets?.symmetry?.show(symmetryGuide)
        let prompt = play?.prompt ?? router.prompt ?? (desktop.chooser?.purpose == nil ? nil : "the file chooser is open")
        let current = Status(brush: session.brush, pressure: router.pressure.shown, layer: Status.describeLayer(session.document),
                             zoom: session.view.transform.percent, prompt: prompt, warning: logs.warning, message: nil,
                             journaled: logs.journal != nil, document: transfers.names.title,
                             symmetry: Status.describe(session.symmetry))
        guard let (s, titleChanged) = statusLine.update(current) else { return }
        if titleChanged { window.setTitle(s.title) }
        widgets?.status?.show(s.strip)
        widgets?.palette?.sync(with: session.brush)
    }
}
