import Compute
import Geometry
import Kernels

/// Every piece of on-canvas UI, as the one `Overlay` the session draws over the canvas: the
/// status strip (bottom left), the shading editor (top right), the pop-up palette (at the
/// pointer, over the rest) and the brush outline. It keeps each piece's sprite and the window
/// area that changed, and answers the app's one question: what is under the pointer.
public final class Tools: Overlay {
    /// 1 at 96 dpi, 2 at 192: every piece's size and its font pixel.
    public let scale: Double
    public private(set) var windowSize: Size
    /// Tab: every piece hidden (Krita's canvas-only mode).
    public private(set) var hidden = false
    public private(set) var palette: Palette?
    public private(set) var editor: ShadingEditor?
    public private(set) var outline: BrushOutline?
    public private(set) var status: StatusStrip?

    /// Where each piece lies in the window, and its pixels (nil until the next frame draws them).
    private var paletteRect: Rect?, editorRect: Rect?, statusRect: Rect?
    private var paletteSprite: Sprite?, editorSprite: Sprite?, statusSprite: Sprite?
    /// The palette's and the editor's unchanging pixels (`drawBase`), drawn at the first opening
    /// (the editor's when it is prepared, if that comes first).
    private var paletteBase: TextureStorage<UInt32>?, editorBase: TextureStorage<UInt32>?
    /// The editor sprite's memory, drawn into again each time it changes.
    private var editorPixels: TextureStorage<UInt32>?
    /// The editor's hemisphere: full, or rough while dragged and until `catchUp` has computed it.
    private lazy var sphere = EditorHemisphere(side: Int((ShadingEditor.sphere.side * scale).rounded()))
    /// The editor is being dragged in: its hemisphere is the rough one until the release.
    private var editorDragging = false
    /// The shading `catchUp` prepares the editor for while it is closed: the last one it showed,
    /// or `prepareEditor`'s.
    private var aheadShading: Shading?
    private var damage = Rect.empty

    /// The scales the UI is drawn at.
    public static let scales = 1.0...4.0

    /// The scale for a screen of `dpi` (the X resources' Xft.dpi): 96 → 1, 192 → 2, half steps
    /// between, 1 when unknown.
    public static func scale(forDPI dpi: Double?) -> Double {
        guard let dpi, dpi.isFinite, dpi > 0 else { return 1 }
        return min(max((dpi / 96 * 2).rounded() / 2, scales.lowerBound), scales.upperBound)
    }

    public init(windowSize: Size, scale: Double) {
        self.windowSize = windowSize
        self.scale = scale
    }

    /// What is under a window point, for the app to route a press by.
    public enum Target: Equatable, Sendable {
        case palette(Palette.Hit)
        case editor(ShadingEditor.Hit)
        /// The palette is open and the point is not on it: a press there closes it.
        case outsidePalette
        case canvas
    }

    public func hit(_ x: Double, _ y: Double) -> Target {
        guard !hidden else { return .canvas }
        if let palette, let r = paletteRect {
            if let h = palette.hit(x - Double(r.minX), y - Double(r.minY)) { return .palette(h) }
            return .outsidePalette
        }
        if let editor, let r = editorRect, let h = editor.hit(x - Double(r.minX), y - Double(r.minY)) { return .editor(h) }
        return .canvas
    }

    /// The palette's top-left corner in the window (to turn window points into its own).
    public var paletteOrigin: (x: Double, y: Double)? { paletteRect.map { (Double($0.minX), Double($0.minY)) } }
    /// The editor's top-left corner in the window.
    public var editorOrigin: (x: Double, y: Double)? { editorRect.map { (Double($0.minX), Double($0.minY)) } }

    /// Opens (or changes) the palette; a new one is centred at window point (x, y), kept inside
    /// the window where it fits. Nil closes it.
    public func showPalette(_ new: Palette?, atX x: Double = 0, y: Double = 0) {
        guard new != palette || new == nil else { return }
        let old = paletteRect
        palette = new
        paletteRect = new.map { p in
            Rect(x: old?.minX ?? clamp(Int((x - p.centreOffset).rounded()), p.width, windowSize.width),
                 y: old?.minY ?? clamp(Int((y - p.centreOffset).rounded()), p.height, windowSize.height), width: p.width, height: p.height)
        }
        paletteSprite = nil
        moved(from: old, to: paletteRect)
    }

    /// Opens (or changes) the shading editor; nil closes it. `dragging`: a change in the
    /// middle of a drag, shown with a rougher hemisphere until the drag ends.
    public func showEditor(_ new: ShadingEditor?, dragging: Bool = false) {
        guard new != editor || dragging != editorDragging else { return }
        editorDragging = dragging
        if let oldShading = editor?.shading, new == nil { aheadShading = oldShading }
        let old = editorRect, oldEditor = editor
        editor = new
        editorRect = new.map(editorRect(for:))
        editorSprite = nil
        // A light moved round the sphere changes the hemisphere and the handles, nothing else:
        // only they are composed again.
        if let new, let oldEditor, let r = editorRect, r == old, new.differsOnlyInPositions(from: oldEditor) {
            let a = new.sphereArea
            let area = Box(x: a.x + Double(r.minX), y: a.y + Double(r.minY), width: a.width, height: a.height).covering.intersection(r)
            moved(from: nil, to: area)
        } else {
            moved(from: old, to: editorRect)
        }
    }

    private func editorRect(for e: ShadingEditor) -> Rect {
        let margin = Int((8 * scale).rounded())
        return Rect(x: windowSize.width - e.width - margin, y: margin, width: e.width, height: e.height)
    }

    /// Shows the status strip's new content.
    public func showStatus(_ new: StatusStrip?) {
        guard new != status else { return }
        let old = statusRect
        status = new
        statusRect = new.map(statusRect(for:))
        statusSprite = nil
        moved(from: old, to: statusRect)
    }

    private func statusRect(for s: StatusStrip) -> Rect {
        let (w, h) = s.size(scale: scale)
        let margin = Int((6 * scale).rounded())
        return Rect(x: margin, y: windowSize.height - h - margin, width: w, height: h)
    }

    /// The pieces' sprites that changed since the last frame, drawn now: a piece changed by many
    /// motion events between two frames is drawn once.
    private func sprites() -> [Sprite] {
        if let status, let r = statusRect, statusSprite == nil {
            statusSprite = Sprite(x: r.minX, y: r.minY, width: r.width, height: r.height) { status.draw($0, scale: scale) }
        }
        if let e = editor, let r = editorRect, editorSprite == nil {
            let image = sphere.image(for: e.shading, dragging: editorDragging)
            let base = editorBase ?? drawEditorBase()
            editorBase = base
            editorSprite = Sprite(x: r.minX, y: r.minY, base: base, reusing: editorPixels) { e.draw($0, sphere: image) }
            editorPixels = editorSprite?.pixels
        }
        if let p = palette, let r = paletteRect, paletteSprite == nil {
            let base = paletteBase ?? Sprite(x: 0, y: 0, width: p.width, height: p.height) { p.drawBase($0) }.pixels
            paletteBase = base
            paletteSprite = Sprite(x: r.minX, y: r.minY, base: base) { p.draw($0) }
        }
        return [statusSprite, editorSprite, paletteSprite].compactMap { $0 }
    }

    private func drawEditorBase() -> TextureStorage<UInt32> {
        let e = ShadingEditor(shading: .mercurialPaint, scale: scale)
        return Sprite(x: 0, y: 0, width: e.width, height: e.height) { e.drawBase($0) }.pixels
    }

    /// Prepares the shading editor for `shading`: its panel at once (about 0.3 ms at scale 1),
    /// then over the coming frames (`catchUp`) its full hemisphere and the half-resolution one
    /// a drag starts from, so that opening it later, and the first drag in it, cost no more than
    /// any other frame of it. For the window's start, with the brush's shading.
    public func prepareEditor(for shading: Shading) {
        aheadShading = shading
        if editorBase == nil { editorBase = drawEditorBase() }
    }

    /// What `catchUp` works for: the open editor's shading (none while it is dragged in: its
    /// frames compute what they show), else the one prepared ahead.
    private var catchUpShading: Shading? {
        guard let editor else { return aheadShading }
        return editorDragging ? nil : editor.shading
    }

    /// True while `catchUp` has work: the frame clock should keep running.
    public var isCatchingUp: Bool {
        guard let shading = catchUpShading else { return false }
        return sphere.hasWork(for: shading, shown: editor != nil)
    }

    /// A frame's share of the work the editor puts off (`EditorHemisphere.step`, about half a
    /// millisecond at most): its hemisphere computed a bounded step at a time, and the frame
    /// that shows the full one in place of a rough one. Call once before each frame is drawn
    /// (not on the ink path); a frame that draws the editor anew does none of it.
    public func catchUp() {
        guard let shading = catchUpShading, editor == nil || editorSprite != nil || hidden else { return }
        guard sphere.step(for: shading, shown: editor != nil), let e = editor, let r = editorRect else { return }
        // Only the hemisphere and its handles are composed again.
        editorSprite = nil
        let a = e.sphereArea
        moved(from: nil, to: Box(x: a.x + Double(r.minX), y: a.y + Double(r.minY), width: a.width, height: a.height).covering.intersection(r))
    }

    /// Moves the brush outline (nil hides it).
    public func showOutline(_ new: BrushOutline?) {
        guard new != outline else { return }
        if !hidden {
            if let outline { damage = damage.union(outline.rect) }
            if let new { damage = damage.union(new.rect) }
        }
        outline = new
    }

    /// Hides every piece, or shows them again.
    public func setHidden(_ hide: Bool) {
        guard hide != hidden else { return }
        hidden = hide
        damage = damage.union(everything)
    }

    /// The window changed size: the corner pieces move with its corners.
    public func windowResized(to size: Size) {
        guard size != windowSize else { return }
        damage = damage.union(everything)
        windowSize = size
        statusRect = status.map(statusRect(for:))
        editorRect = editor.map(editorRect(for:))
        (statusSprite, editorSprite) = (nil, nil)
        damage = damage.union(everything)
    }

    private var everything: Rect {
        [paletteRect, editorRect, statusRect, outline?.rect].compactMap { $0 }.reduce(Rect.empty) { $0.union($1) }
    }

    private func moved(from old: Rect?, to new: Rect?) {
        guard !hidden else { return }
        if let old { damage = damage.union(old) }
        if let new { damage = damage.union(new) }
    }

    private func clamp(_ origin: Int, _ length: Int, _ window: Int) -> Int {
        max(0, min(origin, window - length))
    }

    /// Something changed that the next frame must show.
    public var hasDamage: Bool { !damage.isEmpty }

    // MARK: - Overlay

    public func takeDamage() -> Rect {
        defer { damage = .empty }
        return damage
    }

    public func draw(into target: Texture<UInt32>, clip: Rect) {
        guard !hidden else { return }
        for sprite in sprites() where !sprite.rect.intersection(clip).isEmpty {
            sprite.draw(into: target, clip: clip)
        }
        if let outline, !outline.rect.intersection(clip).isEmpty { outline.draw(Painter(target, clip: clip)) }
    }
}
