import Compute
import Geometry
import Events
import Kernels

/// How the window shows the session, as one value: the transform (zoom and pan), the view
/// filters (invert, the pulsing background), the overlay drawn over the canvas, the predicted
/// tail asked for, and whether the whole window is stale. None of it changes a pixel of the
/// document: exports, files and the clipboard see only what `invert` and the pulse do to the
/// picture, never the transform, the overlay or a prediction.
///
/// The session holds it and plays `view`, `invert` and `pulse` events into it; everything else
/// that moves the view (a drag, the wheel, a zoom key) is such an event, queued like any
/// other, so a replay shows what the window showed.
public struct View {
    /// How the window shows the canvas.
    public internal(set) var transform = ViewTransform.identity
    /// The invert filter: shown colour = (1 − r, 1 − g, 1 − b).
    public internal(set) var invert = false
    /// The pulsing background, while it pulses, and the frame its cycle started at.
    public internal(set) var pulse: Pulse?
    var pulseStart: Int?
    /// The background shown under the stack: the pulse's colour this frame, or nil for the
    /// document's own.
    var shownBackground: Color?
    /// The window's on-canvas tools, drawn over every frame it presents (never in a snapshot).
    public weak var overlay: Overlay?
    /// The predicted point asked for (canvas pixels), to be shown from the next frame on.
    var prediction: (point: (x: Double, y: Double)?, asked: Bool) = (nil, false)
    /// The whole window must be presented again (the view moved, the window was resized or
    /// exposed, a filter changed).
    var windowIsStale = true

    public init() {}

    /// Applies a view filter command; true when it was one.
    mutating func apply(_ command: Command) -> Bool {
        switch command {
        case .invert(let on):
            invert = on ?? !invert
        case .pulse(let on, let hue, let centre, let range):
            var p = pulse ?? Pulse()
            if let hue { p.hue = hue }
            if let centre { p.centre = centre }
            if let range { p.range = range }
            if on ?? (pulse == nil) {
                if pulse == nil { pulseStart = nil }
                pulse = p
            } else {
                pulse = nil
                shownBackground = nil
            }
        case .continued:
            // A continued session's pulse starts its cycle again.
            pulseStart = nil
            return false
        default:
            return false
        }
        windowIsStale = true
        return true
    }

    /// The pulse's colour for frame `index`, when it pulses (every such frame redraws it all).
    mutating func pulseFrame(_ index: Int) -> Bool {
        guard let pulse else { return false }
        let start = pulseStart ?? index
        pulseStart = start
        shownBackground = pulse.color(loc: Pulse.loc(frames: index - start))
        return true
    }

    /// The window rectangles a frame composes and presents: all of it when stale, else what
    /// shows the damaged canvas and each piece the overlay changed, pieces that overlap or lie
    /// close merged (`Rect.mergedPieces`): a layer panel at the top right and the status strip
    /// at the bottom left are two, not the window between. Clears the staleness.
    mutating func regions(window: Rect, canvasDamage: Rect, canvas: Rect) -> [Rect] {
        let tools = overlay?.takeDamagePieces() ?? []
        defer { windowIsStale = false }
        if windowIsStale { return [window] }
        let canvasPart = transform.windowRect(covering: canvasDamage.intersection(canvas))
        return Rect.mergedPieces(([canvasPart] + tools).map { $0.intersection(window) })
    }
}
