import Geometry
import Input
import Testing
@testable import X11Window

/// XInput 2 pointer events from synthetic devices: pressure from valuators, the eraser end, the
/// evdev quirks, devices coming and going. No X server.
@Suite struct XInput2Tests {
    typealias Event = X11EventTranslator.DeviceEvent
    /// A Wacom-like stylus: valuators 0 x, 1 y, 2 pressure 0…2047, 3 and 4 tilt.
    static let stylus = PenDevices.Device(id: 12, name: "Wacom Intuos S Pen stylus", pressure: (2, 0, 2047), isEraser: false)
    /// A stylus with tilt: valuators 2 pressure 0…2047, 3 tilt x −64…64, 9 tilt y 0…180 (the second
    /// byte of the mask).
    static let tilting = PenDevices.Device(id: 15, name: "Wacom Intuos Pro Pen stylus", pressure: (2, 0, 2047), xtilt: (3, -64, 64),
                                           ytilt: (9, 0, 180), isEraser: false)
    /// Its eraser end, told by the driver's tool type.
    static let eraser = PenDevices.Device(id: 13, name: "Wacom Intuos S Pen", pressure: (2, 0, 2047), isEraser: true)
    /// A pen whose pressure is valuator 4 with a range not starting at 0.
    static let odd = PenDevices.Device(id: 14, name: "Huion eraser-less pen", pressure: (4, 100, 1100), isEraser: false)
    static let mouse = PenDevices.Device(id: 9, name: "Logitech USB Optical Mouse", pressure: nil, isEraser: false)
    static let xtest = PenDevices.Device(id: 4, name: "Virtual core XTEST pointer", pressure: nil, isEraser: false)

    private func translator(_ devices: [PenDevices.Device] = [stylus, eraser, odd, mouse, xtest, tilting]) -> X11EventTranslator {
        var t = X11EventTranslator(window: 1, size: Size(width: 100, height: 100), wmProtocols: 2, wmDeleteWindow: 3,
                                   key: { _ in (0, "") })
        var ignored: [InputEvent] = []
        t.devicesChanged(devices, into: &ignored)
        return t
    }

    /// A mask with these valuators set, and their values in order.
    private func valuators(_ set: [Int: Double]) -> (mask: [UInt8], values: [Double]) {
        var mask = [UInt8](repeating: 0, count: 2)
        for n in set.keys { mask[n / 8] |= 1 << (n % 8) }
        return (mask, set.keys.sorted().map { set[$0]! })
    }

    private func event(_ kind: Event.Kind, _ source: Int32, x: Double, y: Double = 10, time: UInt = 0, button: Int = 1,
                       _ set: [Int: Double] = [:]) -> Event {
        let (mask, values) = valuators(set)
        return Event(kind: kind, source: source, button: button, x: x, y: y, time: time, mask: mask, values: values)
    }

    private func run(_ t: inout X11EventTranslator, _ events: [Event]) -> [InputEvent] {
        var out: [InputEvent] = []
        for e in events { t.translate(e, into: &out) }
        return out
    }

    private func pressures(_ out: [InputEvent]) -> [Double?] {
        out.compactMap { e -> Double?? in
            switch e { case .pointerDown(let s), .pointerMove(let s), .pointerUp(let s): s.pressure; default: nil }
        }
    }

    @Test func aValuatorIsFoundByCountingTheSetBitsBelowIt() {
        // Valuators 0 and 2 set, 1 not: pressure (2) is the second value, not the third.
        #expect(PenDevices.valuator(2, mask: [0b101], values: [5, 1500]) == 1500)
        #expect(PenDevices.valuator(1, mask: [0b101], values: [5, 1500]) == nil)
        #expect(PenDevices.valuator(9, mask: [0xff, 0b10], values: Array(0..<9).map(Double.init)) == 8)
        #expect(PenDevices.valuator(20, mask: [0xff], values: []) == nil)
    }

    @Test func pressureIsScaledFromTheDevicesOwnRange() {
        var t = translator()
        let out = run(&t, [event(.press, 12, x: 1, [0: 1, 1: 10, 2: 1023.5]), event(.motion, 12, x: 2, [2: 2047]),
                           event(.motion, 12, x: 3, [0: 3]),                 // no pressure bit: keeps the last
                           event(.release, 12, x: 3, [2: 511.75])])
        #expect(pressures(out) == [0.5, 1, 1, 0.25])
        var u = translator()
        let odd = run(&u, [event(.press, 14, x: 1, [0: 1, 4: 600]), event(.release, 14, x: 1, [4: 1100])])
        #expect(pressures(odd) == [0.5, 1], "a range from 100 to 1100")
    }

    private func tilts(_ out: [InputEvent]) -> [[Double]] {
        out.compactMap { e -> [Double]? in
            switch e {
            case .pointerDown(let s), .pointerMove(let s), .pointerUp(let s), .hover(let s): [s.xtilt, s.ytilt]
            default: nil
            }
        }
    }

    @Test func tiltIsScaledFromTheDevicesOwnRangeAroundItsMiddle() {
        var t = translator()
        let out = run(&t, [event(.motion, 15, x: 0, [3: 32]),                       // hovering: x only
                           event(.press, 15, x: 1, [2: 1023.5, 3: 0, 9: 90]),          // upright
                           event(.motion, 15, x: 2, [2: 2047, 3: 64, 9: 45]),
                           event(.motion, 15, x: 3, [2: 2047]),                        // no tilt bits: keeps the last
                           event(.motion, 15, x: 4, [9: 180]),                         // y only
                           event(.release, 15, x: 5, [3: -96, 9: 0])])                 // out of range: clamped
        #expect(tilts(out) == [[0.5, 0], [0, 0], [1, -0.5], [1, -0.5], [1, 1], [-1, -1]])
        #expect(pressures(out) == [0.5, 1, 1, 1, 1], "pressure as before, valuator 3 between it and 9")
        var u = translator()
        let other = run(&u, [event(.press, 12, x: 1, [2: 1000, 3: 60, 4: 60]), event(.release, 9, x: 1, [3: 60, 4: 60])])
        #expect(tilts(other) == [[0, 0], [0, 0]], "a device without tilt valuators: upright, whatever it sends")
        let flat = PenDevices.Device(id: 1, name: "flat", pressure: nil, xtilt: (3, 5, 5), ytilt: (4, -1, 1), isEraser: false)
        #expect(flat.xtilt == nil && flat.ytilt != nil, "min = max is no tilt")
    }

    @Test func aDeviceWithoutPressureLeavesItToTheApp() {
        var t = translator()
        let out = run(&t, [event(.press, 9, x: 1), event(.motion, 9, x: 2, [2: 1000]), event(.release, 4, x: 3)])
        #expect(pressures(out) == [nil, nil, nil])
        #expect(PenDevices.Device(id: 1, name: "flat", pressure: (2, 5, 5), isEraser: false).pressure == nil, "min = max is no pressure")
    }

    @Test func theEraserEndIsToldByToolTypeOrName() {
        var t = translator()
        let out = run(&t, [event(.press, 13, x: 1, [2: 900]), event(.release, 13, x: 1, [2: 900])])
        #expect(out.count == 2 && out.allSatisfy { if case .pointerDown(let s) = $0 { s.tool == .eraser } else if case .pointerUp(let s) = $0 { s.tool == .eraser } else { false } })
        #expect(PenDevices.Device(id: 1, name: "HID 256c:006e Pen Eraser", pressure: nil, isEraser: false).isEraser)
        #expect(!PenDevices.Device(id: 1, name: "HID 256c:006e Pen", pressure: nil, isEraser: false).isEraser)
    }

    @Test func aZeroReadingWhileDownKeepsTheLastGoodOne() {
        var t = translator()
        let out = run(&t, [event(.press, 12, x: 1, [2: 1024]), event(.motion, 12, x: 2, [2: 0]), event(.motion, 12, x: 3, [2: 2047]),
                           event(.release, 12, x: 3, [2: 0])])
        #expect(pressures(out) == [1024.0 / 2047, 1024.0 / 2047, 1, 1])
    }

    @Test func aPressWaitsForItsFirstPressureSoTheStrokeStartsWithoutABlot() {
        var t = translator()
        var out = run(&t, [event(.press, 12, x: 1, time: 1000, [2: 0]), event(.motion, 12, x: 2, time: 1004, [2: 0])])
        #expect(out.isEmpty, "nothing yet: no pressure")
        out = run(&t, [event(.motion, 12, x: 3, time: 1008, [2: 614.1])])
        #expect(out == [.pointerDown(PointerSample(x: 1, y: 10, pressure: 0.3, time: 0)),
                        .pointerMove(PointerSample(x: 2, y: 10, pressure: 0.3, time: 0.004)),
                        .pointerMove(PointerSample(x: 3, y: 10, pressure: 0.3, time: 0.008))], "at the press, with the first reading")
        // Without a reading for a frame, the stroke starts anyway (the app decides its pressure).
        var u = translator()
        out = run(&u, [event(.press, 12, x: 1, time: 2000), event(.motion, 12, x: 2, time: 2010, [2: 0]),
                       event(.motion, 12, x: 3, time: 2017, [2: 0])])
        #expect(pressures(out) == [nil, nil, nil])
        // A tap that never read any pressure is still a dot.
        var v = translator()
        out = run(&v, [event(.press, 12, x: 5, time: 3000, [2: 0]), event(.release, 12, x: 5, time: 3002, [2: 0])])
        #expect(out.count == 2 && pressures(out) == [nil, nil])
    }

    @Test func aDeviceUnpluggedMidStrokeEndsItWhereItWas() {
        var t = translator()
        var out = run(&t, [event(.press, 12, x: 1, [2: 1000]), event(.motion, 12, x: 7, y: 8, [2: 1000])])
        t.devicesChanged([Self.mouse, Self.xtest], into: &out)
        #expect(out.last == .pointerUp(PointerSample(x: 7, y: 8, pressure: 1000.0 / 2047, time: 0)))
        // The next stroke, from another device, starts afresh.
        out = run(&t, [event(.press, 9, x: 1), event(.release, 9, x: 1)])
        #expect(out.count == 2 && pressures(out) == [nil, nil])
        // A device plugged in mid-stroke changes nothing.
        var u = translator([Self.mouse])
        out = run(&u, [event(.press, 9, x: 1)])
        u.devicesChanged([Self.mouse, Self.stylus], into: &out)
        #expect(out.count == 1)
    }

    /// Found by make fuzz: the stroke ended at its press, after the motion the press waited with.
    @Test func aDeviceUnpluggedWhileItsPressWaitsEndsTheStrokeAtItsLastSample() {
        var t = translator()
        var out = run(&t, [event(.press, 12, x: 1, time: 1000, [2: 0]), event(.motion, 12, x: 5, y: 6, time: 1004, [2: 0])])
        #expect(out.isEmpty, "waiting for the first pressure")
        t.devicesChanged([Self.mouse], into: &out)
        #expect(out == [.pointerDown(PointerSample(x: 1, y: 10, time: 0)), .pointerMove(PointerSample(x: 5, y: 6, time: 0.004)),
                        .pointerUp(PointerSample(x: 5, y: 6, time: 0.004))])
    }
}
