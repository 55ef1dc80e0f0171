/// One point of a stroke in canvas pixels, with the pressure to draw it at.
public struct StrokePoint: Sendable, Equatable {
    public var x: Double, y: Double, pressure: Double
    public init(x: Double, y: Double, pressure: Double) { self.x = x; self.y = y; self.pressure = pressure }

    /// Halves added (the same bits as the sum halved, without its overflow between samples
    /// near ±1.8e308).
    static func mid(_ a: StrokePoint, _ b: StrokePoint) -> StrokePoint {
        StrokePoint(x: a.x * 0.5 + b.x * 0.5, y: a.y * 0.5 + b.y * 0.5, pressure: (a.pressure + b.pressure) / 2)
    }

    /// Coordinate 0 is x, 1 is y.
    subscript(axis: Int) -> Double {
        get { axis == 0 ? x : y }
        set { if axis == 0 { x = newValue } else { y = newValue } }
    }
    static func lerp(_ a: StrokePoint, _ b: StrokePoint, _ t: Double) -> StrokePoint {
        StrokePoint(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t,
                    pressure: a.pressure + (b.pressure - a.pressure) * t)
    }
}
