/// A brush tip: kind and nominal size. Sizes run 1…512.
public struct BrushTip: Sendable, Equatable {
    public static let sizes = 1...512
    public var kind: BrushKind
    public var size: Int
    /// The pressure at which a brush paints at its nominal size: what a device without pressure
    /// draws with when no modifier key is held, and a replay sample's pressure when it has none.
    public static let nominalPressure = 0.5

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
