import Events
import Input
import Kernels
import Strokes

/// What a key does in the window. Session commands are recorded and replayed; the rest
/// (screenshot, quit) act on the app.
public enum KeyAction: Equatable, Sendable {
    case command(Command)
    case screenshot
    case quit
    /// The canvas, as a screenshot would save it, onto the clipboard.
    case copy
    /// The clipboard's image onto the canvas, centred at the pointer.
    case paste
    /// Arms the colour picker: the next button-1 press takes the colour under it.
    case pickColor
    /// Zoom in (+1) or out (−1) by a factor of two around the pointer.
    case zoom(Int)
    /// Back to 100 %, the canvas's corner at the window's.
    case resetView
    /// The layered document saved as OpenRaster (Ctrl+Shift+S).
    case saveDocument
    /// Every piece of on-canvas UI hidden, or shown again (Tab).
    case toggleTools
    /// MercurialPaint's shading editor opened or closed (`l`).
    case shadingEditor
}

/// The window's key bindings, in one table so the README and `--help` describe what the code does.
public enum KeyMap {
    /// The palette on 1–9.
    public static let palette: [Color] = [
        "#000000", "#ffffff", "#e53935", "#fb8c00", "#fdd835", "#43a047", "#1e88e5", "#8e24aa", "#757575",
    ].compactMap { Color(hex: $0) }

    /// Help text: one line per binding.
    public static let help = """
    Keys:
      [ / ]            halve / double the brush size (1…512)
      p / x / m / e    pen / pixel pen / mercurial brush / eraser (each keeps its own size)
      r / g / b        flip the red / green / blue channel of the colour
      # rrggbb Return  set any colour (#rrggbbaa with alpha); Escape cancels
      c                pick a colour: the next click takes the colour under the pointer
      right click      the pop-up palette at the pointer: hue ring, saturation/value, recent colours,
                       brush kind and size (a click outside, Escape or another right click closes it)
      l                the mercurial brush's shading editor: drag the four lights, their hue and
                       brightness, the shininess (applies to mercurial strokes drawn after)
      Tab              hide / show every on-canvas tool (palette, outline, status strip, editor)
      s                stabilizer: off → 1/3 → 2/3 → full → off (the pen follows a steadied path)
      i                invert view on / off
      o                pulsing background on / off
      1 … 9            palette: black, white, red, orange, yellow, green, blue, purple, grey
      Shift (held)     press hard (pressure 1.0); Control (held): light touch (0.2)
      Ctrl+Z           undo;  Ctrl+Shift+Z or Ctrl+Y: redo
      Delete           clear the current layer (undoable)
      Insert           new layer above the current one (also Ctrl+Shift+N)
      Page Up / Down   select the layer above / below
      Ctrl+Page Up/Dn  move the current layer up / down
      Shift+Delete     delete the current layer
      Ctrl+E           merge the current layer down
      v                show / hide the current layer
      , / .            the current layer's opacity −10 % / +10 %
      n / Shift+N      the current layer's blend mode: next / previous (normal, multiply, screen, …)
      + / -            zoom in / out around the pointer (×2, 1/8 … 32); Ctrl+wheel too
      0                100 %, the canvas's top-left corner in the window's
      middle drag      pan (or Space held while dragging); the wheel pans too (Shift: sideways)
      Ctrl+S           save a screenshot PNG (the layers flattened)
      Ctrl+Shift+S     save the document with its layers (OpenRaster .ora: MyPaint, Krita, GIMP)
      Ctrl+C           copy the canvas to the clipboard (image/png, as Ctrl+S saves it)
      Ctrl+V           paste the clipboard's image, centred at the pointer (one undo step)
      Ctrl+Q           quit
    """

    /// The action for a key press given the current brush, or nil for an unbound key.
    public static func action(for key: KeyPress, brush: Brush) -> KeyAction? {
        let ctrl = key.mods.contains(.control), shift = key.mods.contains(.shift)
        if let action = layerAction(key.name, ctrl: ctrl, shift: shift) { return action }
        switch (key.name, ctrl) {
        case ("z", true), ("Z", true): return .command(shift ? .redo : .undo)
        case ("y", true): return .command(.redo)
        case ("s", true), ("S", true): return shift ? .saveDocument : .screenshot
        case ("c", true): return .copy
        case ("v", true): return .paste
        case ("q", true): return .quit
        case (_, true): return nil
        case ("bracketleft", false): return .command(.brush(size: max(BrushTip.sizes.lowerBound, brush.tip.size / 2)))
        case ("bracketright", false): return .command(.brush(size: min(BrushTip.sizes.upperBound, brush.tip.size * 2)))
        case ("p", false): return .command(.brush(kind: .pen))
        case ("x", false): return .command(.brush(kind: .pixel))
        case ("m", false): return .command(.brush(kind: .mercurial))
        case ("e", false): return .command(.brush(kind: .eraser))
        case ("c", false): return .pickColor
        case ("Tab", false), ("ISO_Left_Tab", false): return .toggleTools
        case ("l", false): return .shadingEditor
        case ("s", false): return .command(.brush(stabilizer: brush.nextStabilizer))
        case ("i", false): return .command(.invert(nil))
        case ("o", false): return .command(.pulse(on: nil))
        case ("r", false): return .command(.channel(.r))
        case ("g", false): return .command(.channel(.g))
        case ("b", false): return .command(.channel(.b))
        case ("Delete", false): return .command(shift ? .layer(.delete) : .clear)
        case ("plus", false), ("equal", false), ("KP_Add", false): return .zoom(1)
        case ("minus", false), ("KP_Subtract", false): return .zoom(-1)
        case ("0", false), ("KP_0", false), ("KP_Insert", false): return .resetView
        case (let name, false):
            guard name.count == 1, let digit = Int(name), (1...9).contains(digit) else { return nil }
            return .command(.brush(color: palette[digit - 1]))
        }
    }

    /// The keys that act on the stack of layers.
    private static func layerAction(_ name: String, ctrl: Bool, shift: Bool) -> KeyAction? {
        switch (name, ctrl) {
        case ("Insert", false): return .command(.layer(.new(name: nil)))
        case ("n", true) where shift, ("N", true) where shift: return .command(.layer(.new(name: nil)))
        case ("Prior", false), ("Page_Up", false): return .command(.layer(.step(.select(1))))
        case ("Next", false), ("Page_Down", false): return .command(.layer(.step(.select(-1))))
        case ("Prior", true), ("Page_Up", true): return .command(.layer(.move(1)))
        case ("Next", true), ("Page_Down", true): return .command(.layer(.move(-1)))
        case ("e", true): return .command(.layer(.mergeDown))
        case ("v", false): return .command(.layer(.step(.visibility)))
        case ("comma", false): return .command(.layer(.step(.opacity(-1))))
        case ("period", false): return .command(.layer(.step(.opacity(1))))
        case ("n", false): return .command(.layer(.step(.mode(shift ? -1 : 1))))
        case ("N", false): return .command(.layer(.step(.mode(-1))))
        default: return nil
        }
    }
}
