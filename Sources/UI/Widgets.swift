import Compute
import Events
import Geometry
import Strokes

/// Every piece of on-canvas UI, in one z-ordered list, as the one `Overlay` the session draws
/// over the canvas: one hit test for the app's pointer router, one way to draw, one damage.
/// The window's pieces, bottom first: mirror painting's axes, the status strip, the layer panel, the shading editor, the
/// pop-up palette, the brush chooser, the key help and the brush outline (`standard`); a new
/// panel is one more entry.
public final class Widgets: Overlay {
    /// 1 at 96 dpi, 2 at 192: every piece's size and its font pixel.
    public let scale: Double
    public private(set) var windowSize: Size
    /// Bottom first.
    public private(set) var list: [any Widget]
    /// Tab: every piece hidden (Krita's canvas-only mode).
    public private(set) var hidden = false
    private var damage = Rect.empty

    /// The scales the UI is drawn at.
    public static let scales = 1.0...4.0

    /// The scale for a screen of `dpi` (the X resources' Xft.dpi): 96 → 1, 192 → 2, half steps
    /// between, 1 when unknown.
    public static func scale(forDPI dpi: Double?) -> Double {
        guard let dpi, dpi.isFinite, dpi > 0 else { return 1 }
        return min(max((dpi / 96 * 2).rounded() / 2, scales.lowerBound), scales.upperBound)
    }

    public init(windowSize: Size, scale: Double, list: [any Widget]) {
        self.windowSize = windowSize
        self.scale = scale
        self.list = list
    }

    /// The window's widgets, bottom first: the symmetry's axes, the status strip, the layer
    /// panel (open with `layers`), the shading editor, the palette, the brush chooser, the key
    /// help (listing `help`), the outline; their text in `font`.
    public static func standard(windowSize: Size, scale: Double, font: UIFont, help: [(keys: String, does: String)] = [],
                                layers: Bool = false) -> Widgets {
        Widgets(windowSize: windowSize, scale: scale, list: [
            SymmetryWidget(),
            StatusStripWidget(windowSize: windowSize, scale: scale, font: font),
            LayerPanelWidget(windowSize: windowSize, scale: scale, font: font, open: layers),
            ShadingEditorWidget(windowSize: windowSize, scale: scale, font: font),
            PaletteWidget(windowSize: windowSize, scale: scale, font: font),
            BrushChooserWidget(windowSize: windowSize, scale: scale, font: font),
            HelpWidget(windowSize: windowSize, scale: scale, font: font, entries: help),
            OutlineWidget(),
        ])
    }

    /// The widget of type `W` in the list (the first one).
    public func first<W: Widget>(_ type: W.Type) -> W? { list.lazy.compactMap { $0 as? W }.first }

    public func widget(_ id: WidgetID) -> (any Widget)? { list.first { $0.id == id } }

    public var palette: PaletteWidget? { first(PaletteWidget.self) }
    public var editor: ShadingEditorWidget? { first(ShadingEditorWidget.self) }
    public var status: StatusStripWidget? { first(StatusStripWidget.self) }
    public var outline: OutlineWidget? { first(OutlineWidget.self) }
    public var help: HelpWidget? { first(HelpWidget.self) }
    public var layers: LayerPanelWidget? { first(LayerPanelWidget.self) }
    public var chooser: BrushChooserWidget? { first(BrushChooserWidget.self) }
    public var symmetry: SymmetryWidget? { first(SymmetryWidget.self) }

    /// What a press at a window point is for.
    public enum Target: Equatable, Sendable {
        /// A widget that takes the press.
        case widget(WidgetID)
        /// This open widget closes on a press outside it; the press goes on to the widget under
        /// it, if one is there (the shading editor beside the open palette), else does nothing.
        case outside(WidgetID, under: WidgetID? = nil)
        case canvas
    }

    /// The one hit test: the topmost shown widget under (x, y) that the pointer works.
    public func hit(_ x: Double, _ y: Double) -> Target {
        guard !hidden else { return .canvas }
        let shown = list.reversed().compactMap { $0 as? any InteractiveWidget }.filter { $0.frame != nil }
        for (i, w) in shown.enumerated() {
            if w.contains(x, y) { return .widget(w.id) }
            if w.closesOnPressOutside {
                let under = shown[(i + 1)...].first { !$0.closesOnPressOutside && $0.contains(x, y) }
                return .outside(w.id, under: under?.id)
            }
        }
        return .canvas
    }

    /// The widget the wheel scrolls at (x, y), if the topmost one there scrolls.
    public func scroller(at x: Double, _ y: Double) -> WidgetID? {
        guard case .widget(let id) = hit(x, y), interactive(id)?.scrolls == true else { return nil }
        return id
    }

    /// The topmost shown widget whose pages the keys turn (the key help), if one is open.
    public var pager: WidgetID? {
        guard !hidden else { return nil }
        return list.reversed().first { $0 is any PagedWidget && $0.frame != nil }?.id
    }

    /// Opens the widget named `id` (showing every widget again, and hiding the outline) at
    /// window point (x, y), or closes it.
    public func toggle(_ id: WidgetID, atX x: Double, y: Double, brush: Brush) {
        guard let w = widget(id) as? any ToggledWidget else { return }
        if !w.isOpen {
            setHidden(false)
            outline?.show(nil)
        }
        w.toggle(atX: x, y: y, brush: brush)
    }

    /// Closes the topmost open widget that closes on a press outside it (Escape); false when
    /// none is open.
    public func closePopUp() -> Bool {
        for case let w as any InteractiveWidget in list.reversed() where w.closesOnPressOutside && w.frame != nil {
            w.close()
            return true
        }
        return false
    }

    /// The interactive widget named `id`, if it is one.
    public func interactive(_ id: WidgetID) -> (any InteractiveWidget)? { widget(id) as? any InteractiveWidget }

    /// Hides every piece, or shows them again.
    public func setHidden(_ hide: Bool) {
        guard hide != hidden else { return }
        // What changed while shown (a palette just closed) must still be shown changed; what
        // changes while hidden is never shown (everything is, when they show again).
        for w in list {
            let d = w.takeDamage()
            if !hidden { damage = damage.union(d) }
        }
        hidden = hide
        damage = damage.union(everything)
    }

    /// The window changed size: pieces pinned to its corners move with them.
    public func windowResized(to size: Size) {
        guard size != windowSize else { return }
        damage = damage.union(everything)
        windowSize = size
        for w in list { w.windowResized(to: size) }
        damage = damage.union(everything)
    }

    private var everything: Rect { list.compactMap(\.frame).reduce(Rect.empty) { $0.union($1) } }

    /// The brush's outline under window point (x, y) for `tip` at `pressure` and `zoom`, where
    /// the canvas is under it and `shown`; hidden otherwise.
    public func showOutline(x: Double, y: Double, tip: BrushTip, pressure: Double, zoom: Double, shown: Bool) {
        outline?.show(shown && hit(x, y) == .canvas ? BrushOutline(x: x, y: y, tip: tip, pressure: pressure, zoom: zoom) : nil)
    }

    /// True while a widget has work put off: the frame clock should keep running.
    public var isCatchingUp: Bool { list.contains { $0.isCatchingUp } }

    /// A frame's share of the work the widgets put off. Call once before each frame is drawn.
    public func catchUp() { for w in list { w.catchUp(shown: !hidden) } }

    /// Something changed that the next frame must show.
    public var hasDamage: Bool { !damage.isEmpty || (!hidden && list.contains { $0.hasDamage }) }

    // MARK: - Overlay

    public func takeDamagePieces() -> [Rect] {
        var pieces = [damage]
        damage = .empty
        for w in list {
            let wd = w.takeDamage()
            if !hidden { pieces.append(wd) }
        }
        return pieces.filter { !$0.isEmpty }
    }

    /// What changed since the last call, as one rectangle (`takeDamagePieces`' bounds).
    public func takeDamage() -> Rect { takeDamagePieces().reduce(Rect.empty) { $0.union($1) } }

    public func draw(into target: Texture<UInt32>, clip: Rect) {
        guard !hidden else { return }
        for w in list { w.draw(into: target, clip: clip) }
    }
}
