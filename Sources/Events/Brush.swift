import Kernels
import Strokes

/// The current brush: a tip (kind and size), a colour, and how the mercurial brush's metal is lit.
public struct Brush: Sendable, Equatable {
    public var tip: BrushTip
    public var color: Color
    /// How much the pen steadies a shaky hand, 0…1 (0: off, no added lag). See `Stabilizer`.
    public var stabilizer = 0.0
    /// The lights and shininess a mercurial stroke is embossed with (the one in force when the
    /// stroke starts, as the colour is).
    public var shading = Shading.mercurialPaint
    /// Each kind keeps its own size: switching to the mercurial brush and back restores 8.
    private var sizes: [BrushKind: Int] = [:]
    /// The MyPaint brush that paints instead of the tip, when one is chosen (its colour is
    /// `color`); choosing a kind puts it away.
    public var mypaint: MyPaintChoice?
    /// Default: pen, size 8, black.
    public init(tip: BrushTip = BrushTip(), color: Color = .black) { self.tip = tip; self.color = color }

    /// The size a kind paints at when chosen: its remembered size, else its default.
    public func size(for kind: BrushKind) -> Int { kind == tip.kind ? tip.size : sizes[kind] ?? kind.defaultSize }

    /// Applies a command's brush changes (nil leaves a part as it is).
    public mutating func apply(kind: BrushKind?, size: Int?, color: Color?, stabilizer: Double? = nil) {
        if kind != nil { mypaint = nil }
        if let kind, kind != tip.kind {
            sizes[tip.kind] = tip.size
            tip = BrushTip(kind: kind, size: sizes[kind] ?? kind.defaultSize)
        }
        if let size { tip = BrushTip(kind: tip.kind, size: size) }
        if let color { self.color = color }
        if let stabilizer { self.stabilizer = min(max(stabilizer, 0), 1) }
    }

    /// Applies what `command` changes of a brush (its tip, colour, stabilizer, shading or a
    /// channel flip); false, and nothing changed, for any other command.
    @discardableResult
    public mutating func apply(_ command: Command) -> Bool {
        switch command {
        case .brush(let kind, let size, let color, let stabilizer): apply(kind: kind, size: size, color: color, stabilizer: stabilizer)
        case .mypaint(let choice):
            mypaint = choice
            if let c = choice.color { color = c }
        case .shading(let s): shading = s
        case .channel(let c): flip(c)
        default: return false
        }
        return true
    }

    /// The steps `s` goes through: off, then three strengths.
    public static let stabilizerSteps = [0, 1.0 / 3, 2.0 / 3, 1]

    /// The stabilizer step after the current one (off after the strongest).
    public var nextStabilizer: Double {
        let i = Self.stabilizerSteps.firstIndex { $0 > stabilizer + 1e-9 } ?? 0
        return Self.stabilizerSteps[i]
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
