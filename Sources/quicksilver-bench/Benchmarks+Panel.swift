import App
import Clock
import Compute
import Events
import Foundation
import Geometry
import Input
import Paint

/// The layer panel's cases (ui.panel.*): the app itself (`PaintApp`, its router, widgets and
/// panel rows) on a window with no display, over the 20-layer document, at UI scale 1. Each run
/// is what a click or a key costs as the window spends it: the wake-up that takes the input,
/// then the frame that shows it (the panel's rows made again, the canvas recomposed where
/// something changed, the whole presented into memory).
extension Benchmarks {
    enum PanelCase { case select, eye }

    /// `ui.panel.select`: a click on a row (the layer made current); `ui.panel.eye`: a click on
    /// an eye (the layer hidden or shown, so the canvas is recomposed).
    func panelAction(_ what: PanelCase) throws -> () throws -> Void {
        let (session, step) = panelApp()
        // The panel's geometry at scale 1 (UI/LayerPanel.swift): 220 px wide, 8 px from the
        // window's top-right corner, a 26 px header, then 32 px rows, the top layer first; the
        // eye 6…22 px in. Every layer fits a 1080 px window, so none scrolls.
        func click(layer index: Int, eye: Bool) -> [InputEvent] {
            let x = Double(size.width - 8 - 220) + (eye ? 14 : 120)
            let y = 8 + 26 + Double(Self.documentLayers - 1 - index) * 32 + 16
            let s = PointerSample(x: x, y: y, time: 0)
            return [.pointerDown(s), .pointerUp(s)]
        }
        var flip = false
        return {
            flip.toggle()
            switch what {
            case .select:
                let target = flip ? 5 : 6
                _ = step(click(layer: target, eye: false))
                _ = step([])   // the next frame, where the panel's rows show the choice
                guard session.document.current == target else { throw BenchFailure("a click on row \(target) selected \(session.document.current)") }
            case .eye:
                _ = step(click(layer: 10, eye: true))
                _ = step([])
                guard session.document.layers[10].attributes.visible != flip else { throw BenchFailure("the eye did not hide layer 10") }
            }
        }
    }

    /// `ui.panel.rename`: F2, Ctrl+U, a name typed, Return: each key a wake-up and its frame
    /// (the strip shows the name as typed; Return renames, and the panel shows the new name).
    func panelRenameFrames() -> () -> (times: [Double], opening: Int) {
        let (session, step) = panelApp()
        var flip = false
        return {
            flip.toggle()
            let name = flip ? "Sky" : "Sea"
            var times = [step([.key(KeyPress(.function(2), time: 0))]), step([.key(KeyPress("u", mods: .control, time: 0))])]
            times += name.map { step([.key(KeyPress(.char($0), time: 0, text: String($0)))]) }
            times.append(step([.key(KeyPress(.enter, time: 0))]))
            precondition(session.document.currentLayer.name == name, "renamed \(session.document.currentLayer.name), not \(name)")
            return (times, times.count - 1)
        }
    }

    /// The app over the 20-layer document on a window with no display, and a step: input
    /// taken at a wake-up, then a frame drawn, timed together (milliseconds).
    private func panelApp() -> (Session, ([InputEvent]) -> Double) {
        let window = BenchWindow(size: size)
        let session = layeredSession(layers: Self.documentLayers)
        let loop = FrameLoop(hz: 60, clock: ManualClock(), fds: [])
        let app = PaintApp(window: window, session: session, exporter: Exporter(folder: NSTemporaryDirectory()),
                           console: Console(out: { _ in }, err: { _ in }), lowLatency: false, uiScale: 1)
        var frame = 0
        func step(_ events: [InputEvent]) -> Double {
            frame += 1
            let time = Double(frame) / 60
            return Self.milliseconds {
                window.queued = events
                _ = app.frameLoopDidWake(loop)
                _ = app.frameLoop(loop, draw: FrameInfo(index: frame, timestamp: time, targetTimestamp: time + 1.0 / 60))
            }
        }
        _ = step([])
        return (session, step)
    }
}

/// A window with no display for the app cases: input queued by the case, frames into memory.
private final class BenchWindow: AppWindow {
    let size: Size
    private let image: TextureStorage<UInt32>
    var queued: [InputEvent] = []

    init(size: Size) {
        self.size = size
        image = TextureStorage(width: size.width, height: size.height, filledWith: 0)
    }

    func pendingEvents() -> [InputEvent] { defer { queued = [] }; return queued }
    func setTitle(_ title: String) {}
    func frameTarget() -> Texture<UInt32> { image.texture }
    func present(_ damage: Rect) {}
    func presentAll() {}
    func waitForPresentCompletion() {}
    var isPresentPending: Bool { false }
    var hasBufferedEvents: Bool { !queued.isEmpty }
    var reportsVBlanks: Bool { false }
    func askForVBlank() {}
    func takeVBlanks() -> [VBlank] { [] }
    func offerClipboard(png: [UInt8]) -> Bool { false }
    func requestClipboardImage() {}
    func setCrosshair(_ on: Bool) {}
}
