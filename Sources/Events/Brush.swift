import Kernels
import Strokes

/// The current brush: a tip (kind and size) and a colour.
public struct Brush: Sendable, Equatable {
    public var tip: BrushTip
    public var color: Color
    /// Each kind keeps its own size: switching to the mercurial brush and back restores 8.
    private var sizes: [BrushKind: Int] = [:]
    /// Default: pen, size 8, black.
    public init(tip: BrushTip = BrushTip(), color: Color = .black) { self.tip = tip; self.color = color }

    /// The size a kind paints at when chosen: its remembered size, else its default.
    public func size(for kind: BrushKind) -> Int { kind == tip.kind ? tip.size : sizes[kind] ?? kind.defaultSize }

    /// Applies a command's brush changes (nil leaves a part as it is).
    public mutating func apply(kind: BrushKind?, size: Int?, color: Color?) {
        if let kind, kind != tip.kind {
            sizes[tip.kind] = tip.size
            tip = BrushTip(kind: kind, size: sizes[kind] ?? kind.defaultSize)
        }
        if let size { tip = BrushTip(kind: tip.kind, size: size) }
        if let color { self.color = color }
    }

    /// Flips one channel of the colour between 0 and full.
    public mutating func flip(_ channel: Channel) {
        func flipped(_ v: UInt8) -> UInt8 { v == 0 ? 255 : 0 }
        switch channel {
        case .r: color.r = flipped(color.r)
        case .g: color.g = flipped(color.g)
        case .b: color.b = flipped(color.b)
        }
    }
}
