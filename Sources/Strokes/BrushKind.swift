/// The shape-making part of a brush: what the stroke engine needs to know.
public enum BrushKind: String, Sendable, CaseIterable {
    /// Anti-aliased round dabs along a smoothed curve.
    case pen
    /// Hard-edged: a Bresenham line stamped with a midpoint filled circle (the aptpod demo).
    case pixel
    /// Liquid metal: particles sprayed around each sample, blurred and thresholded into
    /// metaballs, embossed when the stroke ends (Simon Gladman's MercurialPaint).
    case mercurial
    /// Brings back the background: the pen's anti-aliased, smoothed dabs, taking paint away.
    case eraser

    /// The size a brush of this kind starts at.
    public var defaultSize: Int {
        switch self {
        case .pen, .pixel: 8
        case .mercurial: 200
        case .eraser: 24
        }
    }

    /// Anti-aliased dabs along a smoothed curve (the pen and the eraser).
    public var isSmooth: Bool { self == .pen || self == .eraser }
}
