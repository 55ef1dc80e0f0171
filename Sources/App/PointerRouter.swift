import Events
import Geometry
import Input
import Kernels
import Strokes
import UI

/// What the window's input means, as one value: (state, input event) → (state, actions). Pure:
/// no session, no widget and no window in it; what it needs of them comes in a `Context`, and
/// what it decides goes out as `RouterAction`s, which `PaintApp` carries out. Its tests drive it
/// with events alone (Tests/AppTests/PointerRouterTests.swift).
///
/// Every mode the pointer and keyboard can be in is one case of `Mode`: at most one at a time.
/// Besides it the router keeps only what outlives a mode: whether Space is held, and each
/// sample's pressure (`Pressure`, the one place that decides it).
public struct PointerRouter: Sendable, Equatable {
    public enum Mode: Equatable, Sendable {
        /// No button down: the pointer hovers (the brush outline follows it) and keys act.
        case idle
        /// Button 1 draws a stroke. `restoring`: the stylus's eraser end erases, and this is the
        /// brush kind to go back to when it lifts. `paste`: the clipboard's answer to a Ctrl+V
        /// came meanwhile, and is pasted once the stroke ends (a paste would end it there, and
        /// the rest of the stroke would draw nothing).
        case drawing(restoring: BrushKind?, paste: ClipboardImage? = nil)
        /// A drag moves the view.
        case panning(Pan)
        /// Shift+Space and a drag turn the view about the window's centre.
        case turning(Turn)
        /// `c` armed the colour picker: the next press takes the colour under it.
        case pickArmed
        /// The press was at this canvas point: the colour is taken at the next frame, once all
        /// before it has been played; the input after it waits in `held` until then.
        case picking(x: Double, y: Double, held: [InputEvent])
        /// A colour is being typed (`#` …).
        case typingColor(ColorEntry)
        /// A name is being typed: a file's, to save or open, or the current layer's.
        case typingName(NameEntry)
        /// Button 1 went down on a widget: the drag and the release are the widget's.
        case inWidget(WidgetID)
        /// A press that only closed something: it draws nothing, to its release.
        case swallowing
        /// Button 1 went down on mirror painting's centre: the drag moves its axes.
        case movingSymmetry
    }

    /// A panning drag: what holds it, where it started (window pixels), the view then.
    public struct Pan: Equatable, Sendable {
        public enum Hand: Equatable, Sendable {
            /// The middle button.
            case middle
            /// Button 1 with Space held.
            case space
        }
        public var hand: Hand
        public var x: Int, y: Int
        public var from: ViewTransform
    }

    /// A turning drag: the window's centre, the pointer's angle about it when it started
    /// (degrees), the view then.
    public struct Turn: Equatable, Sendable {
        public var cx: Double, cy: Double
        public var start: Double
        public var from: ViewTransform
    }

    public internal(set) var mode = Mode.idle
    /// Space is held: a button-1 press pans instead of drawing.
    public internal(set) var spaceHeld = false
    /// Decides each sample's pressure.
    public internal(set) var pressure = Pressure()
    /// Where the pointer last hovered over the window (nil once it left): the outline is drawn
    /// again there when a key changes the brush or the zoom.
    var hovering: PointerSample?
    /// The last press on a widget: a second one close to it, soon after, is a double-click.
    var lastWidgetPress: PointerSample?
    /// The symmetry `y` last turned off, which it turns on again.
    var symmetryTurnedOff: Symmetry?
    /// The canvas point the last turning key turned about, and the view it made: the next key
    /// turns about the same point while the view is still that one (not moved, zoomed or
    /// turned otherwise since), so that turns do not drift.
    var turnPivot: TurnPivot?

    /// A double-click: the second press within this many seconds of the first…
    static let doubleClickSeconds = 0.4
    /// …and this many window pixels of it, either way.
    static let doubleClickPixels = 4.0

    public init() {}

    /// What the router reads of the world to decide: the brush and the view as the queued
    /// events will leave them, and what lies under a window point.
    public struct Context {
        public var brush: Brush
        public var view: ViewTransform
        /// The window's size: the view turns and mirrors about its centre.
        public var window: Size
        public var hit: (Double, Double) -> Widgets.Target
        /// The widget the wheel scrolls at a window point, if one does.
        public var scroller: (Double, Double) -> WidgetID?
        /// A `window --play` is under way: any key or click asks for its end.
        public var playing: Bool
        /// The document's file, and the names a save or an open suggest.
        public var names: DocumentNames
        /// Why a stroke cannot start now (the current layer is hidden), if it cannot.
        public var refusal: String?
        /// The current layer's name (F2 starts from it).
        public var layerName: String
        /// Whether a double-click at a window point renames the current layer (a layer panel row's).
        public var renamesAt: (Double, Double) -> Bool
        /// Whether a file's name is asked through the desktop's chooser, and if it is open.
        public var chooser: ChooserState
        /// The open widget the page keys turn (the key help), if one is.
        public var pager: WidgetID?
        /// Mirror painting as the queued events will leave it, and the document's frame (its
        /// axes first go through the middle).
        public var symmetry: Symmetry
        public var frame: Rect
        /// Where the symmetry's centre handle is shown, in window pixels (nil: not shown).
        public var symmetryHandle: (x: Double, y: Double)?
        public init(brush: Brush = Brush(), view: ViewTransform = .identity, window: Size = Size(width: 800, height: 600), playing: Bool = false, names: DocumentNames = DocumentNames(),
                    refusal: String? = nil, pager: WidgetID? = nil, layerName: String = "", chooser: ChooserState = .absent,
                    symmetry: Symmetry = .off, frame: Rect = .empty, symmetryHandle: (x: Double, y: Double)? = nil,
                    scroller: @escaping (Double, Double) -> WidgetID? = { _, _ in nil },
                    hit: @escaping (Double, Double) -> Widgets.Target = { _, _ in .canvas },
                    renamesAt: @escaping (Double, Double) -> Bool = { _, _ in false }) {
            self.brush = brush; self.view = view; self.window = window; self.hit = hit; self.playing = playing; self.names = names; self.refusal = refusal
            self.symmetry = symmetry; self.frame = frame; self.symmetryHandle = symmetryHandle
            self.scroller = scroller
            self.pager = pager
            self.layerName = layerName; self.renamesAt = renamesAt; self.chooser = chooser
        }
    }

    /// The prompt the status shows for the mode: a colour being typed, the picker armed.
    public var prompt: String? {
        switch mode {
        case .typingColor(let entry): entry.prompt
        case .typingName(let entry): entry.prompt
        case .pickArmed, .picking: "pick a colour: click on the canvas (Escape cancels)"
        default: nil
        }
    }

    /// True while button 1 draws.
    public var isDrawing: Bool { if case .drawing = mode { true } else { false } }

    /// True while the brush outline may show (no button down, nothing armed).
    var showsOutline: Bool { mode == .idle }

    /// Routes one input event.
    public mutating func route(_ event: InputEvent, _ context: Context) -> [RouterAction] {
        if case .picking(let x, let y, var held) = mode {
            held.append(event)
            mode = .picking(x: x, y: y, held: held)
            return []
        }
        if context.playing { return routeWhilePlaying(event) }
        switch event {
        case .pointerDown(let s): return press(s, context)
        case .pointerMove(let s): return move(s, context)
        case .pointerUp(let s): return release(s, context)
        case .hover(let s):
            hovering = s
            return [outline(at: s)]
        case .leave:
            hovering = nil
            return [.hideOutline]
        case .button(let button, let down, let s): return self.button(button, down, s, context)
        case .key(let key):
            let out = self.key(key, context)
            // A new size, kind or zoom shows at once, not at the pointer's next move.
            guard let at = hovering, showsOutline, out.contains(where: \.changesTheBrushOrView) else { return out }
            return out + [outline(at: PointerSample(x: at.x, y: at.y, pressure: at.pressure, time: key.time, mods: key.mods))]
        case .keyRelease(let key):
            if key.key == Key.space { spaceHeld = false }
            return []
        case .modifiers(let mods, let t):
            pressure.modifiersChanged(mods, at: t)
            return []
        case .resize(let size, _): return [.windowResized(size)]
        case .expose: return [.expose]
        case .close: return [.app(.quit)]
        case .paste(let answer):
            if case .drawing(let restoring, _) = mode {
                mode = .drawing(restoring: restoring, paste: answer)
                return []
            }
            return [.app(.pasted(answer))]
        }
    }

    /// The pick at the frame is made: the input held back since its press, to route again in order.
    public mutating func pickMade() -> [InputEvent] {
        guard case .picking(_, _, let held) = mode else { return [] }
        mode = .idle
        return held
    }

    /// The canvas point under a pick's press, if a pick waits for the frame.
    public var pendingPick: (x: Double, y: Double)? {
        if case .picking(let x, let y, _) = mode { (x, y) } else { nil }
    }

    // MARK: - Button 1

    mutating func press(_ s: PointerSample, _ c: Context) -> [RouterAction] {
        var out: [RouterAction] = [.hideOutline]
        switch mode {
        case .pickArmed:
            let at = c.view.canvasPoint(x: s.x, y: s.y)
            mode = .picking(x: at.x, y: at.y, held: [])
            return out
        case .typingColor, .typingName:
            // A click leaves the entry, as it leaves a text field.
            mode = .idle
            out.append(.statusChanged)
        case .idle: break
        case .drawing, .panning, .inWidget, .swallowing, .picking, .movingSymmetry, .turning: return []
        }
        switch c.hit(s.x, s.y) {
        case .outside(let id, let under?):
            mode = .inWidget(under)
            out += [.closeWidget(id), .widget(under, .press, x: s.x, y: s.y)]
        case .outside(let id, nil):
            mode = .swallowing
            out.append(.closeWidget(id))
        case .widget(let id):
            if let last = lastWidgetPress, s.time - last.time <= Self.doubleClickSeconds,
               abs(s.x - last.x) <= Self.doubleClickPixels, abs(s.y - last.y) <= Self.doubleClickPixels, c.renamesAt(s.x, s.y) {
                // The first click chose the row; the second renames it, as F2 does.
                lastWidgetPress = nil
                mode = .typingName(NameEntry(.rename, suggestion: c.layerName))
                return out + [.statusChanged]
            }
            lastWidgetPress = s
            mode = .inWidget(id)
            out.append(.widget(id, .press, x: s.x, y: s.y))
        case .canvas where Self.grabs(c.symmetryHandle, s):
            mode = .movingSymmetry
        case .canvas where spaceHeld && s.mods.contains(.shift):
            let (cx, cy) = centre(c)
            mode = .turning(Turn(cx: cx, cy: cy, start: ViewTransform.degrees(s.x - cx, s.y - cy), from: c.view))
        case .canvas where spaceHeld:
            mode = .panning(Pan(hand: .space, x: whole(s.x), y: whole(s.y), from: c.view))
        case .canvas where c.refusal != nil:
            // As Krita does: a stroke nobody would see is not drawn, and the status says why.
            mode = .swallowing
            out.append(.say(c.refusal ?? ""))
        case .canvas:
            var kind = c.brush.tip.kind, restoring: BrushKind?
            // The eraser end erases whatever brush is selected, for this stroke.
            if s.tool == .eraser, kind != .eraser {
                restoring = kind
                kind = .eraser
                out.append(.session(.command(.brush(kind: .eraser)), at: s.time))
            }
            if kind != .eraser { out.append(.strokeStarted(c.brush.color)) }
            mode = .drawing(restoring: restoring)
            out.append(.session(.pointerDown(onCanvas(s, c)), at: s.time))
        }
        return out
    }

    mutating func move(_ s: PointerSample, _ c: Context) -> [RouterAction] {
        switch mode {
        case .panning(let pan): [.session(.view(pan.from.moved(by: whole(s.x) - pan.x, whole(s.y) - pan.y)), at: s.time)]
        case .turning(let turn): [.session(.view(turned(turn, to: s)), at: s.time)]
        case .inWidget(let id): [.widget(id, .drag, x: s.x, y: s.y)]
        case .drawing: [.session(.pointerMove(onCanvas(s, c)), at: s.time)]
        case .movingSymmetry: [.session(.command(.symmetry(symmetry(movedTo: s, c))), at: s.time)]
        case .idle, .pickArmed, .picking, .typingColor, .typingName, .swallowing: []
        }
    }

    mutating func release(_ s: PointerSample, _ c: Context) -> [RouterAction] {
        var out: [RouterAction] = []
        switch mode {
        case .drawing(let restoring, let paste):
            out.append(.session(.pointerUp(onCanvas(s, c)), at: s.time))
            if let restoring { out.append(.session(.command(.brush(kind: restoring)), at: s.time)) }
            if let paste { out.append(.app(.pasted(paste))) }
        case .inWidget(let id): out.append(.widget(id, .release, x: s.x, y: s.y))
        case .movingSymmetry: out.append(.session(.command(.symmetry(symmetry(movedTo: s, c))), at: s.time))
        case .panning(let pan) where pan.hand == .space: break
        case .swallowing, .turning: break
        case .panning, .idle, .pickArmed, .picking, .typingColor, .typingName: return []
        }
        mode = .idle
        out.append(outline(at: s))
        return out
    }

    /// How near the symmetry's centre handle, in window pixels, a press takes it.
    static let handleReach = 8.0

    /// Whether a press at `s` takes the symmetry's centre handle (where one is shown).
    static func grabs(_ handle: (x: Double, y: Double)?, _ s: PointerSample) -> Bool {
        guard let handle else { return false }
        return abs(s.x - handle.x) <= handleReach && abs(s.y - handle.y) <= handleReach
    }

    /// The brush's outline under a sample, where it shows.
    func outline(at s: PointerSample) -> RouterAction {
        showsOutline ? .outline(x: s.x, y: s.y, pressure: pressure.outline(s)) : .hideOutline
    }

    /// A sample as the session draws it: its pressure decided, its position on the canvas.
    mutating func onCanvas(_ s: PointerSample, _ c: Context) -> StrokeSample {
        var sample = pressure.decide(s)
        (sample.x, sample.y) = c.view.canvasPoint(x: sample.x, y: sample.y)
        return sample
    }

    func whole(_ v: Double) -> Int { Int(v.rounded(.down)) }

    // MARK: - Other buttons

    mutating func button(_ button: PointerButton, _ down: Bool, _ s: PointerSample, _ c: Context) -> [RouterAction] {
        switch button {
        case .middle where down:
            guard mode == .idle else { return [] }
            mode = .panning(Pan(hand: .middle, x: whole(s.x), y: whole(s.y), from: c.view))
            return [.hideOutline]
        case .middle:
            guard case .panning(let pan) = mode, pan.hand == .middle else { return [] }
            mode = .idle
            return [outline(at: s)]
        case .wheelUp, .wheelDown:
            let steps = button == .wheelUp ? 1 : -1
            if mode == .idle, !s.mods.contains(.control), let id = c.scroller(s.x, s.y) { return [.widget(id, .wheel(steps), x: s.x, y: s.y)] }
            if s.mods.contains(.control) {
                let zoom = c.view.zoomStepped(by: steps, perDoubling: Self.wheelZoomSteps)
                return [.session(.view(c.view.zoomed(to: zoom, around: Double(whole(s.x)), Double(whole(s.y)))), at: s.time)]
            }
            return [.session(.view(scrolled(c.view, down: s.mods.contains(.shift) ? 0 : -steps,
                                             right: s.mods.contains(.shift) ? -steps : 0)), at: s.time)]
        case .wheelLeft: return [.session(.view(scrolled(c.view, down: 0, right: -1)), at: s.time)]
        case .wheelRight: return [.session(.view(scrolled(c.view, down: 0, right: 1)), at: s.time)]
        case .right where down:
            guard !isDrawing else { return [] }
            return [.toggleWidget(.palette, x: s.x, y: s.y)]
        case .right: return []
        }
    }

    /// Window pixels the wheel pans per click.
    public static let wheelStep = 64

    /// Ctrl+wheel clicks that double the zoom: 2^¼ a click, powers of two on the way.
    public static let wheelZoomSteps = 4

    /// `view` zoomed in (`steps` > 0) or out by factors of two, the canvas point under window
    /// point (x, y) kept still.
    func zoomed(_ view: ViewTransform, by steps: Int, _ x: Double, _ y: Double) -> ViewTransform {
        var zoom = view.zoom
        for _ in 0..<abs(steps) { zoom = steps > 0 ? zoom * 2 : zoom / 2 }
        return view.zoomed(to: zoom, around: Double(whole(x)), Double(whole(y)))
    }

    /// The window's centre, which the view turns and mirrors about (whole pixels).
    func centre(_ c: Context) -> (Double, Double) { (Double(c.window.width / 2), Double(c.window.height / 2)) }

    /// The view a turning drag shows at sample `s`: turned by the angle the pointer swept about
    /// the centre, to a hundredth of a degree.
    func turned(_ turn: Turn, to s: PointerSample) -> ViewTransform {
        let swept = ViewTransform.degrees(s.x - turn.cx, s.y - turn.cy) - turn.start
        let angle = ((turn.from.angle + swept) * 100).rounded() / 100
        return turn.from.turned(to: angle, around: turn.cx, turn.cy)
    }

    /// `view` after wheel clicks: the canvas moves the way the page does under a wheel.
    func scrolled(_ view: ViewTransform, down: Int, right: Int) -> ViewTransform {
        view.moved(by: -right * Self.wheelStep, -down * Self.wheelStep)
    }

    // MARK: - While playing

    /// During a `window --play` a key or a button asks for the end (Ctrl+Q and the close button
    /// quit); the drag a press begins draws nothing, even once the play has ended.
    mutating func routeWhilePlaying(_ event: InputEvent) -> [RouterAction] {
        switch event {
        case .key(let key): return KeyMap.action(for: key) == .quit ? [.app(.quit)] : [.jumpToEnd]
        case .pointerDown:
            mode = .swallowing
            return [.jumpToEnd]
        case .pointerUp:
            mode = .idle
            return []
        case .button(_, isDown: true, _): return [.jumpToEnd]
        case .resize(let size, _): return [.windowResized(size)]
        case .expose: return [.expose]
        case .close: return [.app(.quit)]
        case .pointerMove, .hover, .leave, .button, .keyRelease, .modifiers, .paste: return []
        }
    }
}
