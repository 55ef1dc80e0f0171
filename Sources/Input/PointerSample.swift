/// One pointer position as the window saw it.
public struct PointerSample: Sendable, Equatable {
    /// Window pixels; any finite value (far outside the window is fine).
    public var x: Double
    public var y: Double
    /// The device's own pressure, 0…1, or nil when it has none (a mouse): the app then decides
    /// one (simulated from the modifier keys).
    public var pressure: Double?
    /// The pen's tilt, −1…1 each way: the device's own, 0 when it has none (a mouse, XTest).
    public var xtilt: Double
    public var ytilt: Double
    /// Seconds on the window's clock (since the first event it saw): when this sample was taken,
    /// not when its frame plays it.
    public var time: Double
    public var mods: Modifiers
    /// The end of the stylus that made it.
    public var tool: PointerTool

    public init(x: Double, y: Double, pressure: Double? = nil, xtilt: Double = 0, ytilt: Double = 0, time: Double,
                mods: Modifiers = [], tool: PointerTool = .pen) {
        self.x = x; self.y = y; self.pressure = pressure; self.xtilt = xtilt; self.ytilt = ytilt
        self.time = time; self.mods = mods; self.tool = tool
    }
}
