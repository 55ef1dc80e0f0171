import CX11
import X11Window

/// What the X server and the input devices may tell the window, read from a fuzzer's bytes:
/// the devices XInput 2 describes, then steps, one per event: core pointer, key, expose,
/// configure and client-message events built as X11WindowTests build them, XInput 2 pointer
/// events with valuators, and the device list read again after a device came or went.
///
/// Only what the X protocol can carry is made: core coordinates are 16-bit integers, XInput 2's
/// 16.16 fixed point, valuators and their ranges 32.32 fixed point, so every number is finite
/// as the server's are. Timestamps are 32-bit milliseconds that mostly step forward a little
/// and now and then jump anywhere (the server's clock wraps).
struct X11EventScript {
    enum Step {
        case core(XEvent)
        case device(DeviceStep)
        /// The device list read again, and the ids on it.
        case devices([PenDevices.Device], ids: [Int32])

        /// The step's X timestamp (nil for what carries none).
        var time: UInt32? {
            switch self {
            case .core(let e) where [ButtonPress, ButtonRelease].contains(e.type): UInt32(truncatingIfNeeded: e.xbutton.time)
            case .core(let e) where e.type == MotionNotify: UInt32(truncatingIfNeeded: e.xmotion.time)
            case .core(let e) where [KeyPress, KeyRelease].contains(e.type): UInt32(truncatingIfNeeded: e.xkey.time)
            case .device(let e): e.time
            default: nil
            }
        }
    }

    static let window: Window = 0x40_0001
    static let wmProtocols: Atom = 301, wmDeleteWindow: Atom = 302
    /// Keys that mean something to the translator or the app, and one whose name Xlib makes up
    /// (a Unicode keysym); other keysyms come from the bytes.
    static let keysyms = [XK_Shift_L, XK_Shift_R, XK_Control_L, XK_Control_R, XK_a, XK_bracketleft, XK_numbersign,
                          XK_Delete, XK_Escape, XK_space, 0x100_0416, 0].map { KeySym($0) }
    static let deviceNames = ["Virtual core XTEST pointer", "Wacom Intuos S Pen stylus", "Wacom Intuos S Pen eraser",
                              "Logitech USB Optical Mouse", ""]

    private var bytes: FuzzBytes
    private var time: UInt32 = 0
    /// The devices described before the first event.
    private(set) var devices: [PenDevices.Device] = []

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = FuzzBytes(bytes)
        devices = deviceList().map(\.device)
    }

    /// The next step, or nil at the end of the input.
    mutating func next() -> Step? {
        guard !bytes.isAtEnd else { return nil }
        switch bytes.below(12) {
        case 0: return .core(button(ButtonPress))
        case 1: return .core(button(ButtonRelease))
        case 2: return .core(motion())
        case 3: return .core(key(KeyPress))
        case 4: return .core(key(KeyRelease))
        case 5:
            var e = XEvent()
            e.type = Expose
            e.xexpose.count = Int32(bytes.below(3))
            return .core(e)
        case 6:
            var e = XEvent()
            e.type = ConfigureNotify
            e.xconfigure.window = bytes.bool() ? Self.window : 0x99
            e.xconfigure.width = Int32(bytes.uint16()); e.xconfigure.height = Int32(bytes.uint16())
            return .core(e)
        case 7:
            var e = XEvent()
            e.type = ClientMessage
            e.xclient.message_type = bytes.bool() ? Self.wmProtocols : 999
            e.xclient.data.l.0 = Int(bytes.bool() ? Self.wmDeleteWindow : 999)
            return .core(e)
        case 8: return .device(deviceEvent(.press))
        case 9: return .device(deviceEvent(.release))
        case 10: return .device(deviceEvent(.motion))
        default:
            let list = deviceList()
            return .devices(list.map(\.device), ids: list.map(\.id))
        }
    }

    /// An XInput 2 pointer event, and what the checks need to know of it.
    struct DeviceStep {
        var kind: X11EventTranslator.DeviceEvent.Kind
        var source: Int32
        var button: Int
        var time: UInt32
        var event: X11EventTranslator.DeviceEvent
    }

    private mutating func nextTime() -> Time {
        let step = bytes.byte()
        time = step == 0xff ? bytes.uint32() : time &+ UInt32(step)
        return Time(time)
    }

    /// Devices with pressure have tilt too, on the two valuators after it with a Wacom's range
    /// (taking no bytes of their own, so the seeds kept their meaning when tilt came).
    private mutating func deviceList() -> [(id: Int32, device: PenDevices.Device)] {
        (0..<bytes.below(5)).map { _ in
            let id = deviceID(), name = Self.deviceNames[bytes.below(Self.deviceNames.count)]
            let pressure: PenDevices.Valuator? = bytes.bool() ? (bytes.below(32), bytes.fp3232(), bytes.fp3232()) : nil
            return (id, PenDevices.Device(id: id, name: name, pressure: pressure,
                                          xtilt: pressure.map { (($0.number + 1) % 32, -64, 63) },
                                          ytilt: pressure.map { (($0.number + 2) % 32, -64, 63) }, isEraser: bytes.bool()))
        }
    }

    /// Real devices are numbered from 2; few numbers, so events often come from a described one.
    private mutating func deviceID() -> Int32 { Int32(2 + bytes.below(6)) }

    private mutating func deviceEvent(_ kind: X11EventTranslator.DeviceEvent.Kind) -> DeviceStep {
        let source = deviceID(), button = Int(bytes.below(8)), x = bytes.fp1616(), y = bytes.fp1616()
        let time = nextTime(), state = bytes.uint32()
        // Xlib gives the mask in bytes, a multiple of four, and a value for each bit set.
        let mask = (0..<4 * bytes.below(3)).map { _ in bytes.byte() }
        let values = (0..<mask.reduce(0) { $0 + $1.nonzeroBitCount }).map { _ in bytes.fp3232() }
        return DeviceStep(kind: kind, source: source, button: button, time: UInt32(time),
                          event: .init(kind: kind, source: source, button: button, x: x, y: y, time: time, state: state,
                                       mask: mask, values: values))
    }

    private mutating func button(_ type: Int32) -> XEvent {
        var e = XEvent()
        e.type = type
        e.xbutton.button = UInt32(bytes.below(8))
        e.xbutton.x = Int32(Int16(bitPattern: bytes.uint16())); e.xbutton.y = Int32(Int16(bitPattern: bytes.uint16()))
        e.xbutton.state = UInt32(bytes.uint16())
        e.xbutton.time = nextTime()
        return e
    }

    private mutating func motion() -> XEvent {
        var e = XEvent()
        e.type = MotionNotify
        e.xmotion.x = Int32(Int16(bitPattern: bytes.uint16())); e.xmotion.y = Int32(Int16(bitPattern: bytes.uint16()))
        e.xmotion.state = UInt32(bytes.uint16())
        e.xmotion.time = nextTime()
        return e
    }

    /// A key event of the fake keyboard whose keycode is the keysym (see `X11EventsTarget`).
    private mutating func key(_ type: Int32) -> XEvent {
        var e = XEvent()
        e.type = type
        e.xkey.keycode = UInt32(bytes.bool() ? Self.keysyms[bytes.below(Self.keysyms.count)] : KeySym(bytes.uint32() & 0x1fff_ffff))
        e.xkey.x = Int32(Int16(bitPattern: bytes.uint16())); e.xkey.y = Int32(Int16(bitPattern: bytes.uint16()))
        e.xkey.state = UInt32(bytes.uint16())
        e.xkey.time = nextTime()
        return e
    }
}
