import Kernels
import Strokes

/// A colour channel the R/G/B toggles flip.
public enum Channel: String, Sendable, CaseIterable { case r, g, b }

/// What the user can ask of the document, from a key or a replay line.
public enum Command: Sendable, Equatable {
    /// Changes any of the brush's kind, size (1…512) and colour; nil leaves it as it is.
    case brush(kind: BrushKind? = nil, size: Int? = nil, color: Color? = nil)
    /// Flips one channel of the current colour between 0 and full (the aptpod demo's toggles).
    case channel(Channel)
    case undo
    case redo
    case clear
    /// Turns the invert view on or off (nil: toggles).
    case invert(Bool?)
    /// Turns the pulsing background on or off (nil: toggles) and sets any of its parameters.
    case pulse(on: Bool?, hue: Double? = nil, centre: Double? = nil, range: Double? = nil)
    /// The session closed cleanly (a journal's last line). Changes nothing.
    case exit
}

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

    /// Applies a command's brush changes.
    mutating func apply(kind: BrushKind?, size: Int?, color: Color?) {
        if let kind, kind != tip.kind {
            sizes[tip.kind] = tip.size
            tip = BrushTip(kind: kind, size: sizes[kind] ?? kind.defaultSize)
        }
        if let size { tip = BrushTip(kind: tip.kind, size: size) }
        if let color { self.color = color }
    }

    mutating func flip(_ channel: Channel) {
        func flipped(_ v: UInt8) -> UInt8 { v == 0 ? 255 : 0 }
        switch channel {
        case .r: color.r = flipped(color.r)
        case .g: color.g = flipped(color.g)
        case .b: color.b = flipped(color.b)
        }
    }
}
