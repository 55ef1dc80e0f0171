import Compute
import Events
import Geometry

/// Names a widget, for the app's pointer router to say which one a press went to. Each widget
/// declares its own (`WidgetID.palette` beside `PaletteWidget`): a new widget adds a name, not
/// a case to a switch.
public struct WidgetID: Hashable, Sendable, CustomStringConvertible {
    public let name: String
    public init(_ name: String) { self.name = name }
    public var description: String { name }
}

/// A piece of on-canvas UI in the `Widgets` list: it knows where it lies, draws itself, and
/// says what of the window it changed. It never acts on the session: an interactive one turns
/// presses into the same `Command`s the keys send.
public protocol Widget: AnyObject {
    var id: WidgetID { get }
    /// Where it lies in the window; nil while it is not shown.
    var frame: Rect? { get }
    /// True when it changed something the next frame must show.
    var hasDamage: Bool { get }
    /// The window area it changed since the last call (where it was and where it is now).
    func takeDamage() -> Rect
    /// Draws its part within `clip` onto `target`, over what is there.
    func draw(into target: Texture<UInt32>, clip: Rect)
    /// The window changed size: a widget pinned to a corner moves with it.
    func windowResized(to size: Size)
    /// True while it has work put off to later frames (`catchUp`).
    var isCatchingUp: Bool { get }
    /// A frame's share of the work it puts off; `shown`: the widgets are on screen (not hidden
    /// by Tab), so what it shows must be brought up to date first.
    func catchUp(shown: Bool)
}

extension Widget {
    public var isCatchingUp: Bool { false }
    public func catchUp(shown: Bool) {}
    public func windowResized(to size: Size) {}
}

/// A widget opened and closed by a key or a button (the palette by a right click, the editor
/// by `l`).
public protocol ToggledWidget: Widget {
    var isOpen: Bool { get }
    /// Opens it at window point (x, y) where it opens at the pointer, showing `brush`; or
    /// closes it.
    func toggle(atX x: Double, y: Double, brush: Brush)
}

/// A widget the pointer works: button 1 pressed on it, dragged (wherever the drag goes) and
/// released. Each returns the commands the gesture makes (a colour, a size, a shading), given
/// the brush as the queued commands will leave it.
public protocol InteractiveWidget: Widget {
    /// True when window point (x, y) lies on it (where it is shown).
    func contains(_ x: Double, _ y: Double) -> Bool
    /// A press anywhere else closes it (the pop-up palette), and does nothing more.
    var closesOnPressOutside: Bool { get }
    /// Closes it (a press outside, Escape).
    func close()
    func press(x: Double, y: Double, brush: Brush) -> [Command]
    func drag(x: Double, y: Double, brush: Brush) -> [Command]
    func release(x: Double, y: Double, brush: Brush) -> [Command]
    /// The wheel over it scrolls it (else the wheel goes on to the canvas).
    var scrolls: Bool { get }
    /// The wheel turned over it, `steps` clicks (> 0: up).
    func wheel(_ steps: Int, x: Double, y: Double)
    /// A widget the last gesture asked to open (the palette's "Brushes…" opens the chooser),
    /// once.
    func takeOpening() -> WidgetID?
}

extension InteractiveWidget {
    public var closesOnPressOutside: Bool { false }
    public var scrolls: Bool { false }
    public func wheel(_ steps: Int, x: Double, y: Double) {}
    public func takeOpening() -> WidgetID? { nil }
}

/// Which way the page keys turn a paged widget.
public enum PageTurn: Equatable, Sendable {
    case next, previous, first, last
}

/// A widget with pages the keys turn while it is shown (the key help): the router sends it Page
/// Down and Page Up, the arrows, Home and End in place of what they otherwise do.
public protocol PagedWidget: InteractiveWidget {
    /// Shows the page `turn` asks for (nothing past the first or the last).
    func turn(_ turn: PageTurn)
}

/// What a widget keeps of its place in the window: its rectangle, its sprite (drawn when it
/// changed, laid over each frame that needs it), and the damage its changes made.
final class WidgetSurface {
    private(set) var rect: Rect?
    var sprite: Sprite?
    private var damage = Rect.empty

    /// Moves (or shows, or hides with nil) it; its sprite is drawn again.
    func place(_ new: Rect?) {
        if let rect { damage = damage.union(rect) }
        if let new { damage = damage.union(new) }
        rect = new
        sprite = nil
    }

    /// Part of it changed in place: only `area` (window pixels) is shown again.
    func changed(_ area: Rect) {
        damage = damage.union(area)
        sprite = nil
    }

    var hasDamage: Bool { !damage.isEmpty }

    func takeDamage() -> Rect {
        defer { damage = .empty }
        return damage
    }

    /// Draws the sprite (made by `make` if stale) within `clip`.
    func draw(into target: Texture<UInt32>, clip: Rect, make: (Rect) -> Sprite) {
        guard let rect, !rect.intersection(clip).isEmpty else { return }
        let s = sprite ?? make(rect)
        sprite = s
        s.draw(into: target, clip: clip)
    }
}
