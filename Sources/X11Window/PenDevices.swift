/// The pointing devices XInput 2 reports, and the pressure and tilt each event carries: the pure
/// half of XInput 2 input, tested with synthetic device descriptions and valuator masks.
///
/// A device's pressure valuator is found by its label ("Abs Pressure") and scaled from the
/// device's own range to 0…1; its tilt valuators ("Abs Tilt X", "Abs Tilt Y") likewise to −1…1,
/// the middle of the range upright. The values of an event hold only the valuators whose mask bit
/// is set, so a valuator's value is at the index counting the set bits below its own (SDL indexes
/// with the valuator number, which reads the wrong value whenever a lower one is absent). A
/// sample without the pressure or a tilt bit keeps the device's last reading of it.
package struct PenDevices {
    /// A valuator: its number and its range.
    package typealias Valuator = (number: Int, min: Double, max: Double)

    /// One slave pointing device, reduced to what input needs.
    package struct Device: Sendable {
        var id: Int32
        /// The pressure valuator (a valuator whose min equals its max is no pressure).
        var pressure: Valuator?
        /// The tilt valuators, each way (likewise: min = max is no tilt).
        var xtilt, ytilt: Valuator?
        /// A stylus's eraser end ("Wacom Tool Type" ERASER where the driver sets it, else a
        /// name containing "eraser", as GTK and SDL decide).
        var isEraser: Bool

        package init(id: Int32, name: String, pressure: Valuator?, xtilt: Valuator? = nil, ytilt: Valuator? = nil, isEraser: Bool) {
            self.id = id
            self.pressure = Self.ranged(pressure)
            self.xtilt = Self.ranged(xtilt)
            self.ytilt = Self.ranged(ytilt)
            self.isEraser = isEraser || name.lowercased().contains("eraser")
        }

        private static func ranged(_ v: Valuator?) -> Valuator? { v.flatMap { $0.min == $0.max ? nil : $0 } }
    }

    private(set) var byID: [Int32: Device] = [:]
    /// Each device's last pressure reading, 0…1.
    private var lastPressure: [Int32: Double] = [:]
    /// Each device's last tilt readings, −1…1.
    private var lastTilt: [Int32: (x: Double, y: Double)] = [:]

    init(_ devices: [Device] = []) { replace(with: devices) }

    /// The devices as they are now (after a hierarchy change): those gone are forgotten.
    mutating func replace(with devices: [Device]) {
        byID = Dictionary(devices.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        lastPressure = lastPressure.filter { byID[$0.key] != nil }
        lastTilt = lastTilt.filter { byID[$0.key] != nil }
    }

    func isEraser(_ id: Int32) -> Bool { byID[id]?.isEraser ?? false }

    /// True when the device reports pressure.
    func hasPressure(_ id: Int32) -> Bool { byID[id]?.pressure != nil }

    /// The value of valuator `number` in an event: nil when its mask bit is clear.
    static func valuator(_ number: Int, mask: [UInt8], values: [Double]) -> Double? {
        guard number >= 0, number / 8 < mask.count, mask[number / 8] & (1 << (number % 8)) != 0 else { return nil }
        var index = 0
        for bit in 0..<number where mask[bit / 8] & (1 << (bit % 8)) != 0 { index += 1 }
        return index < values.count ? values[index] : nil
    }

    /// The reading of valuator `v` in an event, scaled from its range to 0…1; nil when absent.
    private static func fraction(_ v: Valuator, mask: [UInt8], values: [Double]) -> Double? {
        guard let raw = valuator(v.number, mask: mask, values: values) else { return nil }
        return min(max((raw - v.min) / (v.max - v.min), 0), 1)
    }

    /// The pressure of an event from device `id`, 0…1: its reading scaled from the device's
    /// range, or the device's last reading when this event has none. Nil for a device without
    /// pressure (a mouse, XTest) and for one that has not reported any yet.
    mutating func pressure(of id: Int32, mask: [UInt8], values: [Double]) -> Double? {
        guard let p = byID[id]?.pressure else { return nil }
        if let f = Self.fraction(p, mask: mask, values: values) { lastPressure[id] = f }
        return lastPressure[id]
    }

    /// The tilt of an event from device `id`, each way −1…1 (0: the middle of the device's
    /// range): its readings, or the device's last ones where this event has none. 0 for a
    /// device without tilt (a mouse, XTest, most pens without it) and before its first reading.
    mutating func tilt(of id: Int32, mask: [UInt8], values: [Double]) -> (x: Double, y: Double) {
        guard let device = byID[id], device.xtilt != nil || device.ytilt != nil else { return (0, 0) }
        var tilt = lastTilt[id] ?? (0, 0)
        if let v = device.xtilt, let f = Self.fraction(v, mask: mask, values: values) { tilt.x = 2 * f - 1 }
        if let v = device.ytilt, let f = Self.fraction(v, mask: mask, values: values) { tilt.y = 2 * f - 1 }
        lastTilt[id] = tilt
        return tilt
    }
}
