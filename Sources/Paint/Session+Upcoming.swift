import Clock
import Compute
import Events
import Geometry
import Kernels
import Strokes

/// The session as the queued events will leave it, read before they are played: what the next
/// key or sample is made from; and when the queued samples were taken.
extension Session {
    /// Each queued event's own time: a pointer sample's `t` (the window's time of it, until
    /// stamped), nil for any other event.
    public var queuedSampleTimes: [Double?] { pending.map(\.sampleTime) }

    /// True while a MyPaint brush's stroke is drawn: its samples want their own times
    /// (`stampQueued`) even when another brush has been chosen since it started.
    public var isDrawingMyPaint: Bool { if case .mypaint = strokes.live { true } else { false } }

    /// The brush as it will be once the queued events have played: what the next change is
    /// made from (two size keys pressed before a frame double the size twice, not once).
    public var upcomingBrush: Brush {
        var b = brush
        let queued = pending
        for case .command(let c) in queued { b.apply(c) }
        return b
    }

    /// The view's transform as it will be once the queued events have played: what the next
    /// pointer sample is mapped through, and the next zoom or drag starts from.
    public var upcomingView: ViewTransform {
        let queued = pending
        for case .view(let t) in queued.reversed() { return t }
        return view.transform
    }

    /// The symmetry as it will be once the queued events have played: what the next symmetry
    /// key changes.
    public var upcomingSymmetry: Symmetry {
        let queued = pending
        for case .command(.symmetry(let s)) in queued.reversed() { return s }
        return symmetry
    }

    /// Whether the current layer will be hidden once the queued events have played (`v` pressed
    /// just before a click counts); nil when a queued layer change other than showing or
    /// hiding it, or an undo, makes that unknown until it has played.
    public var upcomingLayerIsHidden: Bool? {
        var hidden = !document.currentLayer.attributes.visible
        for case .command(let c) in pending {
            switch c {
            case .layer(.step(.visibility)): hidden.toggle()
            case .layer, .undo, .redo: return nil
            default: continue
            }
        }
        return hidden
    }
}
