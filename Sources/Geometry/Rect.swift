/// An integer rectangle, half-open: it covers x in `minX..<maxX` and y in `minY..<maxY`.
/// An empty rectangle (zero or negative extent) is the identity of `union`.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    public var minX: Int, minY: Int, maxX: Int, maxY: Int

    @inlinable public init(minX: Int, minY: Int, maxX: Int, maxY: Int) {
        self.minX = minX; self.minY = minY; self.maxX = maxX; self.maxY = maxY
    }
    @inlinable public init(x: Int, y: Int, width: Int, height: Int) {
        self.init(minX: x, minY: y, maxX: x + width, maxY: y + height)
    }
    @inlinable public init(size: Size) { self.init(minX: 0, minY: 0, maxX: size.width, maxY: size.height) }

    /// (Computed, not stored: a stored one is reached through a once-only initialisation check,
    /// and the dab path asks for it per sample.)
    @inlinable public static var empty: Rect { Rect(minX: 0, minY: 0, maxX: 0, maxY: 0) }

    /// Whether it and `other` share a pixel.
    @inlinable public func intersects(_ other: Rect) -> Bool { !intersection(other).isEmpty }

    /// Every pixel a document may hold: ±1.25 · 2³⁰ each way, beyond the ±2³⁰ a document's
    /// layers and strokes are promised, and still small enough that its area fits an `Int`.
    @inlinable public static var plane: Rect { Rect(minX: -(5 << 28), minY: -(5 << 28), maxX: 5 << 28, maxY: 5 << 28) }

    @inlinable public var width: Int { Swift.max(0, maxX - minX) }
    @inlinable public var height: Int { Swift.max(0, maxY - minY) }
    @inlinable public var size: Size { Size(width: width, height: height) }
    @inlinable public var area: Int { width * height }
    @inlinable public var isEmpty: Bool { maxX <= minX || maxY <= minY }
    @inlinable public var xs: Range<Int> { isEmpty ? minX..<minX : minX..<maxX }
    @inlinable public var ys: Range<Int> { isEmpty ? minY..<minY : minY..<maxY }

    @inlinable public func union(_ other: Rect) -> Rect {
        if isEmpty { return other }
        if other.isEmpty { return self }
        return Rect(minX: Swift.min(minX, other.minX), minY: Swift.min(minY, other.minY),
                    maxX: Swift.max(maxX, other.maxX), maxY: Swift.max(maxY, other.maxY))
    }
    @inlinable public func intersection(_ other: Rect) -> Rect {
        let r = Rect(minX: Swift.max(minX, other.minX), minY: Swift.max(minY, other.minY),
                     maxX: Swift.min(maxX, other.maxX), maxY: Swift.min(maxY, other.maxY))
        return r.isEmpty ? .empty : r
    }
    @inlinable public func insetBy(_ d: Int) -> Rect {
        Rect(minX: minX + d, minY: minY + d, maxX: maxX - d, maxY: maxY - d)
    }
    /// The same rectangle moved by (`dx`, `dy`).
    @inlinable public func moved(by dx: Int, _ dy: Int) -> Rect { Rect(minX: minX + dx, minY: minY + dy, maxX: maxX + dx, maxY: maxY + dy) }
    @inlinable public func contains(x: Int, y: Int) -> Bool { x >= minX && x < maxX && y >= minY && y < maxY }

    /// The smallest integer rectangle holding the real-valued box, clamped so that absurd
    /// coordinates (±1e9 and beyond) cannot overflow `Int`.
    @inlinable public static func covering(minX: Double, minY: Double, maxX: Double, maxY: Double) -> Rect {
        // Clamped before rounding, which gives the same for whole-number bounds: the
        // conversion's truncation then rounds, with no case for values beyond it.
        @inline(__always) func down(_ v: Double) -> Int {
            let c = Swift.min(Swift.max(v, -1e12), 1e12), t = Int(c)
            return Double(t) > c ? t - 1 : t
        }
        @inline(__always) func up(_ v: Double) -> Int {
            let c = Swift.min(Swift.max(v, -1e12), 1e12), t = Int(c)
            return Double(t) < c ? t + 1 : t
        }
        return Rect(minX: down(minX), minY: down(minY), maxX: up(maxX), maxY: up(maxY))
    }

    @inlinable public var description: String { "(\(minX),\(minY))-(\(maxX),\(maxY))" }
}
