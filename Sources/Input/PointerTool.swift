/// Which end of a stylus made a sample (a mouse is a pen).
public enum PointerTool: Sendable, Equatable {
    case pen
    /// A stylus's eraser end: it erases, whatever brush is selected.
    case eraser
}
