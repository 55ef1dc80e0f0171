/// One point of a stroke in canvas pixels, with the pressure to draw it at.
public struct StrokePoint: Sendable, Equatable {
    public var x: Double, y: Double, pressure: Double
    public init(x: Double, y: Double, pressure: Double) { self.x = x; self.y = y; self.pressure = pressure }

    static func mid(_ a: StrokePoint, _ b: StrokePoint) -> StrokePoint {
        StrokePoint(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2, pressure: (a.pressure + b.pressure) / 2)
    }
    static func lerp(_ a: StrokePoint, _ b: StrokePoint, _ t: Double) -> StrokePoint {
        StrokePoint(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t,
                    pressure: a.pressure + (b.pressure - a.pressure) * t)
    }
}
