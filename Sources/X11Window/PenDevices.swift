/// The pointing devices XInput 2 reports, and the pressure each event carries: the pure half of
/// XInput 2 input, tested with synthetic device descriptions and valuator masks.
///
/// A device's pressure valuator is found by its label ("Abs Pressure") and scaled from the
/// device's own range to 0…1. The values of an event hold only the valuators whose mask bit is
/// set, so a valuator's value is at the index counting the set bits below its own (SDL indexes
/// with the valuator number, which reads the wrong value whenever a lower one is absent). A
/// sample without the pressure bit keeps the device's last pressure.
package struct PenDevices {
    /// One slave pointing device, reduced to what input needs.
    package struct Device: Sendable {
        var id: Int32
        /// The pressure valuator: its number and range (a valuator whose min equals its max is
        /// no pressure).
        var pressure: (number: Int, min: Double, max: Double)?
        /// A stylus's eraser end ("Wacom Tool Type" ERASER where the driver sets it, else a
        /// name containing "eraser", as GTK and SDL decide).
        var isEraser: Bool

        package init(id: Int32, name: String, pressure: (number: Int, min: Double, max: Double)?, isEraser: Bool) {
            self.id = id
            self.pressure = pressure.flatMap { $0.min == $0.max ? nil : $0 }
            self.isEraser = isEraser || name.lowercased().contains("eraser")
        }
    }

    private(set) var byID: [Int32: Device] = [:]
    /// Each device's last pressure reading, 0…1.
    private var lastPressure: [Int32: Double] = [:]

    init(_ devices: [Device] = []) { replace(with: devices) }

    /// The devices as they are now (after a hierarchy change): those gone are forgotten.
    mutating func replace(with devices: [Device]) {
        byID = Dictionary(devices.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        lastPressure = lastPressure.filter { byID[$0.key] != nil }
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

    /// The pressure of an event from device `id`, 0…1: its reading scaled from the device's
    /// range, or the device's last reading when this event has none. Nil for a device without
    /// pressure (a mouse, XTest) and for one that has not reported any yet.
    mutating func pressure(of id: Int32, mask: [UInt8], values: [Double]) -> Double? {
        guard let p = byID[id]?.pressure else { return nil }
        if let raw = Self.valuator(p.number, mask: mask, values: values) {
            lastPressure[id] = min(max((raw - p.min) / (p.max - p.min), 0), 1)
        }
        return lastPressure[id]
    }
}
