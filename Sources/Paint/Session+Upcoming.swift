import Clock
import Compute
import Events
import Geometry
import Kernels
import Strokes

/// The session as the queued events will leave it, read before they are played: what the next
/// key or sample is made from.
extension Session {
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
