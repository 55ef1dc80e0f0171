import Events
import Geometry

/// What a frame command did (`Session.frameChange`): what the window's status says of it.
public enum FrameChange: Sendable, Equatable {
    /// The frame was fitted to the ink: it is now this rectangle of the canvas.
    case fitted(Rect)
    /// The frame was put at this rectangle of the canvas.
    case moved(Rect)
    /// The frame was this already: nothing changed.
    case unchanged(Rect)
    /// Fitting found no pixel painted on the shown layers: nothing changed.
    case nothingPainted
    /// Fitting found ink of this size, more than a frame may be (`DocumentLimits.frameSides`):
    /// nothing changed.
    case tooLarge(Size)
    /// An undo (`undone`) or a redo took the frame to this rectangle.
    case stepped(Rect, undone: Bool)

    /// The status's words for it ("frame fitted to the ink, 812×430").
    public var description: String {
        switch self {
        case .fitted(let r): "frame fitted to the ink, \(r.width)×\(r.height) at \(r.minX),\(r.minY)"
        case .moved(let r): "frame moved: \(r.width)×\(r.height) at \(r.minX),\(r.minY)"
        case .unchanged(let r): "the frame is that already: \(r.width)×\(r.height) at \(r.minX),\(r.minY)"
        case .nothingPainted: "nothing painted: the frame stays as it is"
        case .tooLarge(let s): "the ink spans \(s.width)×\(s.height), more than a frame may be "
            + "(\(DocumentLimits.frameSides.upperBound) px a side): the frame stays as it is"
        case .stepped(let r, let undone): "\(undone ? "undone" : "redone"): the frame \(r.width)×\(r.height) at \(r.minX),\(r.minY)"
        }
    }
}

/// The frame's commands: fitted to the ink, or put at a rectangle, each one undo step.
extension Session {
    /// Plays `op` on the document (the live stroke already ended and settled); returns what it did.
    func apply(_ op: FrameOp) -> FrameChange {
        let rect: Rect
        switch op {
        case .fit:
            let ink = inkBounds()
            guard !ink.isEmpty else { return .nothingPainted }
            rect = ink
        case .set(let r):
            rect = r.intersection(.plane)
        }
        let sides = DocumentLimits.frameSides
        guard sides.contains(rect.width), sides.contains(rect.height) else { return .tooLarge(rect.size) }
        guard rect != document.frame else { return .unchanged(rect) }
        document.moveFrame(to: rect)
        return op == .fit ? .fitted(rect) : .moved(rect)
    }

    /// The stroke engine and the view brought to the document's frame (after a resize, an
    /// undo, a fit, a load): the mercurial brush paints within it, and the window shows it
    /// again whole (the desk around it is dimmed, its inside not).
    func followFrame() {
        guard strokes.frame != document.frame || strokes.size != document.storageSize else { return }
        if strokes.size != document.storageSize { strokes.grow(to: document.storageSize) }
        strokes.frame = document.frame
        view.windowIsStale = true
    }
}
