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
    /// The window, and so the visible canvas, changed size.
    case resize(Size)
}
