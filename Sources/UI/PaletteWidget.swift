import Compute
import Events
import Geometry
import Kernels
import Strokes

extension WidgetID {
    public static let palette = WidgetID("palette")
}

/// The pop-up palette (`Palette`) as a widget: opened at the pointer by a right click, closed by
/// a press outside it; a press on the hue ring or the square shows the colour at once, a drag
/// that began there goes on choosing wherever it goes, and the release makes it a command (one
/// for the journal, not one per motion event); a kind or a size is a command at the press. A
/// brush on its ring of favourites is the command that chooses that MyPaint brush, and closes
/// the palette, as Krita's does; its "Brushes…" button opens the brush chooser in its place. It
/// keeps the colours strokes were last drawn in, and follows the brush while open.
public final class PaletteWidget: InteractiveWidget, ToggledWidget {
    public let id = WidgetID.palette
    public let scale: Double
    private let font: UIFont
    private var windowSize: Size
    public private(set) var palette: Palette?
    /// The colours strokes were last drawn in, the latest first.
    public private(set) var recentColors: [Color] = []
    /// What the press in progress grabbed.
    private var grab: Palette.Hit?
    /// The favourite brushes the ring shows (none: no ring).
    public private(set) var favourites: [String] = []
    private var icons: BrushIcons?
    /// A widget a press asked to open in the palette's place.
    private var opening: WidgetID?
    private let surface = WidgetSurface()
    /// The pixels every palette of this scale shows (the panel and the hue ring), drawn once.
    private var base: TextureStorage<UInt32>?

    public init(windowSize: Size, scale: Double, font: UIFont) {
        self.windowSize = windowSize
        self.scale = scale
        self.font = font
    }

    public var frame: Rect? { surface.rect }
    public var closesOnPressOutside: Bool { true }
    /// The palette's top-left corner in the window.
    public var origin: (x: Double, y: Double)? { surface.rect.map { (Double($0.minX), Double($0.minY)) } }

    /// A stroke starts in `color`: it becomes the most recent colour.
    public func strokeStarted(in color: Color) {
        recentColors = [color] + recentColors.filter { $0 != color }.prefix(Palette.recentCount - 1)
    }

    /// The brushes the ring shows, their icons from `icons`; none: no ring.
    public func setFavourites(_ names: [String], icons: BrushIcons?) {
        favourites = Array(names.prefix(BrushRing.count))
        self.icons = icons
        if var p = palette {
            p.ring = ring(current: p.ring?.current)
            show(p)
        }
    }

    private func ring(current: String?) -> BrushRing? {
        favourites.isEmpty ? nil : BrushRing(brushes: favourites, current: current)
    }

    /// Opens (or changes) the palette; a new one is centred at window point (x, y), kept inside
    /// the window where it fits. Nil closes it.
    public func show(_ new: Palette?, atX x: Double = 0, y: Double = 0) {
        guard new != palette || new == nil else { return }
        let old = surface.rect
        palette = new
        if new == nil { grab = nil }
        surface.place(new.map { p in
            Rect(x: old?.minX ?? clamp(Int((x - p.centreOffset).rounded()), p.width, windowSize.width),
                 y: old?.minY ?? clamp(Int((y - p.centreOffset).rounded()), p.height, windowSize.height), width: p.width, height: p.height)
        })
    }

    private func clamp(_ origin: Int, _ length: Int, _ window: Int) -> Int { max(0, min(origin, window - length)) }

    public func toggle(atX x: Double, y: Double, brush: Brush) {
        if palette != nil {
            show(nil)
        } else {
            show(Palette(color: brush.color, recent: recentColors, kind: brush.tip.kind, size: brush.tip.size, scale: scale,
                         ring: ring(current: brush.mypaint?.name)), atX: x, y: y)
        }
    }

    public var isOpen: Bool { palette != nil }

    public func close() { show(nil) }

    /// The open palette shows the brush as it is now (a key may have changed it); a colour
    /// being chosen is kept until its release.
    public func sync(with brush: Brush) {
        guard var p = palette else { return }
        if grab == nil, p.color != brush.color {
            p = Palette(color: brush.color, recent: recentColors, kind: brush.tip.kind, size: brush.tip.size, scale: p.scale, ring: p.ring)
        }
        (p.kind, p.size, p.recent) = (brush.tip.kind, brush.tip.size, recentColors)
        p.ring?.current = brush.mypaint?.name
        show(p)
    }

    public func contains(_ x: Double, _ y: Double) -> Bool { hit(x, y) != nil }

    private func hit(_ x: Double, _ y: Double) -> Palette.Hit? {
        guard let p = palette, let o = origin else { return nil }
        return p.hit(x - o.x, y - o.y)
    }

    public func press(x: Double, y: Double, brush: Brush) -> [Command] {
        guard let hit = hit(x, y) else { return [] }
        grab = hit
        return choose(hit, brush: brush)
    }

    /// A press's choice: a colour is shown at once (and set at the release); a kind or a size
    /// is a command now.
    private func choose(_ hit: Palette.Hit, brush: Brush) -> [Command] {
        guard var p = palette else { return [] }
        var commands: [Command] = []
        switch hit {
        case .hue(let h): p.choose(hue: h)
        case .saturationValue(let sat, let v): (p.saturation, p.value) = (sat, v)
        case .recent(let c): p = Palette(color: c, recent: p.recent, kind: p.kind, size: p.size, scale: p.scale, ring: p.ring)
        case .kind(let k): commands = [.brush(kind: k)]
        case .size(let smaller):
            let size = brush.tip.size
            commands = [.brush(size: smaller ? max(BrushTip.sizes.lowerBound, size / 2) : min(BrushTip.sizes.upperBound, size * 2))]
        case .brush(let name):
            show(nil)
            return [.mypaint(MyPaintChoice(name: name, color: brush.color))]
        case .brushChooser:
            show(nil)
            opening = .brushChooser
            return []
        case .panel: break
        }
        show(p)
        return commands
    }

    public func takeOpening() -> WidgetID? {
        defer { opening = nil }
        return opening
    }

    /// A drag that began on the hue ring or the square goes on choosing there, wherever it goes.
    public func drag(x: Double, y: Double, brush: Brush) -> [Command] {
        guard let p = palette, let o = origin, let grab else { return [] }
        switch grab {
        case .hue: return choose(.hue(p.hue(x - o.x, y - o.y)), brush: brush)
        case .saturationValue: return choose(p.saturationValue(x - o.x, y - o.y), brush: brush)
        case .recent, .kind, .size, .brush, .brushChooser, .panel: return []
        }
    }

    /// Button 1 came up: the colour chosen, if it is new.
    public func release(x: Double, y: Double, brush: Brush) -> [Command] {
        grab = nil
        guard let p = palette, p.color != brush.color else { return [] }
        return [.brush(color: p.color)]
    }

    public func windowResized(to size: Size) { windowSize = size }

    public var hasDamage: Bool { surface.hasDamage }
    public func takeDamage() -> Rect { surface.takeDamage() }

    public func draw(into target: Texture<UInt32>, clip: Rect) {
        guard let p = palette else { return }
        surface.draw(into: target, clip: clip) { r in
            // The ring of brushes makes a larger palette: its base is drawn again at that size.
            let b = base.flatMap { $0.width == p.width && $0.height == p.height ? $0 : nil }
                ?? Sprite(x: 0, y: 0, width: p.width, height: p.height) { p.drawBase($0) }.pixels
            base = b
            let side = BrushRing.iconSide(scale: p.scale)
            return Sprite(x: r.minX, y: r.minY, base: b) { p.draw($0, font: font) { icons?.icon($0, side: side) } }
        }
    }
}
