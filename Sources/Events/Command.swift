import Kernels
import Strokes

/// A colour channel the R/G/B toggles flip.
public enum Channel: String, Sendable, CaseIterable { case r, g, b }

/// What the user can ask of the document, from a key or a replay line.
public enum Command: Sendable, Equatable {
    /// Changes any of the brush's kind, size (1…512), colour and stabilizer (0…1, 0 off); nil
    /// leaves it as it is.
    case brush(kind: BrushKind? = nil, size: Int? = nil, color: Color? = nil, stabilizer: Double? = nil)
    /// Flips one channel of the current colour between 0 and full (the aptpod demo's toggles).
    case channel(Channel)
    case undo
    case redo
    case clear
    /// Turns the invert view on or off (nil: toggles).
    case invert(Bool?)
    /// Turns the pulsing background on or off (nil: toggles) and sets any of its parameters.
    case pulse(on: Bool?, hue: Double? = nil, centre: Double? = nil, range: Double? = nil)
    /// A picture pasted onto the canvas (one undo step).
    case paste(PastedImage)
    /// The session closed cleanly (a journal's last line). Changes nothing.
    case exit
    /// A window continued the session here (after a crash, `--restore`, or a file opened): the
    /// events before it are the session it continues, replayed with their undo history. A stroke
    /// still live there ends at its last sample, and a pulsing background starts its cycle again.
    case continued
}
