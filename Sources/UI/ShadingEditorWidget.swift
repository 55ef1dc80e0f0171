import Compute
import Events
import Geometry
import Kernels

extension WidgetID {
    public static let shadingEditor = WidgetID("shading editor")
}

/// The mercurial brush's shading editor (`ShadingEditor`) as a widget in the window's top-right
/// corner: a press or drag on a light's handle or a bar shows the change at once (the
/// hemisphere at half resolution while dragged), and the release makes it one `shading`
/// command. Its hemisphere is never computed whole in one frame: `prepare` and `catchUp` work
/// on it a bounded step a frame, ahead of its opening.
public final class ShadingEditorWidget: InteractiveWidget, ToggledWidget {
    public let id = WidgetID.shadingEditor
    public let scale: Double
    private let font: UIFont
    private var windowSize: Size
    public private(set) var editor: ShadingEditor?
    /// What the press in progress grabbed.
    private var grab: ShadingEditor.Hit?
    private let surface = WidgetSurface()
    /// The panel's unchanging pixels, and the sprite's memory (drawn into again each change).
    private var base: TextureStorage<UInt32>?, pixels: TextureStorage<UInt32>?
    /// The hemisphere: full, or rough while dragged and until `catchUp` has computed it.
    private lazy var sphere = EditorHemisphere(side: Int((ShadingEditor.sphere.side * scale).rounded()))
    /// A drag is changing it: its hemisphere is the rough one until the release.
    private var dragging = false
    /// The shading `catchUp` prepares for while it is closed: the last one it showed, or
    /// `prepare`'s.
    private var ahead: Shading?

    public init(windowSize: Size, scale: Double, font: UIFont) {
        self.windowSize = windowSize
        self.scale = scale
        self.font = font
    }

    public var frame: Rect? { surface.rect }
    /// Its top-left corner in the window.
    public var origin: (x: Double, y: Double)? { surface.rect.map { (Double($0.minX), Double($0.minY)) } }
    public var isOpen: Bool { editor != nil }

    /// Opens (or changes) it; nil closes it. `dragging`: a change in the middle of a drag, shown
    /// with a rougher hemisphere until the drag ends.
    public func show(_ new: ShadingEditor?, dragging: Bool = false) {
        guard new != editor || dragging != self.dragging else { return }
        self.dragging = dragging
        if let oldShading = editor?.shading, new == nil { ahead = oldShading }
        if new == nil { grab = nil }
        let old = surface.rect, oldEditor = editor
        editor = new
        let rect = new.map(rect(for:))
        // A light moved round the sphere changes the hemisphere and the handles, nothing else:
        // only they are composed again.
        if let new, let oldEditor, let r = rect, r == old, new.differsOnlyInPositions(from: oldEditor) {
            surface.changed(sphereArea(new, in: r))
        } else {
            surface.place(rect)
        }
    }

    private func rect(for e: ShadingEditor) -> Rect {
        let margin = Int((8 * scale).rounded())
        return Rect(x: windowSize.width - e.width - margin, y: margin, width: e.width, height: e.height)
    }

    private func sphereArea(_ e: ShadingEditor, in r: Rect) -> Rect {
        let a = e.sphereArea
        return Box(x: a.x + Double(r.minX), y: a.y + Double(r.minY), width: a.width, height: a.height).covering.intersection(r)
    }

    /// `l`: opens it showing the brush's shading, or closes it.
    public func toggle(atX x: Double, y: Double, brush: Brush) {
        show(editor == nil ? ShadingEditor(shading: brush.shading, scale: scale) : nil)
    }

    public func close() { show(nil) }

    public func contains(_ x: Double, _ y: Double) -> Bool { hit(x, y) != nil }

    private func hit(_ x: Double, _ y: Double) -> ShadingEditor.Hit? {
        guard let e = editor, let o = origin else { return nil }
        return e.hit(x - o.x, y - o.y)
    }

    public func press(x: Double, y: Double, brush: Brush) -> [Command] {
        grab = hit(x, y)
        preview(x: x, y: y)
        return []
    }

    public func drag(x: Double, y: Double, brush: Brush) -> [Command] {
        preview(x: x, y: y)
        return []
    }

    /// The press or drag shown at once.
    private func preview(x: Double, y: Double) {
        guard var e = editor, let o = origin, let grab else { return }
        switch grab {
        case .light(let i): e.shading = e.moving(light: i, toX: x - o.x, y: y - o.y)
        case .hue, .brightness, .shininess: e.shading = e.setting(e.value(of: grab, atX: x - o.x))
        case .panel: return
        }
        show(e, dragging: true)
    }

    /// The hemisphere drawn in full again, and the shading as a command if it is new.
    public func release(x: Double, y: Double, brush: Brush) -> [Command] {
        grab = nil
        guard let e = editor else { return [] }
        show(e, dragging: false)
        return e.shading != brush.shading ? [.shading(e.shading)] : []
    }

    /// Prepares it for `shading`: its panel at once (about 0.3 ms at scale 1), then over the
    /// coming frames (`catchUp`) its full hemisphere and the half-resolution one a drag starts
    /// from, so that opening it later, and the first drag in it, cost no more than any other
    /// frame of it. For the window's start, with the brush's shading.
    public func prepare(for shading: Shading) {
        ahead = shading
        if base == nil { base = drawBase() }
    }

    private func drawBase() -> TextureStorage<UInt32> {
        let e = ShadingEditor(shading: .mercurialPaint, scale: scale)
        return Sprite(x: 0, y: 0, width: e.width, height: e.height) { e.drawBase($0, font: font) }.pixels
    }

    /// What `catchUp` works for: the open editor's shading (none while it is dragged in: its
    /// frames compute what they show), else the one prepared ahead.
    private var catchUpShading: Shading? {
        guard let editor else { return ahead }
        return dragging ? nil : editor.shading
    }

    public var isCatchingUp: Bool {
        guard let shading = catchUpShading else { return false }
        return sphere.hasWork(for: shading, shown: editor != nil)
    }

    /// A frame's share of the work it puts off (`EditorHemisphere.step`, about half a
    /// millisecond at most): its hemisphere computed a bounded step at a time, and the frame
    /// that shows the full one in place of a rough one. A frame that draws it anew does none.
    public func catchUp(shown: Bool) {
        guard let shading = catchUpShading, editor == nil || surface.sprite != nil || !shown else { return }
        guard sphere.step(for: shading, shown: editor != nil), let e = editor, let r = surface.rect else { return }
        // Only the hemisphere and its handles are composed again.
        surface.changed(sphereArea(e, in: r))
    }

    public func windowResized(to size: Size) {
        windowSize = size
        if let editor { surface.place(rect(for: editor)) }
    }

    public var hasDamage: Bool { surface.hasDamage }
    public func takeDamage() -> Rect { surface.takeDamage() }

    public func draw(into target: Texture<UInt32>, clip: Rect) {
        guard let e = editor else { return }
        surface.draw(into: target, clip: clip) { r in
            let image = sphere.image(for: e.shading, dragging: dragging)
            let b = base ?? drawBase()
            base = b
            let s = Sprite(x: r.minX, y: r.minY, base: b, reusing: pixels) { e.draw($0, sphere: image, font: font) }
            pixels = s.pixels
            return s
        }
    }
}
