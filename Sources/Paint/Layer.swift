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
    public var pixels: TiledTexture
    public var attributes: LayerAttributes

    public init(attributes: LayerAttributes) {
        pixels = TiledTexture()
        self.attributes = attributes
    }

    public var name: String { attributes.name }
    /// Where a pixel may be non-transparent (whole tiles).
    public var bounds: Rect { pixels.paintedBounds }
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

    public init(name: String, visible: Bool = true, opacity: Double = 1, mode: BlendMode = .normal, extra: [ExtraAttribute] = []) {
        self.name = name; self.visible = visible; self.opacity = opacity; self.mode = mode; self.extra = extra
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
