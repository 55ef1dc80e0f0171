import Compute
import Geometry
import Kernels

/// One layer of a document.
///
/// **The pixel model** (read this first): a layer holds its own colour with real transparency,
/// as premultiplied 8-bit RGBA in 0xAARRGGBB words (r, g, b ≤ a; 0 is transparent), stored in
/// 64x64 tiles that exist only where something was drawn (an empty layer costs an empty
/// dictionary, whatever the canvas's size). The background (a plain colour, or
/// the pulse) is not a layer: it sits under the stack, and what is shown is the background, then
/// each visible layer from the bottom up, blended with its mode and opacity (`BlendMode`, the
/// W3C formulas OpenRaster names). Painting is premultiplied source-over into the current
/// layer; the eraser takes alpha away (destination-out), so the layers below, and at the bottom
/// the background, show through. Files hold straight alpha: a layer's pixels are converted at
/// the file's edge only (`Premultiplied`).
public final class Layer {
    public var pixels: TiledTexture { didSet { revision &+= 1 } }
    public var attributes: LayerAttributes
    /// Counts the changes to its pixels (tiles replaced, or written and reported to the
    /// document): what a view of the layer made at one revision may keep while it holds.
    public internal(set) var revision = 0

    public init(attributes: LayerAttributes) {
        pixels = TiledTexture()
        self.attributes = attributes
    }

    public var name: String { attributes.name }
    /// Where a pixel may be non-transparent (whole tiles).
    public var bounds: Rect { pixels.paintedBounds }
    /// Whether this entry is a group (it holds no pixels; it owns the entries below it that are
    /// deeper than it: see `LayerAttributes.depth`).
    public var isGroup: Bool { attributes.group != nil }
}

/// How a group composes its children, as OpenRaster's `isolation` says and Krita reads it.
public enum Isolation: Sendable, Equatable {
    /// Krita's pass-through (`isolation="auto"`, or none): the children blend straight onto
    /// what is below the group, each with its own mode; the group's opacity multiplies theirs
    /// and its mode is not used.
    case passThrough
    /// `isolation="isolate"`: the children composed onto transparency, the result blended onto
    /// what is below with the group's mode and opacity.
    case isolated
}

/// What a layer is besides its pixels: everything OpenRaster keeps of it.
public struct LayerAttributes: Sendable, Equatable {
    public var name: String
    public var visible = true
    /// 0…1, as files give it; the compose uses it in 1/255 steps (`opacity255`).
    public var opacity = 1.0
    public var mode = BlendMode.normal
    /// Attributes of an opened file that this program does not use, kept for saving (name, value).
    public var extra: [ExtraAttribute] = []
    /// Non-nil for a group: how it composes its children.
    public var group: Isolation?
    /// How many groups hold the entry (0: the stack's own). The stack is a flat list, bottom
    /// first, and a group owns the entries directly below it that are deeper than it, as PSD's
    /// section markers do: read top first, an entry is at most one deeper than a group above
    /// it, and no deeper than any other entry above it.
    public var depth = 0

    public init(name: String, visible: Bool = true, opacity: Double = 1, mode: BlendMode = .normal, extra: [ExtraAttribute] = [],
                group: Isolation? = nil, depth: Int = 0) {
        self.name = name; self.visible = visible; self.opacity = opacity; self.mode = mode; self.extra = extra
        self.group = group; self.depth = depth
    }

    /// The opacity as the compose applies it, 0…255.
    public var opacity255: UInt32 { UInt32((min(max(opacity, 0), 1) * 255).rounded()) }
}

/// An attribute of a file's layer, kept as it was.
public struct ExtraAttribute: Sendable, Equatable {
    public var name: String
    public var value: String
    public init(name: String, value: String) { self.name = name; self.value = value }
}
