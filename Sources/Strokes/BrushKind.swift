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
