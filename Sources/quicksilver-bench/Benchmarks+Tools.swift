import App
import Clock
import Compute
import Events
import Geometry
import Kernels
import Paint
import UI

/// The on-canvas tools' cases (ui.*): frames of a window with the palette, the shading editor, the
/// brush outline or nothing over a painted canvas.
extension Benchmarks {
    /// What a `toolsFrame` does: see there.
    enum ToolsCase { case paletteOpen, paletteDrag, editorDrag, editorOpen, outline, none }

    /// A window of the canvas's size over a painted canvas with the on-canvas tools at UI scale
    /// 1 and the status strip shown, its first frame drawn.
    private func toolsWindow() -> (Session, OffscreenPresenter, Widgets) {
        let session = Session(size: size, compute: compute)
        let presenter = OffscreenPresenter(size: size)
        let tools = Widgets.standard(windowSize: size, scale: 1, font: UIFont())
        session.overlay = tools
        let wash = [UInt32](repeating: 0xC040_6080, count: size.area)
        session.handle(.command(.paste(PastedImage(file: "wash.png", x: 0, y: 0, size: size, pixels: wash))))
        tools.status?.show(StatusStrip(swatch: .black, fields: ["pen 8", "#000000", "layer 1/1", "100 %", "journal ok"]))
        session.draw(FrameInfo(index: 0, timestamp: 0, targetTimestamp: 0), to: presenter)
        return (session, presenter, tools)
    }

    /// `ui.editor.first`: the editor's first opening in a window, at once (none of its hemisphere
    /// computed before), as the app draws it: the opening frame, then the frames that go on
    /// until the full hemisphere is shown (`Widgets.catchUp` before each). `afterStart`
    /// (`ui.editor.afterstart`): the frames after the window's start that prepare it, then the
    /// same opening.
    func editorFirstFrames(afterStart: Bool) -> () -> (times: [Double], opening: Int) {
        let (session, presenter, tools) = toolsWindow()
        var frame = 0
        return { [size] in
            let fresh = Widgets.standard(windowSize: size, scale: 1, font: UIFont())
            session.overlay = fresh
            fresh.editor?.prepare(for: Shading.mercurialPaint)  // as the window's start does, before its first frame
            var times: [Double] = []
            func draw() {
                frame += 1
                times.append(Self.milliseconds {
                    fresh.catchUp()
                    session.draw(FrameInfo(index: frame, timestamp: 0, targetTimestamp: 0), to: presenter)
                })
            }
            while afterStart && fresh.isCatchingUp { draw() }
            let opening = times.count
            fresh.editor?.show(ShadingEditor(shading: .mercurialPaint, scale: 1))
            repeat { draw() } while fresh.isCatchingUp
            session.overlay = tools
            return (times, opening)
        }
    }

    /// One frame of the window with the on-canvas tools over a painted canvas, at UI scale 1:
    /// the palette closing and opening again (two frames, the sum: each damages its rectangle),
    /// a drag on its hue ring, a light dragged in the shading editor (its half-resolution
    /// hemisphere, as while dragging), the editor closing and opening again, the brush outline
    /// moved 3 px, or (`ui.none`) a frame with nothing to do, the loop's floor.
    func toolsFrame(_ what: ToolsCase) -> () -> Void {
        let (session, presenter, tools) = toolsWindow()
        var palette = Palette(color: Color(r: 200, g: 40, b: 40), recent: KeyMap.palette, kind: .pen, size: 8, scale: 1)
        if what == .paletteDrag { tools.palette?.show(palette, atX: 600, y: 400) }
        if what == .editorDrag || what == .editorOpen {
            // As in a window some frames after its start: the editor prepared.
            tools.editor?.prepare(for: Shading.mercurialPaint)
            while tools.isCatchingUp { tools.catchUp() }
            tools.editor?.show(ShadingEditor(shading: .mercurialPaint, scale: 1))
        }
        var frame = 0
        return {
            frame += 1
            switch what {
            case .paletteOpen:
                // Two frames: one closing it, then the one measured for, opening it again.
                tools.palette?.show(nil)
                session.draw(FrameInfo(index: frame, timestamp: 0, targetTimestamp: 0), to: presenter)
                frame += 1
                tools.palette?.show(palette, atX: 600, y: 400)
            case .paletteDrag:
                palette.hue = Double(frame % 1000) / 1000
                tools.palette?.show(palette)
            case .editorDrag:
                if let e = tools.editor?.editor { tools.editor?.show(ShadingEditor(shading: e.moving(light: 0, toX: 88 + Double(frame % 40), y: 60), scale: 1), dragging: true) }
            case .editorOpen:
                // Two frames: one closing it, then the one measured for, opening it again.
                tools.editor?.show(nil)
                session.draw(FrameInfo(index: frame, timestamp: 0, targetTimestamp: 0), to: presenter)
                frame += 1
                tools.editor?.show(ShadingEditor(shading: .mercurialPaint, scale: 1))
            case .outline:
                tools.outline?.show(BrushOutline(x: 500 + Double(frame % 100) * 3, y: 500, radius: 8))
            case .none: break
            }
            session.draw(FrameInfo(index: frame, timestamp: 0, targetTimestamp: 0), to: presenter)
            withExtendedLifetime(tools) {}
        }
    }

}
