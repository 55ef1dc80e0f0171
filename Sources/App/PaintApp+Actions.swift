import Clock
import Compute
import Events
import Geometry
import Input
import Journal
import Paint
import UI

/// What the window's input means for the app: each event goes through the `PointerRouter`, and
/// each action it decides is carried out here (events queued on the session, widgets worked,
/// saves, copies, pastes, quitting).
extension PaintApp {
    // MARK: - Input

    /// What the router reads of the world.
    var context: PointerRouter.Context {
        let widgets = widgets
        let refusal = strokeRefusal
        return PointerRouter.Context(brush: session.upcomingBrush, view: session.upcomingView, window: window.size, playing: play != nil,
                                     names: transfers.names, refusal: refusal, pager: widgets?.pager,
                                     layerName: session.document.currentLayer.attributes.name, chooser: chooserState,
                                     symmetry: session.upcomingSymmetry, frame: session.document.frame,
                                     symmetryHandle: widgets?.hidden == false ? widgets?.symmetry?.guide.map { ($0.x, $0.y) } : nil,
                                     scroller: { x, y in widgets?.scroller(at: x, y) }, hit: { x, y in
            widgets?.hit(x, y) ?? .canvas
        }, renamesAt: { x, y in
            widgets?.layers?.renames(atX: x, y: y) ?? false
        })
    }

    /// Why a stroke cannot start on the current layer once the queued events have played: it is
    /// hidden, in a hidden group, or a group (which holds no pixels); nil when it can, or when a
    /// queued change makes that unknown until it has played.
    private var strokeRefusal: String? {
        guard let hidden = session.upcomingLayerIsHidden else { return nil }
        let d = session.document, name = d.currentLayer.attributes.name
        if d.currentLayer.isGroup { return "\(name) is a group: choose a layer in it, then draw" }
        if hidden { return "\(name) is hidden: v shows it, then draw" }
        // Read for every input event: the groups are worked out only for a layer in one.
        guard d.currentLayer.attributes.depth > 0 else { return nil }
        var i = d.current
        while let p = d.parent(of: i) {
            if !d.layers[p].attributes.visible { return "\(name) is in the hidden group \(d.layers[p].attributes.name): show it, then draw" }
            i = p
        }
        return nil
    }

    /// Mirror painting's axes as the window shows them now (nil: off).
    var symmetryGuide: SymmetryGuide? {
        let view = session.view.transform
        return SymmetryGuide(session.symmetry, window: window.size) { x, y in view.windowPoint(x: x, y: y) }
    }

    func route(_ event: InputEvent) {
        for action in router.route(event, context) { perform(action) }
    }

    /// Carries out one thing the router decided.
    func perform(_ action: RouterAction) {
        switch action {
        case .session(let event, let t):
            switch event {
            case .pointerDown(let s):
                ink.strokeStarted()
                ink.sample(t: t, x: s.x, y: s.y)
            case .pointerMove(let s): ink.sample(t: t, x: s.x, y: s.y)
            default: break
            }
            session.handle(event)
        case .widget(let id, let gesture, let x, let y):
            guard let w = widgets?.interactive(id) else { return }
            let brush = session.upcomingBrush
            let commands: [Command]
            switch gesture {
            case .press: commands = w.press(x: x, y: y, brush: brush)
            case .drag: commands = w.drag(x: x, y: y, brush: brush)
            case .release: commands = w.release(x: x, y: y, brush: brush)
            case .wheel(let steps):
                w.wheel(steps, x: x, y: y)
                commands = []
            case .page(let turn):
                (w as? any PagedWidget)?.turn(turn)
                commands = []
            }
            for c in commands { play(c) }
            if let next = w.takeOpening() { widgets?.toggle(next, atX: x, y: y, brush: session.upcomingBrush) }
        case .toggleWidget(let id, let x, let y): widgets?.toggle(id, atX: x, y: y, brush: session.upcomingBrush)
        case .closeWidget(let id): widgets?.interactive(id)?.close()
        case .closePopUp: _ = widgets?.closePopUp()
        case .toggleTools: widgets.map { $0.setHidden(!$0.hidden) }
        case .outline(let x, let y, let pressure):
            let brush = session.upcomingBrush
            widgets?.showOutline(x: x, y: y, tip: brush.tip, pressure: pressure, zoom: session.upcomingView.zoom, shown: true)
        case .hideOutline: widgets?.outline?.show(nil)
        case .strokeStarted(let color): widgets?.palette?.strokeStarted(in: color)
        case .statusChanged: statusLine.isStale = true
        case .say(let message): statusLine.message = message
        case .crosshair(let on): window.setCrosshair(on)
        case .app(let request): carryOut(request)
        case .windowResized(let size):
            // The canvas keeps its size: the window shows more or less of it.
            session.windowChanged()
            widgets?.windowResized(to: size)
        case .expose: window.presentAll()
        case .jumpToEnd: play?.jumpToEnd = true
        }
    }

    /// Queues a command a widget made. A MyPaint brush chosen by name gets its settings first
    /// (so the journal embeds them, as for `--brush`), and becomes the most recent brush: the
    /// palette's ring shows it first, now and in later sessions.
    func play(_ command: Command) {
        guard case .mypaint(let choice) = command, choice.settings == nil, let brushes = desktop.brushes else { return session.handle(.command(command)) }
        switch brushes.complete(choice) {
        case .success(let made):
            session.handle(.command(.mypaint(made)))
            brushes.used(made.name)
            widgets?.palette?.setFavourites(brushes.favourites, icons: brushes.icons)
        case .failure(let why):
            statusLine.message = "\(choice.name): \(why.message)"
        }
    }

    func carryOut(_ request: AppRequest) {
        switch request {
        case .screenshot: transfers.requestExport()
        case .save(let path): transfers.requestSave(to: path)
        case .open(let path):
            // The session ends as Ctrl+Q ends it (its journal stays, listed by `sessions`).
            if play != nil || logs.mayQuit() { ending = .open(path) } else { statusLine.message = Self.unsavedWarning }
        case .choose(let purpose): ask(purpose)
        case .copy: transfers.requestCopy()
        case .paste(let x, let y):
            transfers.requestPaste(at: x, y)
            window.requestClipboardImage()
        case .pasted(let answer):
            let (command, said) = transfers.pasted(answer, logs: logs)
            if let command { session.handle(.command(command)) }
            if let said { statusLine.message = said }
        case .quit:
            if play != nil || logs.mayQuit() { ending = .quit } else { statusLine.message = Self.unsavedWarning }
        }
    }

    static let unsavedWarning = "quit now and the strokes not yet written are lost: Ctrl+Q again quits, Ctrl+S saves the document"

    /// Takes the colour at canvas point `at`, now that everything before the click has been
    /// played, as a brush colour command (recorded, so replays pick it too); then the input
    /// held back meanwhile goes on, in order.
    func pick(at: (x: Double, y: Double)) {
        session.settle()
        if let color = session.color(at: at.x, at.y) {
            session.handle(.command(.brush(color: color)))
            statusLine.message = "picked \(color)"
        } else {
            statusLine.message = "no colour outside the canvas"
        }
        let held = router.pickMade()
        perform(.crosshair(false))
        for event in held { route(event) }
    }
}
