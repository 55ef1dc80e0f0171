import CX11

/// XInput 2's C side: setting it up on a window, describing devices, and reading pointer events
/// out of their event cookies into plain values for `X11EventTranslator` and `PenDevices`.
enum XInput2 {
    /// XInput 2 as set up on a window: the extension's major opcode, and the atoms that
    /// describe devices (interned once).
    struct Setup {
        let opcode: Int32
        /// The pressure and tilt valuators' labels, the property that says which end of a
        /// stylus a device is, and the value that means the eraser.
        let pressureLabel, xtiltLabel, ytiltLabel, toolType, eraser: Atom
    }

    /// Sets XInput 2 up on `window` (button press and release and motion of every master
    /// pointer, and device hierarchy changes); fails when the server has no XInput 2.2, with the
    /// reason.
    static func setUp(_ d: DisplayHandle, window: Window) -> Result<Setup, X11Error> {
        var opcode: Int32 = 0, event: Int32 = 0, error: Int32 = 0
        guard "XInputExtension".withCString({ XQueryExtension(d, $0, &opcode, &event, &error) }) != 0 else {
            return .failure(X11Error(.missingExtension, "the server has no XInput extension"))
        }
        var major: Int32 = 2, minor: Int32 = 2
        guard XIQueryVersion(d, &major, &minor) == Success, major > 2 || (major == 2 && minor >= 2) else {
            return .failure(X11Error(.missingExtension, "the server has XInput \(major).\(minor), not 2.2"))
        }
        select(d, window, device: XIAllMasterDevices, [XI_ButtonPress, XI_ButtonRelease, XI_Motion])
        select(d, XDefaultRootWindow(d), device: XIAllDevices, [XI_HierarchyChanged])
        return .success(Setup(opcode: opcode, pressureLabel: XCalls.internAtom(d, "Abs Pressure"),
                              xtiltLabel: XCalls.internAtom(d, "Abs Tilt X"), ytiltLabel: XCalls.internAtom(d, "Abs Tilt Y"),
                              toolType: XCalls.internAtom(d, "Wacom Tool Type"), eraser: XCalls.internAtom(d, "ERASER")))
    }

    private static func select(_ d: DisplayHandle, _ w: Window, device: Int32, _ events: [Int32]) {
        var bits = [UInt8](repeating: 0, count: Int(XI_LASTEVENT >> 3) + 1)
        for e in events { bits[Int(e >> 3)] |= UInt8(1 << (e & 7)) }
        bits.withUnsafeMutableBufferPointer { b in
            var mask = XIEventMask(deviceid: device, mask_len: Int32(b.count), mask: b.baseAddress)
            _ = XISelectEvents(d, w, &mask, 1)
        }
    }

    /// Every slave pointer with what input needs of it: its pressure and tilt valuators (labelled
    /// "Abs Pressure", "Abs Tilt X" and "Abs Tilt Y") and whether it is an eraser ("Wacom Tool Type" ERASER, or its name). Nil when
    /// the devices kept changing while they were read (a tablet being unplugged: asking about a
    /// device already gone is an X error, which must not end the program).
    static func devices(_ d: DisplayHandle, _ setup: Setup) -> [PenDevices.Device]? {
        for _ in 0..<3 {
            var out: [PenDevices.Device] = []
            if XCalls.trapErrors(d, { out = describeDevices(d, setup) }) == nil { return out }
        }
        return nil
    }

    private static func describeDevices(_ d: DisplayHandle, _ setup: Setup) -> [PenDevices.Device] {
        var count: Int32 = 0
        guard let infos = XIQueryDevice(d, XIAllDevices, &count) else { return [] }
        defer { XIFreeDeviceInfo(infos) }
        var out: [PenDevices.Device] = []
        for info in UnsafeBufferPointer(start: infos, count: Int(count))
        where info.use == XISlavePointer || info.use == XIFloatingSlave {
            var pressure, xtilt, ytilt: PenDevices.Valuator?
            for c in UnsafeBufferPointer(start: info.classes, count: Int(info.num_classes)) {
                guard let c, c.pointee.type == XIValuatorClass else { continue }
                let v = UnsafeMutableRawPointer(c).assumingMemoryBound(to: XIValuatorClassInfo.self).pointee
                let valuator = (Int(v.number), v.min, v.max)
                switch v.label {
                case setup.pressureLabel: pressure = valuator
                case setup.xtiltLabel: xtilt = valuator
                case setup.ytiltLabel: ytilt = valuator
                default: break
                }
            }
            let name = info.name.map { String(cString: $0) } ?? ""
            out.append(PenDevices.Device(id: info.deviceid, name: name, pressure: pressure, xtilt: xtilt, ytilt: ytilt,
                                         isEraser: toolType(d, info.deviceid, setup.toolType) == setup.eraser))
        }
        return out
    }

    /// The value of a device's "Wacom Tool Type" property (an atom), where set.
    private static func toolType(_ d: DisplayHandle, _ device: Int32, _ property: Atom) -> Atom? {
        var type: Atom = 0, format: Int32 = 0, count: UInt = 0, after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        let status = XIGetProperty(d, device, property, 0, 1, False, XA_ATOM, &type, &format, &count, &after, &data)
        defer { if let data { XFree(data) } }
        guard status == Success, type == XA_ATOM, format == 32, count >= 1, let data else { return nil }
        // Format-32 data comes as C longs.
        return Atom(UnsafeRawPointer(data).load(as: UInt.self))
    }

    /// What an XInput 2 event cookie held.
    enum Event {
        case pointer(X11EventTranslator.DeviceEvent)
        /// Devices were added, removed or changed.
        case hierarchyChanged
    }

    /// Reads the XInput 2 event in `ev` (a GenericEvent of extension `opcode`), or nil.
    static func read(_ d: DisplayHandle, _ ev: XEvent, opcode: Int32) -> Event? {
        var event: Event?
        XCalls.withEventData(d, ev, extension: opcode) { evtype, data in event = decode(evtype, data) }
        return event
    }

    private static func decode(_ evtype: Int32, _ data: UnsafeMutableRawPointer) -> Event? {
        switch evtype {
        case XI_HierarchyChanged:
            return .hierarchyChanged
        case XI_ButtonPress, XI_ButtonRelease, XI_Motion:
            let e = data.assumingMemoryBound(to: XIDeviceEvent.self).pointee
            let mask = Array(UnsafeBufferPointer(start: e.valuators.mask, count: Int(e.valuators.mask_len)))
            let set = mask.reduce(0) { $0 + $1.nonzeroBitCount }
            let values = Array(UnsafeBufferPointer(start: e.valuators.values, count: set))
            let kind: X11EventTranslator.DeviceEvent.Kind = evtype == XI_Motion ? .motion : evtype == XI_ButtonPress ? .press : .release
            return .pointer(.init(kind: kind, source: e.sourceid, button: Int(e.detail), x: e.event_x, y: e.event_y, time: e.time,
                                  state: UInt32(bitPattern: e.mods.effective), mask: mask, values: values))
        default:
            return nil
        }
    }
}
