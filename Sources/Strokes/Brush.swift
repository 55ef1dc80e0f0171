/// The shape-making part of a brush: what the stroke engine needs to know.
public enum BrushKind: String, Sendable, CaseIterable {
    /// Anti-aliased round dabs along a smoothed curve.
    case pen
    /// Hard-edged: a Bresenham line stamped with a midpoint filled circle (the aptpod demo).
    case pixel
    /// Liquid metal: particles sprayed around each sample, blurred and thresholded into
    /// metaballs, embossed when the stroke ends (Simon Gladman's MercurialPaint).
    case mercurial

    /// The size a brush of this kind starts at.
    public var defaultSize: Int { self == .mercurial ? 200 : 8 }
}

/// A brush tip: kind and nominal size. Sizes run 1…512.
public struct BrushTip: Sendable, Equatable {
    public static let sizes = 1...512
    public var kind: BrushKind
    public var size: Int
    public init(kind: BrushKind = .pen, size: Int = 8) {
        self.kind = kind
        self.size = min(max(size, Self.sizes.lowerBound), Self.sizes.upperBound)
    }

    /// Effective diameter: size × 2 × pressure, never below 1 px (pressure 0.5 gives the nominal size).
    public func diameter(pressure: Double) -> Double {
        max(1, Double(size) * 2 * min(max(pressure, 0), 1))
    }

    /// Distance between pen dabs for a diameter. Discs of radius r spaced s apart leave
    /// scallops s²/8r deep along the stroke's edge; s = √(0.8 r) keeps them at 0.1 px, below
    /// what anti-aliasing shows, at any size (a fixed fraction of the diameter would either
    /// waste dabs on small brushes or scallop large ones).
    static func spacing(diameter: Double) -> Double { max(0.5, (0.4 * diameter).squareRoot()) }
}

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
