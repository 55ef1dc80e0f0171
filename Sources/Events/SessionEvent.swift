import Geometry

/// One thing a session plays, in order: the vocabulary of a replay file's event lines.
public enum SessionEvent: Sendable, Equatable {
    /// The pointer was pressed: a stroke starts.
    case pointerDown(StrokeSample)
    /// The pointer moved while pressed.
    case pointerMove(StrokeSample)
    /// The pointer was released: the stroke ends and becomes one undo step.
    case pointerUp(StrokeSample)
    /// A document command (brush change, undo, …).
    case command(Command)
    /// The visible canvas changed size (recordings from before the canvas kept its size: the
    /// window's size then was the canvas's).
    case resize(Size)
    /// The frame put at this rectangle of the canvas outright, not an undo step: what a
    /// journal's opening says of a frame moved from the canvas's corner (a `resize` line with
    /// `x` and `y`). Undoable changes to the frame are commands (`Command.frame`).
    case reframe(Rect)
    /// The window's view of the canvas changed (zoom and pan). Changes no pixel of the canvas.
    case view(ViewTransform)

    /// A pointer event with its sample's time `t`; any other event as it is.
    public func withSampleTime(_ t: Double) -> SessionEvent {
        switch self {
        case .pointerDown(var s): s.t = t; return .pointerDown(s)
        case .pointerMove(var s): s.t = t; return .pointerMove(s)
        case .pointerUp(var s): s.t = t; return .pointerUp(s)
        case .command, .resize, .reframe, .view: return self
        }
    }

    /// A pointer event's sample's time `t`; nil for any other event.
    public var sampleTime: Double? {
        switch self {
        case .pointerDown(let s), .pointerMove(let s), .pointerUp(let s): s.t
        case .command, .resize, .reframe, .view: nil
        }
    }

    /// True for events that change the picture (or may: an undo); brush changes, the view
    /// filters and sizes do not. A session journal starts at the first one.
    public var changesThePicture: Bool {
        switch self {
        case .pointerDown, .pointerMove, .pointerUp: true
        case .command(let c):
            switch c {
            case .undo, .redo, .clear, .paste, .frame: true
            // Choosing the current layer changes nothing drawn.
            case .layer(let op): if case .select = op { false } else { true }
            case .brush, .mypaint, .shading, .symmetry, .channel, .invert, .pulse, .exit, .continued, .document: false
            }
        case .resize, .reframe, .view: false
        }
    }
}
