import Events
import Input
import Kernels
import Strokes

/// What a key does in the window. Session commands are recorded and replayed; the rest act on
/// the app (`PointerRouter` and `PaintApp` carry them out).
public enum KeyAction: Equatable, Sendable {
    case command(Command)
    /// The brush size halved (−1) or doubled (+1), within `BrushTip.sizes`.
    case sizeStep(Int)
    /// The stabilizer's next strength (off after the strongest).
    case nextStabilizer
    /// The canvas exported as a timestamped PNG (never overwriting).
    case screenshot
    /// The document saved to its file (a name asked first where it has none).
    case save
    /// The document saved under a name asked for.
    case saveAs
    /// Another picture or document opened by a name asked for.
    case open
    /// The canvas, as a screenshot would save it, onto the clipboard.
    case copy
    /// The clipboard's image onto the canvas, centred at the pointer.
    case paste
    case quit
    /// Arms the colour picker: the next button-1 press takes the colour under it.
    case pickColor
    /// Zoom in (+1) or out (−1) by a factor of two around the pointer.
    case zoom(Int)
    /// Back to 100 %, upright and unmirrored, the canvas's corner at the window's.
    case resetView
    /// The view turned by this many degrees (clockwise) about the window's centre.
    case turn(Double)
    /// The view mirrored (flipped left to right) about the window's centre, or back.
    case mirrorView
    /// Every piece of on-canvas UI hidden, or shown again.
    case toggleTools
    /// MercurialPaint's shading editor opened or closed.
    case shadingEditor
    /// The keys shown over the canvas, or hidden.
    case help
    /// The layer panel shown or hidden.
    case layerPanel
    /// The current layer's name typed in the status strip.
    case renameLayer
    /// The brush chooser opened or closed.
    case brushChooser
    /// Mirror painting turned on or off, its next mode, or its axes moved to the pointer.
    case symmetry(SymmetryKey)
}

/// What a symmetry key does (`PointerRouter.symmetry`).
public enum SymmetryKey: Equatable, Sendable {
    /// On (in the mode last used; vertical, about the canvas's middle, the first time) or off.
    case toggle
    /// On, in the next of `PointerRouter.symmetryModes`.
    case nextMode
    /// On, its axes (a rotation's centre) through the pixel edge or centre nearest the pointer.
    case toPointer
}

/// A key with the modifiers that must be held for it.
public struct Chord: Hashable, Sendable {
    public var key: Key
    public var mods: Modifiers
    public init(_ key: Key, _ mods: Modifiers = []) { self.key = key; self.mods = mods }
}

/// One line of the key help: the keys as a person reads them, what they do, and the chords
/// that do it (none for what is not a key binding: a drag, a held modifier, typing a colour).
public struct KeyBinding: Sendable {
    public let keys: String
    public let does: String
    public let chords: [(Chord, KeyAction)]

    init(_ keys: String, _ does: String, _ chords: [(Chord, KeyAction)] = []) {
        self.keys = keys; self.does = does; self.chords = chords
    }
}

/// The window's keys and pointer gestures, in one table: `action(for:)` reads it, and `--help`,
/// the man page (generated from `--help`) and docs/usage.md (a test checks it) are written from
/// it, so what they say is what the code does.
public enum KeyMap {
    /// The palette on 1–9.
    public static let palette: [Color] = [
        "#000000", "#ffffff", "#e53935", "#fb8c00", "#fdd835", "#43a047", "#1e88e5", "#8e24aa", "#757575",
    ].compactMap { Color(hex: $0) }

    private static func c(_ ch: Character, _ mods: Modifiers = []) -> Chord { Chord(.char(ch), mods) }

    public static let bindings: [KeyBinding] = [
        KeyBinding("F1, ?", "show / hide these keys over the canvas (Escape hides them too); where they need more than one page, "
            + "Page Down / Page Up, the arrows, Home / End and the wheel turn the pages",
            [(Chord(.function(1)), .help), (c("/", .shift), .help)]),
        KeyBinding("[ / ]", "halve / double the brush size (1…512)", [(c("["), .sizeStep(-1)), (c("]"), .sizeStep(1))]),
        KeyBinding("p / x / m / e", "pen (anti-aliased, smoothed) / pixel pen (Bresenham line stamped with a midpoint circle) / "
            + "mercurial brush (liquid metal; default size 200) / eraser (size 24 to start); each kind keeps its own size",
            [(c("p"), .command(.brush(kind: .pen))), (c("x"), .command(.brush(kind: .pixel))),
             (c("m"), .command(.brush(kind: .mercurial))), (c("e"), .command(.brush(kind: .eraser)))]),
        KeyBinding("r / g / b", "flip the red / green / blue channel of the colour",
            [(c("r"), .command(.channel(.r))), (c("g"), .command(.channel(.g))), (c("b"), .command(.channel(.b)))]),
        KeyBinding("# rrggbb Return", "any colour (#rrggbbaa with alpha): the status shows what is typed, BackSpace takes a digit back, "
            + "a key that is not a hex digit is refused, Escape cancels"),
        KeyBinding("c", "colour picker: a crosshair pointer; the next click takes the colour under it (the paint there, or the "
            + "background where the canvas is bare) and draws nothing; Escape disarms", [(c("c"), .pickColor)]),
        KeyBinding("right click", "the pop-up palette at the pointer (also the stylus's barrel button, where it is button 3): hue ring, "
            + "saturation/value square, recent colours, a ring of favourite MyPaint brushes (the last chosen first), brush kind and size; "
            + "a click outside, Escape or another right click closes it"),
        KeyBinding("F6, Shift+B", "the brush chooser (also the palette's Brushes… button): every installed MyPaint brush, pack by pack, "
            + "the wheel scrolls it; a click on one chooses it, a click outside or Escape closes it",
            [(Chord(.function(6)), .brushChooser), (c("b", .shift), .brushChooser)]),
        KeyBinding("l", "the mercurial brush's shading editor: drag the four lights, their hue and brightness, the shininess "
            + "(mercurial strokes drawn after it take it)", [(c("l"), .shadingEditor)]),
        KeyBinding("Tab", "hide / show every on-canvas tool: palette, brush outline, status strip, shading editor (canvas only, as in Krita)",
            [(Chord(.tab), .toggleTools), (Chord(.tab, .shift), .toggleTools)]),
        KeyBinding("s", "stabilizer: off → 1/3 → 2/3 → full → off (the pen follows a steadied path)", [(c("s"), .nextStabilizer)]),
        KeyBinding("i", "invert view on / off (exports capture it)", [(c("i"), .command(.invert(nil)))]),
        KeyBinding("f", "fit the frame to the ink: the frame (what exports, render, the clipboard, a saved .ora and the thumbnails "
            + "show) becomes the bounding box of the paint on the shown layers, inside it or beyond; one undo step",
            [(c("f"), .command(.frame(.fit)))]),
        KeyBinding("o", "pulsing background on / off (the Image Performer's white → hue → black breathing)",
            [(c("o"), .command(.pulse(on: nil)))]),
        KeyBinding("1 … 9", "palette: black, white, red, orange, yellow, green, blue, purple, grey",
            (1...9).map { (c(Character(String($0))), .command(.brush(color: palette[$0 - 1]))) }),
        KeyBinding("Shift, Control (held)", "without a tablet: Shift presses hard (pressure 1.0), Control is a light touch (0.2), "
            + "neither is 0.5; the pressure eases toward it over 80 ms"),
        KeyBinding("Insert, Ctrl+Shift+N", "a new layer above the current one (Layer N), made current",
            [(Chord(.insert), .command(.layer(.new(name: nil)))), (c("n", [.control, .shift]), .command(.layer(.new(name: nil))))]),
        KeyBinding("F7", "show / hide the layer panel at the right edge (shown at start): a click selects a layer, a drag moves it "
            + "(onto a group: into it; onto a row outside its group: out of it), a double-click renames it, the eye shows or hides it, "
            + "a group's triangle folds or unfolds it, + adds a layer, − deletes the current one, ↓ merges it down, ⊞ groups it, "
            + "⊟ ungroups a group", [(Chord(.function(7)), .layerPanel)]),
        KeyBinding("F2", "rename the current layer: its name typed in the status strip (Ctrl+U clears, Return renames, Escape cancels)",
            [(Chord(.function(2)), .renameLayer)]),
        KeyBinding("Ctrl+G / Ctrl+Shift+G", "put the current layer (or group) in a new group / take the current group away, what it "
            + "holds staying in its place", [(c("g", .control), .command(.layer(.group(name: nil)))), (c("g", [.control, .shift]), .command(.layer(.ungroup)))]),
        KeyBinding("Ctrl+Shift+Page Up / Down", "move the current layer into the group just above it / out of its group (to just below it)",
            [(Chord(.pageUp, [.control, .shift]), .command(.layer(.into))), (Chord(.pageDown, [.control, .shift]), .command(.layer(.out)))]),
        KeyBinding("Ctrl+Shift+I", "the current group isolated (its layers composed on their own, then blended as one) / pass-through "
            + "(each layer blends with what is below the group)", [(c("i", [.control, .shift]), .command(.layer(.step(.isolation))))]),
        KeyBinding("Page Up / Page Down", "select the layer above / below",
            [(Chord(.pageUp), .command(.layer(.step(.select(1))))), (Chord(.pageDown), .command(.layer(.step(.select(-1)))))]),
        KeyBinding("Ctrl+Page Up / Down", "move the current layer up / down",
            [(Chord(.pageUp, .control), .command(.layer(.move(1)))), (Chord(.pageDown, .control), .command(.layer(.move(-1))))]),
        KeyBinding("Shift+Delete", "delete the current layer (never the last)", [(Chord(.delete, .shift), .command(.layer(.delete)))]),
        KeyBinding("Ctrl+E", "merge the current layer down (with its mode and opacity)", [(c("e", .control), .command(.layer(.mergeDown)))]),
        KeyBinding("v", "show / hide the current layer", [(c("v"), .command(.layer(.step(.visibility))))]),
        KeyBinding(", / .", "the current layer's opacity −10 % / +10 %",
            [(c(","), .command(.layer(.step(.opacity(-1))))), (c("."), .command(.layer(.step(.opacity(1)))))]),
        KeyBinding("n / Shift+N", "the current layer's blend mode: next / previous of normal, multiply, screen, overlay, darken, lighten, "
            + "color-dodge, color-burn, hard-light, soft-light, difference, color, luminosity, hue, saturation, plus",
            [(c("n"), .command(.layer(.step(.mode(1))))), (c("n", .shift), .command(.layer(.step(.mode(-1)))))]),
        KeyBinding("Ctrl+Z", "undo (one step: a stroke, a clear, a paste or a layer operation; as many as --undo-megabytes holds)",
            [(c("z", .control), .command(.undo))]),
        KeyBinding("Ctrl+Shift+Z, Ctrl+Y", "redo", [(c("z", [.control, .shift]), .command(.redo)), (c("y", .control), .command(.redo))]),
        KeyBinding("Delete", "clear the current layer", [(Chord(.delete), .command(.clear))]),
        KeyBinding("y / Shift+Y / u", "mirror painting on / off; its next mode: vertical axis (left ↔ right), horizontal axis, both "
            + "(four copies), rotation in 3, 4, 6 or 8; its axes (a rotation's centre) to the pointer. The axes are drawn over the "
            + "canvas, a drag from the ring on their centre moves them; every stroke paints its copies, one undo step",
            [(c("y"), .symmetry(.toggle)), (c("y", .shift), .symmetry(.nextMode)), (c("u"), .symmetry(.toPointer))]),
        KeyBinding("+ / -", "zoom in / out around the pointer, a factor of 2 a step, 1/8 … 32 (= and the keypad's + and - too)",
            [(c("+"), .zoom(1)), (c("="), .zoom(1)), (Chord(.keypad("+")), .zoom(1)), (c("-"), .zoom(-1)), (Chord(.keypad("-")), .zoom(-1))]),
        KeyBinding("Ctrl+wheel", "zoom in / out around the pointer in finer steps (four a factor of 2)"),
        KeyBinding("Ctrl+[ / Ctrl+]", "turn the view 15° anticlockwise / clockwise about the window's centre (the brush outline and the "
            + "panels stay upright; strokes land under the pointer)", [(c("[", .control), .turn(-15)), (c("]", .control), .turn(15))]),
        KeyBinding("Shift+Space+drag", "turn the view freely about the window's centre"),
        KeyBinding("h", "mirror the view left to right about the window's centre, or back (the canvas is not changed)",
            [(c("h"), .mirrorView)]),
        KeyBinding("0", "100 %, upright, unmirrored, the frame's top-left corner in the window's top-left corner (the keypad's 0 too)",
            [(c("0"), .resetView), (Chord(.keypad("0")), .resetView)]),
        KeyBinding("middle drag, Space+drag", "pan: the canvas moves with the hand, pixel for pixel at every zoom"),
        KeyBinding("wheel, Shift+wheel", "pan up and down, left and right (64 px a click)"),
        KeyBinding("Ctrl+S", "save the document to its file (.ora keeps every layer; .png flattens them, and says so); a document "
            + "without a file asks for a name first. The title names the file, a * before it while there are unsaved changes",
            [(c("s", .control), .save)]),
        KeyBinding("Ctrl+Shift+S", "save as: the desktop's file chooser asks for a name where one answers (the XDG portal), else the "
            + "status strip (.ora or .png), the suggestion typed in: Tab completes, Ctrl+U clears, Return saves, Escape cancels; an "
            + "existing file asks before it is replaced",
            [(c("s", [.control, .shift]), .saveAs)]),
        KeyBinding("Ctrl+O", "open another picture or document (.png, .ora, or a session .jsonl) by name, asked the same way; the "
            + "drawing before stays in its session (quicksilver sessions lists it)", [(c("o", .control), .open)]),
        KeyBinding("Ctrl+Shift+E, Print", "export a screenshot: quicksilver-YYYYMMDD-HHMMSS.png in --export-dir, else $XDG_PICTURES_DIR, "
            + "else ~/Pictures, else the current folder; never overwrites (-2, -3, …); the path is printed",
            [(c("e", [.control, .shift]), .screenshot), (Chord(.print), .screenshot)]),
        KeyBinding("Ctrl+C", "copy the canvas to the clipboard, exactly as the screenshot export saves it (image/png)", [(c("c", .control), .copy)]),
        KeyBinding("Ctrl+V", "paste the clipboard's image onto the canvas, centred at the pointer (one undo step)",
            [(c("v", .control), .paste)]),
        KeyBinding("Ctrl+Q", "quit (the window manager's close button does too)", [(c("q", .control), .quit)]),
    ]

    /// Every chord's action. A key with Shift held that is not bound with Shift does what it
    /// does without (Shift+[ is [, Ctrl+Shift+C is Ctrl+C).
    private static let table: [Chord: KeyAction] = {
        var t: [Chord: KeyAction] = [:]
        for b in bindings { for (chord, action) in b.chords { t[chord] = action } }
        return t
    }()

    /// The action of a key press, or nil for an unbound key.
    public static func action(for key: KeyPress) -> KeyAction? {
        if let a = table[Chord(key.key, key.mods)] { return a }
        guard key.mods.contains(.shift) else { return nil }
        return table[Chord(key.key, key.mods.subtracting(.shift))]
    }

    /// What a blank first start says in the status strip.
    public static let greeting = "right click: the palette · F1: the keys"

    /// The help `--help` and the man page show: one binding a line (long ones wrapped).
    public static var help: String {
        var lines = ["Keys:"]
        for b in bindings {
            // Keys padded to 19 columns, or followed by a space when longer; the words wrapped
            // at 100 columns under column 21. Lengths kept as it goes (each String.count walks
            // the string: this ran at every start, `render` too, for ArgumentParser's tree).
            let keys = b.keys.count
            var line = "  " + b.keys + (keys > 18 ? " " : String(repeating: " ", count: 19 - keys)), length = keys > 18 ? keys + 3 : 21
            var first = true
            for word in b.does.split(separator: " ") {
                let n = word.count
                if !first, length + 1 + n > 100 {
                    lines.append(line)
                    line = String(repeating: " ", count: 21) + word
                    length = 21 + n
                } else {
                    line += (first ? "" : " ") + word
                    length += (first ? 0 : 1) + n
                }
                first = false
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    /// The same table in Markdown, as docs/usage.md holds it (its `|` escaped).
    public static var markdown: String {
        func cell(_ s: String) -> String { s.replacingOccurrences(of: "|", with: "\\|") }
        return (["| keys | does |", "|---|---|"] + bindings.map { "| \(cell($0.keys)) | \(cell($0.does)) |" }).joined(separator: "\n")
    }
}
