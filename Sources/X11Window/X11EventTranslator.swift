import CX11
import Geometry
import Input

/// The one switch from X events to `InputEvent`s, with the little state it needs (which buttons
/// are down, which modifier keys are held, the first timestamp, the size last reported). Pointer
/// input comes either as core events or, through XInput 2, as `DeviceEvent`s with valuators
/// (see `PenDevices`); a core event becomes a `DeviceEvent` of no device, so both take the same
/// pointer logic.
///
/// - Button 1 press / release → `.pointerDown` / `.pointerUp`; motion while it or the middle
///   button is down → `.pointerMove` (every motion event, none merged); with none down
///   → `.hover`, and leaving the window → `.leave`. Buttons 2 to 7 → `.button` (the wheel, 4 to
///   7: its presses only).
/// - XInput 2 adds each sample's pressure and tilt from its device, and the stylus end that made it. A
///   zero reading while the pen is down keeps the last good value (an evdev quirk), and a press
///   without pressure yet waits, with the motion after it, for the first non-zero reading (at
///   most a frame, 17 ms), so a stroke starts without a blot. A device unplugged mid-stroke ends
///   the stroke where it was.
/// - KeyPress / KeyRelease → `.key` / `.keyRelease` (the unshifted key as a typed `Key`, what it
///   types, the pointer's position); Shift/Control press or release also → `.modifiers` (the
///   state after the change). An autorepeated key reports its presses only.
/// - Expose (last of a series) → `.expose`; a ConfigureNotify with a new size → `.resize`;
///   WM_DELETE_WINDOW → `.close`.
///
/// Times are seconds since the first reported event's X timestamp (server milliseconds,
/// wrapping at 2³²); events without a timestamp carry the latest one. Pure: no request goes to
/// the X server from here (keysyms become `Key`s by `KeySymbols`' arithmetic), so tests feed it synthetic
/// events (and Fuzzing's `X11EventsTarget`, which is why it is `package`).
package struct X11EventTranslator {
    /// The window whose events these are (a ConfigureNotify of another window is ignored).
    let window: Window
    let wmProtocols: Atom
    let wmDeleteWindow: Atom
    /// A key event's unshifted keysym and the text it types (XLookupKeysym and XLookupString,
    /// which read the display's keymap).
    let key: (XKeyEvent) -> (keysym: KeySym, text: String)

    /// The pointing devices XInput 2 reports (empty on core input).
    private(set) var devices = PenDevices()
    /// The size last reported with `.resize` (or the window's first size).
    private(set) var size: Size
    private var firstTimestamp: UInt32?
    /// The newest server timestamp seen (ICCCM wants a real one when taking a selection).
    private(set) var lastServerTime: Time = 0 /* CurrentTime */
    private var lastEventTime = 0.0
    private var middleIsDown = false
    private var heldModifierKeys: Set<KeySym> = []
    /// The device drawing the stroke, its last good (non-zero) pressure and newest sample.
    private var stroke: (source: Int32, lastGood: Double?, last: PointerSample)?
    /// Button 1 is down: a stroke is being drawn.
    private var pointerIsDown: Bool { stroke != nil }
    /// A press waiting for its first pressure, with the motion since, and its server time.
    private var held: (samples: [PointerSample], since: Time)?

    /// How long a press waits for its first non-zero pressure: a frame.
    static let pressureWaitMS: Time = 17

    /// One XInput 2 pointer event as plain values (read out of its event cookie).
    package struct DeviceEvent: Sendable {
        package enum Kind: Sendable { case press, release, motion }
        var kind: Kind
        /// The slave device that made it.
        var source: Int32
        /// The button, for a press or release.
        var button: Int
        var x: Double, y: Double
        var time: Time
        /// Modifier state (ShiftMask, ControlMask).
        var state: UInt32
        /// The valuator mask's bytes, and the values of the valuators set in it, in order.
        var mask: [UInt8]
        var values: [Double]

        package init(kind: Kind, source: Int32, button: Int = 0, x: Double, y: Double, time: Time, state: UInt32 = 0,
                     mask: [UInt8] = [], values: [Double] = []) {
            self.kind = kind; self.source = source; self.button = button; self.x = x; self.y = y; self.time = time
            self.state = state; self.mask = mask; self.values = values
        }
    }

    /// The device id core pointer events are given: none (real devices start at 2).
    static let coreSource: Int32 = 0

    package init(window: Window, size: Size, wmProtocols: Atom, wmDeleteWindow: Atom,
         key: @escaping (XKeyEvent) -> (keysym: KeySym, text: String), devices: [PenDevices.Device] = []) {
        self.devices = PenDevices(devices)
        self.window = window
        self.size = size
        self.wmProtocols = wmProtocols
        self.wmDeleteWindow = wmDeleteWindow
        self.key = key
    }

    /// Appends what a pointer event (XInput 2, or core as one of no device) means to `out`.
    package mutating func translate(_ e: DeviceEvent, into out: inout [InputEvent]) {
        let reading = devices.pressure(of: e.source, mask: e.mask, values: e.values)
        let tilt = devices.tilt(of: e.source, mask: e.mask, values: e.values)
        // An event that means nothing reports nothing (and is no "first event" for the times).
        switch e.kind {
        case .press where e.button == 1: guard !pointerIsDown else { return }
        case .release where e.button == 1: guard pointerIsDown else { return }
        case .motion, .press, .release: break
        }
        var s = PointerSample(x: e.x, y: e.y, xtilt: tilt.x, ytilt: tilt.y, time: seconds(e.time), mods: modifiers(e.state),
                              tool: devices.isEraser(e.source) ? .eraser : .pen)
        if e.kind == .motion && !pointerIsDown && !middleIsDown {
            out.append(.hover(s))
            return
        }
        let pen = devices.hasPressure(e.source)
        switch e.kind {
        case .press where e.button == 1:
            let good = reading.flatMap { $0 > 0 ? $0 : nil }
            s.pressure = good
            stroke = (e.source, good, s)
            if pen && good == nil {
                held = ([s], e.time)   // wait for the first reading
            } else {
                out.append(.pointerDown(s))
            }
        case .release where e.button == 1:
            s.pressure = pen ? good(reading) : nil
            releaseHeld(into: &out)
            stroke = nil
            out.append(.pointerUp(s))
        case .press, .release:
            button(e.button, down: e.kind == .press, s, into: &out)
        case .motion:
            if pointerIsDown, pen { s.pressure = good(reading) }
            if held != nil {
                held?.samples.append(s)
                if s.pressure != nil || e.time &- (held?.since ?? e.time) >= Self.pressureWaitMS { releaseHeld(into: &out) }
                return
            }
            if pointerIsDown { stroke?.last = s }
            out.append(.pointerMove(s))
        }
    }

    /// The devices changed (one plugged in or out): a stroke whose device is gone ends where it was.
    package mutating func devicesChanged(_ list: [PenDevices.Device], into out: inout [InputEvent]) {
        devices.replace(with: list)
        guard let source = stroke?.source, devices.byID[source] == nil else { return }
        releaseHeld(into: &out)   // a press still waiting: its samples first, which moves the last
        if let last = stroke?.last { out.append(.pointerUp(last)) }
        stroke = nil
    }

    /// A reading while the pen is down: zero keeps the last good value.
    private mutating func good(_ reading: Double?) -> Double? {
        if let r = reading, r > 0 { stroke?.lastGood = r }
        return stroke?.lastGood
    }

    /// Sends a held press and the motion after it, all with the first good pressure (nil when
    /// none came: the app then simulates one).
    private mutating func releaseHeld(into out: inout [InputEvent]) {
        guard let h = held else { return }
        held = nil
        let pressure = stroke?.lastGood
        for (i, var sample) in h.samples.enumerated() {
            sample.pressure = pressure
            out.append(i == 0 ? .pointerDown(sample) : .pointerMove(sample))
            stroke?.last = sample
        }
    }

    /// Buttons other than the first, core or XInput 2.
    private mutating func button(_ number: Int, down: Bool, _ s: PointerSample, into out: inout [InputEvent]) {
        guard let button = PointerButton(rawValue: number) else { return }
        if button.isWheel && !down { return }
        if button == .middle { middleIsDown = down }
        out.append(.button(button, isDown: down, s))
    }

    /// Appends what `ev` means to `out` (nothing, for events the app does not care about).
    package mutating func translate(_ ev: XEvent, into out: inout [InputEvent]) {
        switch ev.type {
        case ButtonPress, ButtonRelease:
            let b = ev.xbutton
            translate(DeviceEvent(kind: ev.type == ButtonPress ? .press : .release, source: Self.coreSource, button: Int(b.button),
                                  x: Double(b.x), y: Double(b.y), time: b.time, state: b.state), into: &out)
        case MotionNotify:
            let m = ev.xmotion
            translate(DeviceEvent(kind: .motion, source: Self.coreSource, x: Double(m.x), y: Double(m.y), time: m.time, state: m.state),
                      into: &out)
        case KeyPress, KeyRelease:
            let (sym, text) = key(ev.xkey)
            let time = seconds(ev.xkey.time)
            var mods = modifiers(ev.xkey.state)   // the state before this key
            if sym != 0 /* NoSymbol */ {
                let press = KeyPress(KeySymbols.key(sym), mods: mods, time: time, x: Double(ev.xkey.x), y: Double(ev.xkey.y), text: text)
                out.append(ev.type == KeyPress ? .key(press) : .keyRelease(press))
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
        case LeaveNotify where ev.xcrossing.mode == NotifyNormal:
            out.append(.leave)
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
