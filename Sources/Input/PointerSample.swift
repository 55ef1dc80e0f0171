/// One pointer position as the window saw it.
public struct PointerSample: Sendable, Equatable {
    /// Window pixels; any finite value (far outside the window is fine).
    public var x: Double
    public var y: Double
    /// The device's own pressure, 0…1, or nil when it has none (a mouse): the app then decides
    /// one (simulated from the modifier keys).
    public var pressure: Double?
    /// Seconds on the window's clock (since the first event it saw).
    public var time: Double
    public var mods: Modifiers
    /// The end of the stylus that made it.
    public var tool: PointerTool

    public init(x: Double, y: Double, pressure: Double? = nil, time: Double, mods: Modifiers = [], tool: PointerTool = .pen) {
        self.x = x; self.y = y; self.pressure = pressure; self.time = time; self.mods = mods; self.tool = tool
    }
}
