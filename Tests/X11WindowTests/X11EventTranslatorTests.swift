import CX11
import Geometry
import Glibc
import Input
import Testing
@testable import X11Window

/// Synthetic X events through the translator: no X server involved.
@Suite struct X11EventTranslatorTests {
    private let window: Window = 0x40_0001
    private let protocols: Atom = 301, delete: Atom = 302
    /// Keycodes of the fake keyboard: the keycode is the keysym; a printable one types itself.
    private func translator() -> X11EventTranslator {
        X11EventTranslator(window: window, size: Size(width: 400, height: 300), wmProtocols: protocols, wmDeleteWindow: delete,
                           key: { e in (KeySym(e.keycode), e.keycode < 0x7f ? String(UnicodeScalar(UInt8(e.keycode))) : "") })
    }

    private func button(_ type: Int32, _ button: Int32, x: Int32, y: Int32, state: Int32 = 0, time: Time) -> XEvent {
        var ev = XEvent()
        ev.type = type
        ev.xbutton.button = UInt32(button)
        ev.xbutton.x = x; ev.xbutton.y = y
        ev.xbutton.state = UInt32(state)
        ev.xbutton.time = time
        return ev
    }

    private func motion(x: Int32, y: Int32, state: Int32 = 0, time: Time) -> XEvent {
        var ev = XEvent()
        ev.type = MotionNotify
        ev.xmotion.x = x; ev.xmotion.y = y
        ev.xmotion.state = UInt32(state)
        ev.xmotion.time = time
        return ev
    }

    private func key(_ type: Int32, _ keysym: Int32, state: Int32 = 0, time: Time) -> XEvent {
        var ev = XEvent()
        ev.type = type
        ev.xkey.keycode = UInt32(keysym)
        ev.xkey.state = UInt32(state)
        ev.xkey.time = time
        return ev
    }

    private func run(_ events: [XEvent], _ t: inout X11EventTranslator) -> [InputEvent] {
        var out: [InputEvent] = []
        for ev in events { t.translate(ev, into: &out) }
        return out
    }

    @Test func button1DragBecomesDownMovesAndUpWithTimesFromTheFirstEvent() {
        var t = translator()
        let out = run([
            motion(x: 5, y: 5, time: 900),                                   // not pressed: a hover
            button(ButtonPress, Button1, x: 10, y: 20, time: 1000),
            motion(x: 11, y: 21, state: ShiftMask, time: 1004),
            motion(x: 12, y: 22, time: 1008),
            button(ButtonPress, Button3, x: 12, y: 22, time: 1010),         // another button
            button(ButtonRelease, Button1, x: 13, y: 23, state: Button1Mask | ControlMask, time: 1016),
            motion(x: 14, y: 24, time: 1020),                                // released: a hover
            button(ButtonRelease, Button1, x: 14, y: 24, time: 1030),        // a second release: ignored
        ], &t)
        #expect(out == [
            .hover(PointerSample(x: 5, y: 5, time: 0)),
            .pointerDown(PointerSample(x: 10, y: 20, time: 0.1)),
            .pointerMove(PointerSample(x: 11, y: 21, time: 0.104, mods: .shift)),
            .pointerMove(PointerSample(x: 12, y: 22, time: 0.108)),
            .button(.right, isDown: true, PointerSample(x: 12, y: 22, time: 0.11)),
            .pointerUp(PointerSample(x: 13, y: 23, time: 0.116, mods: .control)),
            .hover(PointerSample(x: 14, y: 24, time: 0.12)),
        ], "times count from the first event reported")
    }

    @Test func theMiddleButtonDragsAndTheWheelClicks() {
        var t = translator()
        var key = self.key(KeyPress, XK_plus, time: 5)
        key.xkey.x = 33; key.xkey.y = 44
        let out = run([
            button(ButtonPress, 2, x: 5, y: 6, time: 0),
            motion(x: 7, y: 8, time: 1),                                      // the middle button drags
            button(ButtonRelease, 2, x: 7, y: 8, time: 2),
            motion(x: 9, y: 9, time: 3),                                      // nothing held: a hover
            button(ButtonPress, 5, x: 9, y: 9, state: ControlMask, time: 4),
            button(ButtonRelease, 5, x: 9, y: 9, time: 4),                    // a wheel click's release: ignored
            key,
        ], &t)
        #expect(out == [
            .button(.middle, isDown: true, PointerSample(x: 5, y: 6, time: 0)),
            .pointerMove(PointerSample(x: 7, y: 8, time: 0.001)),
            .button(.middle, isDown: false, PointerSample(x: 7, y: 8, time: 0.002)),
            .hover(PointerSample(x: 9, y: 9, time: 0.003)),
            .button(.wheelDown, isDown: true, PointerSample(x: 9, y: 9, time: 0.004, mods: .control)),
            .key(KeyPress(.char("+"), time: 0.005, x: 33, y: 44, text: "+")),
        ])
    }

    @Test func timestampsWrapAround() {
        var t = translator()
        let out = run([button(ButtonPress, Button1, x: 0, y: 0, time: 0xFFFF_FF00), motion(x: 1, y: 1, time: 0x100)], &t)
        #expect(out.last == .pointerMove(PointerSample(x: 1, y: 1, time: 0.512)))
    }

    @Test func keysAreNamedAndModifierKeysReportTheStateAfterThem() {
        var t = translator()
        let out = run([
            key(KeyPress, XK_bracketleft, time: 0),
            key(KeyPress, XK_Shift_L, time: 10),
            key(KeyPress, XK_Shift_R, state: ShiftMask, time: 20),
            key(KeyRelease, XK_Shift_L, state: ShiftMask, time: 30),          // the right one is still held
            key(KeyRelease, XK_Shift_R, state: ShiftMask, time: 40),
            key(KeyPress, XK_z, state: ControlMask, time: 50),
        ], &t)
        #expect(out == [
            .key(KeyPress(.char("["), time: 0, text: "[")),
            .key(KeyPress(.shift, time: 0.01)), .modifiers(.shift, time: 0.01),
            .key(KeyPress(.shift, mods: .shift, time: 0.02)), .modifiers(.shift, time: 0.02),
            .keyRelease(KeyPress(.shift, mods: .shift, time: 0.03)), .modifiers(.shift, time: 0.03),
            .keyRelease(KeyPress(.shift, mods: .shift, time: 0.04)), .modifiers([], time: 0.04),
            .key(KeyPress(.char("z"), mods: .control, time: 0.05, text: "z")),
        ])
    }

    /// Keysyms become typed keys by their values alone: Latin-1 and Unicode ones their
    /// characters, the keypad's by what they type with Num Lock on (its 0 is one key either way),
    /// Shift+Tab the Tab key, anything unbound a key of its own code.
    @Test func keysymsAreTypedKeys() {
        let cases: [(Int32, Key)] = [
            (XK_a, .char("a")), (XK_bracketleft, .char("[")), (XK_space, .char(" ")), (XK_numbersign, .char("#")),
            (0x100_0416, .char("Ж")), (0x101_F600, .char("😀")), (XK_adiaeresis, .char("ä")),
            (XK_Escape, .escape), (XK_Return, .enter), (XK_KP_Enter, .enter), (XK_BackSpace, .backspace),
            (XK_Tab, .tab), (XK_ISO_Left_Tab, .tab), (XK_Delete, .delete), (XK_Insert, .insert),
            (XK_Prior, .pageUp), (XK_Next, .pageDown), (XK_F1, .function(1)), (XK_F12, .function(12)),
            (XK_KP_Add, .keypad("+")), (XK_KP_Subtract, .keypad("-")), (XK_KP_0, .keypad("0")), (XK_KP_Insert, .keypad("0")),
            (XK_Shift_L, .shift), (XK_Shift_R, .shift), (XK_Control_L, .control), (XK_Control_R, .control),
            (XK_Alt_L, .other(UInt32(XK_Alt_L))), (XK_Cyrillic_a, .other(UInt32(XK_Cyrillic_a))),
        ]
        for (sym, key) in cases { #expect(KeySymbols.key(KeySym(sym)) == key, "keysym 0x\(String(sym, radix: 16))") }
    }

    @Test func exposeResizeAndClose() {
        var t = translator()
        var exposeFirst = XEvent(), exposeLast = XEvent()
        exposeFirst.type = Expose; exposeFirst.xexpose.count = 2
        exposeLast.type = Expose; exposeLast.xexpose.count = 0
        func configure(_ w: Window, _ width: Int32, _ height: Int32) -> XEvent {
            var ev = XEvent()
            ev.type = ConfigureNotify
            ev.xconfigure.window = w; ev.xconfigure.width = width; ev.xconfigure.height = height
            return ev
        }
        var close = XEvent()
        close.type = ClientMessage
        close.xclient.message_type = protocols
        close.xclient.data.l.0 = Int(delete)
        var other = close
        other.xclient.data.l.0 = 999
        let out = run([exposeFirst, exposeLast, configure(window, 400, 300), configure(window, 640, 480),
                       configure(window, 640, 480), configure(0x99, 10, 10), other, close], &t)
        #expect(out == [.expose, .resize(Size(width: 640, height: 480), time: 0), .close],
                "a move without a new size, another window's configure and other messages say nothing")
        #expect(t.size == Size(width: 640, height: 480))
    }
}

@Suite struct ResourceDPITests {
    @Test func xftDPIIsReadFromTheResourceDatabase() {
        #expect(X11Window.dpi(fromResources: "Xcursor.size:\t24\nXft.dpi:\t192\nXft.antialias:\t1\n") == 192)
        #expect(X11Window.dpi(fromResources: "  Xft.dpi :  144.5  ") == 144.5)
        #expect(X11Window.dpi(fromResources: "Xft.dpi:\tlots\n") == nil && X11Window.dpi(fromResources: "Xft.dpi:\t0") == nil)
        #expect(X11Window.dpi(fromResources: "") == nil)
    }
}
