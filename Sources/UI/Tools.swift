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

    private var paletteSprite: Sprite?, editorSprite: Sprite?, statusSprite: Sprite?
    /// The palette's unchanging pixels (`Palette.drawBase`), drawn at the first opening.
    private var paletteBase: TextureStorage<UInt32>?
    /// The hemisphere last rendered for the editor, for the shading it shows.
    private var sphere: (shading: Shading, image: TextureStorage<UInt32>)?
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
        if let palette, let s = paletteSprite {
            if let h = palette.hit(x - Double(s.rect.minX), y - Double(s.rect.minY)) { return .palette(h) }
            return .outsidePalette
        }
        if let editor, let s = editorSprite, let h = editor.hit(x - Double(s.rect.minX), y - Double(s.rect.minY)) { return .editor(h) }
        return .canvas
    }

    /// The palette's top-left corner in the window (to turn window points into its own).
    public var paletteOrigin: (x: Double, y: Double)? { paletteSprite.map { (Double($0.rect.minX), Double($0.rect.minY)) } }
    /// The editor's top-left corner in the window.
    public var editorOrigin: (x: Double, y: Double)? { editorSprite.map { (Double($0.rect.minX), Double($0.rect.minY)) } }

    /// Opens (or changes) the palette; a new one is centred at window point (x, y), kept inside
    /// the window where it fits. Nil closes it.
    public func showPalette(_ new: Palette?, atX x: Double = 0, y: Double = 0) {
        guard new != palette || new == nil else { return }
        let old = paletteSprite
        palette = new
        paletteSprite = new.map { p in
            let at = old.map { ($0.rect.minX, $0.rect.minY) }
                ?? (clamp(Int((x - p.centreOffset).rounded()), p.width, windowSize.width),
                    clamp(Int((y - p.centreOffset).rounded()), p.height, windowSize.height))
            let base = paletteBase ?? Sprite(x: 0, y: 0, width: p.width, height: p.height) { p.drawBase($0) }.pixels
            paletteBase = base
            return Sprite(x: at.0, y: at.1, base: base) { p.draw($0) }
        }
        replaced(old, by: paletteSprite)
    }

    /// Opens (or changes) the shading editor; nil closes it.
    public func showEditor(_ new: ShadingEditor?) {
        guard new != editor else { return }
        let old = editorSprite
        editor = new
        editorSprite = new.map(editorSprite(for:))
        replaced(old, by: editorSprite)
    }

    private func editorSprite(for e: ShadingEditor) -> Sprite {
        let side = Int((ShadingEditor.sphere.side * scale).rounded())
        if sphere?.shading != e.shading || sphere?.image.width != side {
            sphere = (e.shading, Hemisphere.image(shading: e.shading, size: side))
        }
        let image = sphere?.image.texture
        let margin = Int((8 * scale).rounded())
        return Sprite(x: windowSize.width - e.width - margin, y: margin, width: e.width, height: e.height) { p in
            if let image { e.draw(p, sphere: image) }
        }
    }

    /// Shows the status strip's new content.
    public func showStatus(_ new: StatusStrip?) {
        guard new != status else { return }
        let old = statusSprite
        status = new
        statusSprite = new.map(statusSprite(for:))
        replaced(old, by: statusSprite)
    }

    private func statusSprite(for s: StatusStrip) -> Sprite {
        let (w, h) = s.size(scale: scale)
        let margin = Int((6 * scale).rounded())
        return Sprite(x: margin, y: windowSize.height - h - margin, width: w, height: h) { s.draw($0, scale: scale) }
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
        statusSprite = status.map(statusSprite(for:))
        editorSprite = editor.map(editorSprite(for:))
        damage = damage.union(everything)
    }

    private var everything: Rect {
        [paletteSprite?.rect, editorSprite?.rect, statusSprite?.rect, outline?.rect].compactMap { $0 }.reduce(Rect.empty) { $0.union($1) }
    }

    private func replaced(_ old: Sprite?, by new: Sprite?) {
        guard !hidden else { return }
        if let old { damage = damage.union(old.rect) }
        if let new { damage = damage.union(new.rect) }
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
        for sprite in [statusSprite, editorSprite, paletteSprite].compactMap({ $0 }) where !sprite.rect.intersection(clip).isEmpty {
            sprite.draw(into: target, clip: clip)
        }
        if let outline, !outline.rect.intersection(clip).isEmpty { outline.draw(Painter(target, clip: clip)) }
    }
}
