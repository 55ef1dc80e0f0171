import Glibc

/// Mirror painting: libmypaint's symmetry types. A stroke drawn with symmetry on paints itself
/// and its copies, each the stroke under one of `copies`: reflected about the vertical line
/// x = `x` (`vertical`, left↔right), about the horizontal line y = `y` (`horizontal`), about both
/// (`both`: four copies), or turned about (`x`, `y`) by each of `lines` equal steps (`rotational`).
public struct Symmetry: Sendable, Equatable {
    /// Which copies a stroke paints; the raw values are the replay format's `mode`.
    public enum Mode: String, Sendable, CaseIterable {
        case off, vertical, horizontal, both, rotational
    }

    /// Which copies a stroke paints.
    public var mode: Mode
    /// The vertical axis's x, the horizontal axis's y; together the centre of a rotation (canvas
    /// pixels: pixel edges at whole numbers, centres at +0.5).
    public var x: Double, y: Double
    /// How many copies a rotational symmetry paints (the stroke one of them); kept but unused by
    /// the other modes.
    public var lines: Int

    /// What `lines` may be.
    public static let lineRange = 2...64

    /// No copies, its axes never placed.
    public static let off = Symmetry(mode: .off, x: 0, y: 0, lines: 2)

    /// `lines` is held within `lineRange`.
    public init(mode: Mode, x: Double, y: Double, lines: Int = 2) {
        self.mode = mode
        self.x = x
        self.y = y
        self.lines = min(max(lines, Self.lineRange.lowerBound), Self.lineRange.upperBound)
    }

    /// True when strokes paint copies.
    public var isOn: Bool { mode != .off }

    /// One copy's map of the plane: p ↦ (xx·x + xy·y + tx, yx·x + yy·y + ty); a dab's angle
    /// (degrees) becomes `turn` + angle, or `turn` − angle where the map mirrors.
    public struct Copy: Sendable, Equatable {
        /// The linear part (row by row) and the translation.
        public var xx, xy, yx, yy, tx, ty: Double
        /// Degrees a dab's angle turns by.
        public var turn: Double
        /// True where the map mirrors (a dab's angle then runs the other way).
        public var mirrors: Bool

        /// The stroke itself.
        public static let identity = Copy(xx: 1, xy: 0, yx: 0, yy: 1, tx: 0, ty: 0, turn: 0, mirrors: false)

        /// The image of point (px, py).
        @inlinable public func apply(_ px: Double, _ py: Double) -> (x: Double, y: Double) {
            (xx * px + xy * py + tx, yx * px + yy * py + ty)
        }

        /// A dab's angle in degrees under this copy (mod 360).
        @inlinable public func angle(_ a: Double) -> Double { mirrors ? turn - a : turn + a }

        /// The pixel (cell) that pixel (cx, cy)'s centre maps into: for a mirror about a whole or
        /// half-pixel axis and a quarter turn about such a centre, exactly the mirrored or turned
        /// pixel (centres map to centres, exactly representable).
        @inlinable public func cell(_ cx: Int, _ cy: Int) -> (x: Int, y: Int) {
            let p = apply(Double(cx) + 0.5, Double(cy) + 0.5)
            return (Int(p.x.rounded(.down)), Int(p.y.rounded(.down)))
        }

        /// The pixels covering this copy's image of `r`.
        public func image(of r: Rect) -> Rect {
            guard !r.isEmpty else { return .empty }
            let corners = [apply(Double(r.minX), Double(r.minY)), apply(Double(r.maxX), Double(r.minY)),
                           apply(Double(r.minX), Double(r.maxY)), apply(Double(r.maxX), Double(r.maxY))]
            return Rect.covering(minX: corners.map(\.x).min() ?? 0, minY: corners.map(\.y).min() ?? 0,
                                 maxX: corners.map(\.x).max() ?? 0, maxY: corners.map(\.y).max() ?? 0)
        }
    }

    /// Every copy a stroke paints, the stroke itself (the identity) first; just the identity
    /// when off. The same list for the same value, so replays draw the same copies in the same
    /// order at any thread count.
    public var copies: [Copy] {
        let mirrorX = Copy(xx: -1, xy: 0, yx: 0, yy: 1, tx: 2 * x, ty: 0, turn: 0, mirrors: true)
        let mirrorY = Copy(xx: 1, xy: 0, yx: 0, yy: -1, tx: 0, ty: 2 * y, turn: 0, mirrors: true)
        switch mode {
        case .off: return [.identity]
        case .vertical: return [.identity, mirrorX]
        case .horizontal: return [.identity, mirrorY]
        case .both:
            return [.identity, mirrorX, mirrorY, Copy(xx: -1, xy: 0, yx: 0, yy: -1, tx: 2 * x, ty: 2 * y, turn: 180, mirrors: false)]
        case .rotational:
            return (0..<lines).map { turned(by: $0) }
        }
    }

    /// The `k`th of `lines` equal turns about the centre (clockwise on screen, y pointing down).
    /// Quarter turns use exact sines and cosines, so that they map pixels onto pixels.
    private func turned(by k: Int) -> Copy {
        let (c, s): (Double, Double)
        if (4 * k) % lines == 0 {
            (c, s) = [(1.0, 0.0), (0, 1), (-1, 0), (0, -1)][(4 * k / lines) % 4]
        } else {
            let a = 2 * Double.pi * Double(k) / Double(lines)
            (c, s) = (cos(a), sin(a))
        }
        return Copy(xx: c, xy: -s, yx: s, yy: c, tx: x - c * x + s * y, ty: y - s * x - c * y,
                    turn: 360 * Double(k) / Double(lines), mirrors: false)
    }
}
