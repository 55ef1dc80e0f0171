import Events
import Kernels
import Strokes
import UI

/// The on-canvas tools as the app uses them: what a press, a drag and a release on the palette
/// or the shading editor do — the commands the keys would send, made at the release so the
/// journal gets one, not one per motion event — the palette opened by a right click and kept in
/// step with the brush, and the brush outline under the pointer. `PaintApp` decides which piece
/// a press is for (its `PointerMode`); this says what happens there.
final class ToolsInput {
    let tools: Tools
    /// The colours strokes were last drawn in, the latest first (the palette shows them).
    private(set) var recentColors: [Color] = []

    init(tools: Tools) { self.tools = tools }

    /// A stroke starts in `color`: it becomes the palette's most recent colour.
    func strokeStarted(in color: Color) {
        recentColors = [color] + recentColors.filter { $0 != color }.prefix(Palette.recentCount - 1)
    }

    /// A press on the palette: a colour is shown at once (and set at the release); a kind or a
    /// size is a command now.
    func press(_ hit: Palette.Hit, brush: Brush) -> Command? {
        guard var p = tools.palette else { return nil }
        var command: Command?
        switch hit {
        case .hue(let h): p.hue = h
        case .saturationValue(let sat, let v): (p.saturation, p.value) = (sat, v)
        case .recent(let c): p = Palette(color: c, recent: p.recent, kind: p.kind, size: p.size, scale: p.scale)
        case .kind(let k): command = .brush(kind: k)
        case .size(let smaller):
            let size = brush.tip.size
            command = .brush(size: smaller ? max(BrushTip.sizes.lowerBound, size / 2) : min(BrushTip.sizes.upperBound, size * 2))
        case .panel: break
        }
        tools.showPalette(p)
        return command
    }

    /// A drag that began on the hue ring or the square goes on choosing there, wherever it goes.
    func dragPalette(_ grab: Palette.Hit, x: Double, y: Double, brush: Brush) {
        guard let p = tools.palette, let o = tools.paletteOrigin else { return }
        switch grab {
        case .hue: _ = press(.hue(p.hue(x - o.x, y - o.y)), brush: brush)
        case .saturationValue: _ = press(p.saturationValue(x - o.x, y - o.y), brush: brush)
        case .recent, .kind, .size, .panel: break
        }
    }

    /// Button 1 came up on the palette: the colour chosen, if it is new.
    func releasePalette(brush: Brush) -> Command? {
        guard let p = tools.palette, p.color != brush.color else { return nil }
        return .brush(color: p.color)
    }

    /// A press or drag in the shading editor: the editor shows the change at once.
    func previewShading(_ grab: ShadingEditor.Hit, x: Double, y: Double) {
        guard var e = tools.editor, let o = tools.editorOrigin else { return }
        switch grab {
        case .light(let i): e.shading = e.moving(light: i, toX: x - o.x, y: y - o.y)
        case .hue, .brightness, .shininess: e.shading = e.setting(e.value(of: grab, atX: x - o.x))
        case .panel: return
        }
        tools.showEditor(e, dragging: true)
    }

    /// Button 1 came up on the editor: the hemisphere drawn in full again, and the shading
    /// shown, if it is new.
    func releaseEditor(brush: Brush) -> Command? {
        guard let e = tools.editor else { return nil }
        tools.showEditor(e, dragging: false)
        return e.shading != brush.shading ? .shading(e.shading) : nil
    }

    /// `l`: the shading editor opens, showing the brush's shading, or closes.
    func toggleEditor(brush: Brush) {
        tools.showEditor(tools.editor == nil ? ShadingEditor(shading: brush.shading, scale: tools.scale) : nil)
    }

    /// A right click (or the stylus's barrel button): the palette opens at (x, y), or closes.
    func togglePalette(atX x: Double, y: Double, brush: Brush) {
        if tools.palette != nil {
            tools.showPalette(nil)
        } else {
            tools.setHidden(false)
            tools.showOutline(nil)
            tools.showPalette(Palette(color: brush.color, recent: recentColors, kind: brush.tip.kind, size: brush.tip.size, scale: tools.scale),
                              atX: x, y: y)
        }
    }

    /// The open palette shows the brush as it is now (a key may have changed it); a colour
    /// being `choosing` is kept until its release.
    func sync(with brush: Brush, choosing: Bool) {
        guard var p = tools.palette else { return }
        if !choosing, p.color != brush.color {
            p = Palette(color: brush.color, recent: recentColors, kind: brush.tip.kind, size: brush.tip.size, scale: p.scale)
        }
        (p.kind, p.size, p.recent) = (brush.tip.kind, brush.tip.size, recentColors)
        tools.showPalette(p)
    }

    /// The outline of `tip` at `pressure` under window point (x, y), where the canvas is under
    /// it and `shown`; hidden otherwise.
    func outline(x: Double, y: Double, tip: BrushTip, pressure: Double, zoom: Double, shown: Bool) {
        guard shown, tools.hit(x, y) == .canvas else {
            tools.showOutline(nil)
            return
        }
        let canvasRadius = switch tip.kind {
        case .pen, .eraser: tip.diameter(pressure: pressure) / 2
        case .pixel: Double(Int(tip.diameter(pressure: pressure) / 2)) + 0.5
        case .mercurial: Double(tip.size) * pressure
        }
        tools.showOutline(BrushOutline(x: x, y: y, radius: canvasRadius * zoom))
    }
}
