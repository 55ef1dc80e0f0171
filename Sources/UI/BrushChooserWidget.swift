import Compute
import Events
import Geometry

extension WidgetID {
    public static let brushChooser = WidgetID("brushChooser")
}

/// The brush chooser (`BrushChooser`) as a widget: opened by its key or the palette's
/// "Brushes…" button, centred in the window; the wheel scrolls it; a click on a brush is the
/// command that chooses that MyPaint brush (the same the palette's ring sends) and closes it; a
/// press outside, Escape or the key again closes it.
public final class BrushChooserWidget: InteractiveWidget, ToggledWidget {
    public let id = WidgetID.brushChooser
    public let scale: Double
    private let font: UIFont
    private var windowSize: Size
    public private(set) var chooser: BrushChooser?
    private var groups: [BrushChooser.Group] = []
    private var icons: BrushIcons?
    private let surface = WidgetSurface()

    public init(windowSize: Size, scale: Double, font: UIFont) {
        self.windowSize = windowSize
        self.scale = scale
        self.font = font
    }

    /// The packs and brushes it offers, their icons from `icons`.
    public func setBrushes(_ groups: [BrushChooser.Group], icons: BrushIcons?) {
        self.groups = groups
        self.icons = icons
    }

    public var frame: Rect? { surface.rect }
    public var isOpen: Bool { chooser != nil }
    public var closesOnPressOutside: Bool { true }

    public func toggle(atX x: Double, y: Double, brush: Brush) {
        isOpen ? close() : show(BrushChooser(groups: groups, current: brush.mypaint?.name, scale: scale, fitting: windowSize))
    }

    public func close() { show(nil) }

    private func show(_ new: BrushChooser?) {
        chooser = new
        surface.place(new.map { c in
            Rect(x: max(0, (windowSize.width - c.width) / 2), y: max(0, (windowSize.height - c.height) / 2), width: c.width, height: c.height)
        })
    }

    public func windowResized(to size: Size) {
        windowSize = size
        if let c = chooser { show(BrushChooser(groups: groups, current: c.current, scale: scale, fitting: size)) }
    }

    private func hit(_ x: Double, _ y: Double) -> BrushChooser.Hit? {
        guard let c = chooser, let r = surface.rect else { return nil }
        return c.hit(x - Double(r.minX), y - Double(r.minY))
    }

    public func contains(_ x: Double, _ y: Double) -> Bool { hit(x, y) != nil }

    public func press(x: Double, y: Double, brush: Brush) -> [Command] {
        guard case .brush(let name) = hit(x, y) else { return [] }
        close()
        return [.mypaint(MyPaintChoice(name: name, color: brush.color))]
    }

    public func drag(x: Double, y: Double, brush: Brush) -> [Command] { [] }
    public func release(x: Double, y: Double, brush: Brush) -> [Command] { [] }

    public var scrolls: Bool { true }

    public func wheel(_ steps: Int, x: Double, y: Double) {
        guard var c = chooser, let r = surface.rect, c.scroll(by: steps) else { return }
        chooser = c
        surface.changed(r)
    }

    public var hasDamage: Bool { surface.hasDamage }
    public func takeDamage() -> Rect { surface.takeDamage() }

    public func draw(into target: Texture<UInt32>, clip: Rect) {
        guard let c = chooser else { return }
        let side = BrushChooser.iconSide(scale: scale)
        surface.draw(into: target, clip: clip) { r in
            Sprite(x: r.minX, y: r.minY, width: r.width, height: r.height) { p in c.draw(p, font: font) { icons?.icon($0, side: side) } }
        }
    }
}
