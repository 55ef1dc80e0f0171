import CX11
import Geometry
import Input

/// The one switch from X events to `InputEvent`s, with the little state it needs (whether
/// button 1 is down, which modifier keys are held, the first timestamp, the size last reported).
///
/// - Button 1 press / release → `.pointerDown` / `.pointerUp`; motion while it or the middle
///   button is down → `.pointerMove` (every MotionNotify, none merged). Buttons 2 to 7 →
///   `.button` (the wheel, 4 to 7: its presses only).
/// - KeyPress / KeyRelease → `.key` / `.keyRelease` (keysym name of the unshifted key, with
///   the pointer's position); Shift/Control press or release also → `.modifiers` (the state
///   after the change). An autorepeated key reports its presses only.
/// - Expose (last of a series) → `.expose`; a ConfigureNotify with a new size → `.resize`;
///   WM_DELETE_WINDOW → `.close`.
///
/// Times are seconds since the first reported event's X timestamp (server milliseconds,
/// wrapping at 2³²); events without a timestamp carry the latest one. Pure: no X call is made here, so tests
/// feed it synthetic events.
struct X11EventTranslator {
    /// The window whose events these are (a ConfigureNotify of another window is ignored).
    let window: Window
    let wmProtocols: Atom
    let wmDeleteWindow: Atom
    /// The unshifted keysym of a key event (XLookupKeysym, which reads the display's keymap).
    let keysym: (XKeyEvent) -> KeySym

    /// The size last reported with `.resize` (or the window's first size).
    private(set) var size: Size
    private var firstTimestamp: UInt32?
    /// The newest server timestamp seen (ICCCM wants a real one when taking a selection).
    private(set) var lastServerTime: Time = 0 /* CurrentTime */
    private var lastEventTime = 0.0
    private var pointerIsDown = false
    private var middleIsDown = false
    private var heldModifierKeys: Set<KeySym> = []

    init(window: Window, size: Size, wmProtocols: Atom, wmDeleteWindow: Atom, keysym: @escaping (XKeyEvent) -> KeySym) {
        self.window = window
        self.size = size
        self.wmProtocols = wmProtocols
        self.wmDeleteWindow = wmDeleteWindow
        self.keysym = keysym
    }

    /// Appends what `ev` means to `out` (nothing, for events the app does not care about).
    mutating func translate(_ ev: XEvent, into out: inout [InputEvent]) {
        switch ev.type {
        case ButtonPress where ev.xbutton.button == UInt32(Button1):
            pointerIsDown = true
            out.append(.pointerDown(sample(ev.xbutton.x, ev.xbutton.y, ev.xbutton.state, ev.xbutton.time)))
        case ButtonRelease where ev.xbutton.button == UInt32(Button1):
            guard pointerIsDown else { return }
            pointerIsDown = false
            out.append(.pointerUp(sample(ev.xbutton.x, ev.xbutton.y, ev.xbutton.state, ev.xbutton.time)))
        case ButtonPress, ButtonRelease:
            guard let button = PointerButton(rawValue: Int(ev.xbutton.button)) else { return }
            let down = ev.type == ButtonPress
            if button.isWheel && !down { return }
            if button == .middle { middleIsDown = down }
            out.append(.button(button, isDown: down, sample(ev.xbutton.x, ev.xbutton.y, ev.xbutton.state, ev.xbutton.time)))
        case MotionNotify:
            guard pointerIsDown || middleIsDown else { return }
            out.append(.pointerMove(sample(ev.xmotion.x, ev.xmotion.y, ev.xmotion.state, ev.xmotion.time)))
        case KeyPress, KeyRelease:
            let sym = keysym(ev.xkey)
            let time = seconds(ev.xkey.time)
            var mods = modifiers(ev.xkey.state)   // the state before this key
            if let name = Self.name(of: sym) {
                let key = KeyPress(name: name, mods: mods, time: time, x: Double(ev.xkey.x), y: Double(ev.xkey.y))
                out.append(ev.type == KeyPress ? .key(key) : .keyRelease(key))
            }
            let modifierKeys: [(KeySym, KeySym, Modifiers)] = [
                (KeySym(XK_Shift_L), KeySym(XK_Shift_R), .shift),
                (KeySym(XK_Control_L), KeySym(XK_Control_R), .control),
            ]
            for (left, right, flag) in modifierKeys where sym == left || sym == right {
                if ev.type == KeyPress {
                    heldModifierKeys.insert(sym)
                    mods.insert(flag)
                } else {
                    heldModifierKeys.remove(sym)
                    if !heldModifierKeys.contains(sym == left ? right : left) { mods.remove(flag) }
                }
                out.append(.modifiers(mods, time: time))
            }
        case Expose where ev.xexpose.count == 0:
            out.append(.expose)
        case ConfigureNotify where ev.xconfigure.window == window:
            let newSize = Size(width: Int(ev.xconfigure.width), height: Int(ev.xconfigure.height))
            if newSize != size {
                size = newSize
                out.append(.resize(newSize, time: lastEventTime))
            }
        case ClientMessage where ev.xclient.message_type == wmProtocols
                && Atom(truncatingIfNeeded: ev.xclient.data.l.0) == wmDeleteWindow:
            out.append(.close)
        default:
            break
        }
    }

    /// A keysym's name ("a", "bracketleft", "Delete"); nil for NoSymbol.
    static func name(of keysym: KeySym) -> String? {
        guard keysym != 0 /* NoSymbol */ else { return nil }
        if let s = XKeysymToString(keysym) { return String(cString: s) }
        return "0x" + String(keysym, radix: 16)
    }

    private mutating func sample(_ x: Int32, _ y: Int32, _ state: UInt32, _ time: Time) -> PointerSample {
        PointerSample(x: Double(x), y: Double(y), pressure: nil, time: seconds(time), mods: modifiers(state))
    }

    private func modifiers(_ state: UInt32) -> Modifiers {
        var mods: Modifiers = []
        if state & UInt32(ShiftMask) != 0 { mods.insert(.shift) }
        if state & UInt32(ControlMask) != 0 { mods.insert(.control) }
        return mods
    }

    /// An X timestamp (32-bit server milliseconds, wrapping) as seconds since the first one seen.
    private mutating func seconds(_ time: Time) -> Double {
        let t = UInt32(truncatingIfNeeded: time)
        lastServerTime = time
        let first = firstTimestamp ?? t
        firstTimestamp = first
        lastEventTime = Double(t &- first) / 1000
        return lastEventTime
    }
}
