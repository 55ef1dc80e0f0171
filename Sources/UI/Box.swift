import Geometry

/// A rectangle in window pixels with fractional edges: where a piece of UI lies at its scale.
public struct Box: Equatable, Sendable {
    public var x: Double, y: Double, width: Double, height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
    public var midX: Double { x + width / 2 }
    public var midY: Double { y + height / 2 }

    /// True when (px, py) lies inside (edges at the top and left included).
    public func contains(_ px: Double, _ py: Double) -> Bool { px >= x && px < maxX && py >= y && py < maxY }

    /// The box grown by `d` on every side (shrunk when negative).
    public func inset(by d: Double) -> Box { Box(x: x + d, y: y + d, width: width - 2 * d, height: height - 2 * d) }

    /// The whole pixels the box touches.
    public var covering: Rect {
        Rect(minX: Int(x.rounded(.down)), minY: Int(y.rounded(.down)), maxX: Int(maxX.rounded(.up)), maxY: Int(maxY.rounded(.up)))
    }
}
