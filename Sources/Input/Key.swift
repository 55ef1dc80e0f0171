/// A key on the keyboard, as the app binds it: the key itself (its unshifted symbol), never the
/// text it types. Shift+3 is `.char("3")` with `.shift` held (and types "#"), Shift+Tab is
/// `.tab` with `.shift`. The X11 layer makes these from keysyms (`X11Window`'s `KeyNames`);
/// nothing past it sees a keysym or its name.
public enum Key: Hashable, Sendable {
    /// A key that stands for a character: letters (lower case), digits, punctuation, the space
    /// bar (" "), and any other symbol a layout puts on a key ("ж").
    case char(Character)
    /// A key of the numeric keypad that stands for a character ("+", "-", "0" … "9", "*", "/",
    /// "."), whatever Num Lock says: the keypad's 0 is the same key with Num Lock off.
    case keypad(Character)
    case escape, enter, backspace, tab, delete, insert, pageUp, pageDown, home, end
    case left, right, up, down, print
    /// F1 … F35.
    case function(Int)
    /// A modifier key itself (pressed or released): Shift or Control, left or right.
    case shift, control
    /// Any other key (Alt, Super, Caps Lock, media keys…): no binding uses it.
    case other(UInt32)

    /// The space bar.
    public static let space = Key.char(" ")

    /// How help and messages name it: "a", "[", "Space", "Page Up", "F1".
    public var label: String {
        switch self {
        case .char(" "): "Space"
        case .char(let c): String(c)
        case .keypad(let c): "keypad " + String(c)
        case .escape: "Escape"
        case .enter: "Return"
        case .backspace: "BackSpace"
        case .tab: "Tab"
        case .delete: "Delete"
        case .insert: "Insert"
        case .pageUp: "Page Up"
        case .pageDown: "Page Down"
        case .home: "Home"
        case .end: "End"
        case .left: "Left"
        case .right: "Right"
        case .up: "Up"
        case .down: "Down"
        case .print: "Print"
        case .function(let n): "F\(n)"
        case .shift: "Shift"
        case .control: "Control"
        case .other(let code): "key 0x" + String(code, radix: 16)
        }
    }
}

/// A character literal is the key that stands for it: `"a"`, `"["`, `" "`.
extension Key: ExpressibleByExtendedGraphemeClusterLiteral {
    public init(extendedGraphemeClusterLiteral c: Character) { self = .char(c) }
}
