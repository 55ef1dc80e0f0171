import Geometry
import Kernels
import Strokes

/// A colour channel the R/G/B toggles flip.
public enum Channel: String, Sendable, CaseIterable { case r, g, b }

/// What the user can ask of the document, from a key or a replay line.
public enum Command: Sendable, Equatable {
    /// Changes any of the brush's kind, size (1…512), colour and stabilizer (0…1, 0 off); nil
    /// leaves it as it is.
    case brush(kind: BrushKind? = nil, size: Int? = nil, color: Color? = nil, stabilizer: Double? = nil)
    /// A MyPaint brush made anew and chosen (any of the four kinds chosen after it puts it away).
    case mypaint(MyPaintChoice)
    /// The mercurial brush's lights and shininess, from the next mercurial stroke on. Changes no
    /// pixel by itself.
    case shading(Shading)
    /// Flips one channel of the current colour between 0 and full (the aptpod demo's toggles).
    case channel(Channel)
    case undo
    case redo
    /// The current layer made transparent (one undo step).
    case clear
    /// Turns the invert view on or off (nil: toggles).
    case invert(Bool?)
    /// Turns the pulsing background on or off (nil: toggles) and sets any of its parameters.
    case pulse(on: Bool?, hue: Double? = nil, centre: Double? = nil, range: Double? = nil)
    /// Mirror painting from the next stroke on (off: none). Changes no pixel by itself.
    case symmetry(Symmetry)
    /// A picture pasted onto the current layer (one undo step).
    case paste(PastedImage)
    /// A change to the stack of layers.
    case layer(LayerOp)
    /// A change to the frame, the part of the endless canvas that exports, `render`, the
    /// clipboard and thumbnails show (one undo step).
    case frame(FrameOp)
    /// The session closed cleanly (a journal's last line). Changes nothing.
    case exit
    /// The window's document is kept in `file` (absolute): saved there, or opened from it, and
    /// `edited` when the document already held changes the file does not. A journal's note, so
    /// that a session restored after a crash goes on with its file (its title, Ctrl+S). Changes
    /// nothing.
    case document(file: String, edited: Bool)
    /// A window continued the session here (after a crash, `--restore`, or a file opened): the
    /// events before it are the session it continues, replayed with their undo history. A stroke
    /// still live there ends at its last sample, and a pulsing background starts its cycle again.
    case continued
}

/// What can be done to the stack of layers. Each is one undo step, but choosing the current
/// layer (as in Krita and MyPaint); each does nothing where it cannot apply.
public enum LayerOp: Sendable, Equatable {
    /// The most layers a document holds (`DocumentLimits.maxLayers`, which the document keeps
    /// to). A replay's `select` reaches layers 0…maxLayers − 1 and no further (ReplayFormat's
    /// table has its range from here), so whatever the window makes, its journal restores.
    /// 4096: what replays have always been able to select.
    public static let maxLayers = DocumentLimits.maxLayers

    /// A new transparent layer just above the current one, made current (named "Layer N" unless
    /// a name is given).
    case new(name: String?)
    /// The current layer removed (never the last one); the one below becomes current.
    case delete
    /// Layer `index` (0 the bottom) made current.
    case select(Int)
    /// The current layer moved this many places up (+) or down (−), within its group; a group
    /// moves with what it holds, past whole layers and groups.
    case move(Int)
    /// The current layer blended onto the one below with its mode and opacity.
    case mergeDown
    /// Any of the current layer's visibility, opacity (0…1), blend mode and name, and whether
    /// a group is isolated (nil: as it is; `isolated` changes nothing on a layer).
    case set(visible: Bool? = nil, opacity: Double? = nil, mode: BlendMode? = nil, name: String? = nil, isolated: Bool? = nil)
    /// The current layer (or group, with what it holds) wrapped in a new pass-through group
    /// (named "Group N" unless a name is given); the current entry stays current.
    case group(name: String?)
    /// The current group taken away, what it held staying where it is, one level up.
    case ungroup
    /// The current layer (or group) moved into the group just above it, as its bottom child.
    case into
    /// The current layer (or group) moved out of its group, to just below it.
    case out
    /// A change relative to the stack as it is when played (a key: the next layer up, the next
    /// mode): the session plays it as the absolute operation it is then, and that is what a
    /// replay records, never this.
    case step(LayerStep)
}

/// What can be done to the frame. Each is one undo step; none changes a pixel of the layers.
public enum FrameOp: Sendable, Equatable {
    /// The frame fitted to the ink: the bounding box of the shown layers' painted pixels,
    /// wherever they lie. Nothing painted, or the ink wider or taller than a frame may be
    /// (`DocumentLimits.frameSides`): nothing changes.
    case fit
    /// The frame at this rectangle of the canvas (each side within `DocumentLimits.frameSides`).
    case set(Rect)
}

/// The layer keys' relative changes.
public enum LayerStep: Sendable, Equatable {
    /// The layer above (+1) or below (−1) made current.
    case select(Int)
    /// The opacity up (+1) or down (−1) by a tenth.
    case opacity(Int)
    /// The next (+1) or previous (−1) blend mode.
    case mode(Int)
    /// Shown if hidden, hidden if shown.
    case visibility
    /// A group isolated if pass-through, pass-through if isolated (nothing on a layer).
    case isolation
}
